#if canImport(CSDL2)
public import ExternalDisplayKit
public import SDLWindows

/// A film's frame on an external display's window: letterboxed in the safe frame of the layout the engine gave
/// the display, black around it. Live `play` draws its film window with it and headless `play` its snapshots, so a
/// snapshot is drawn by the code a live window uses.
///
/// ```swift
/// let box = FilmPicture.draw(frame, on: canvas, layout: attachment.layout)   // nil: no frame yet, all black
/// ```
public enum FilmPicture {
    /// Where `frame` goes in a window covering `layout.frame` (window coordinates): as large as fits in the safe
    /// frame (the whole frame when the layout has no safe frame), centred.
    public static func box(for frame: VideoFrame, in layout: DisplayLayout) -> Rect {
        let safe = Rect(x: layout.safeFrame.x - layout.frame.x, y: layout.safeFrame.y - layout.frame.y,
                        width: layout.safeFrame.width, height: layout.safeFrame.height)
        let area = Rect(x: 0, y: 0, width: layout.frame.width, height: layout.frame.height)
        return Letterbox.fit(aspect: Double(frame.width) / Double(max(1, frame.height)),
                             in: safe.width > 0 && safe.height > 0 ? safe : area)
    }

    /// Clears `canvas` to black and draws `frame` (if any) in its ``box(for:in:)``; returns that box.
    @discardableResult
    public static func draw(_ frame: VideoFrame?, on canvas: Canvas, layout: DisplayLayout) -> Rect? {
        canvas.clear(.black)
        guard let frame else { return nil }
        let box = box(for: frame, in: layout)
        canvas.drawOpaque(frame.pixels, width: frame.width, height: frame.height, order: frame.layout.canvasOrder, in: box)
        return box
    }
}
#endif
