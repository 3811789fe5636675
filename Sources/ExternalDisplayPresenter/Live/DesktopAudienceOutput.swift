#if canImport(CSDL2)
import ExternalDisplayKit
import ExternalDisplaySDL

/// Shows the presenter's display lists in a `ExternalDisplaySDL/DesktopSurface` (the desktop platform's
/// window on an external display): the list is drawn in the surface's own draw pass, so exposure and the
/// surface's frame clock redraw the same picture.
@MainActor
public final class DesktopAudienceOutput: AudienceOutput {
    /// The surface shown on.
    public let surface: DesktopSurface
    private let canvas: SDLPresenterCanvas
    private var list: DisplayList?

    /// An output for a surface.
    public init(_ surface: DesktopSurface) {
        self.surface = surface
        self.canvas = SDLPresenterCanvas(surface.canvas)
        surface.onDraw = { [weak self] _ in
            guard let self, let list = self.list else { return }
            self.canvas.draw(list)
        }
    }

    /// The surface canvas's metrics.
    public var metrics: (any TextMetrics)? { canvas }

    /// Keeps the list and asks the surface for a redraw.
    public func present(_ list: DisplayList) {
        self.list = list
        surface.setNeedsDisplay()
    }
}
#endif
