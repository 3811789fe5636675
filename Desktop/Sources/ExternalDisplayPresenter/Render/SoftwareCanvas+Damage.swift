#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit

extension SoftwareCanvas {
    /// Redraws only `rect` of `list`: clipped to it, black first, then every operation that may touch it, in
    /// order; the pixels inside are those a full ``draw(_:)`` gives, the pixels outside are left alone.
    /// It does not call ``finishFrame()`` (a window sends just that rectangle to the screen).
    public func redraw(_ list: DisplayList, in rect: Rect) {
        var clip = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(max(0, rect.width)), h: Int32(max(0, rect.height)))
        SDL_SetClipRect(surface, &clip)
        defer { SDL_SetClipRect(surface, nil) }
        fill(rect, RGBA(0, 0, 0))
        draw(operations: list.operations(touching: rect, metrics: self))
    }
}
#endif
