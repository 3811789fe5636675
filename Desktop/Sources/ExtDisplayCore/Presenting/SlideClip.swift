public import Foundation

/// A video clip that plays on a slide: a Markdown image whose file is a video, or a PDF page's movie, screen
/// (rendition) or link annotation that names a local video file.
///
/// A Markdown clip is laid out like an image (``pageRect`` is nil); a PDF clip sits where its annotation sits on
/// the page (``pageRect`` in fractions of the whole page, origin top left, y down), mapped into the slide's frame
/// the way the page itself is.
///
/// ```swift
/// let clip = SlideClip(url: URL(fileURLWithPath: "/talk/demo.webm"), pageRect: SlideClip.Rect(x: 0.1, y: 0.2,
///                      width: 0.5, height: 0.4), autoplay: true)
/// clip.pageRect?.width   // 0.5 of the page's width
/// ```
public struct SlideClip: Hashable, Sendable {
    /// A rectangle in fractions of a page: x and y of the top-left corner, width and height, each in 0…1 (y grows
    /// downwards) — the rectangle zoom uses too.
    public typealias Rect = SlideRectangle

    /// The video file (local; resolved against the deck's folder).
    public var url: URL
    /// Where the clip sits on a PDF page, in fractions of the whole page; nil for a Markdown clip (laid out as a
    /// block).
    public var pageRect: Rect?
    /// Whether the clip starts on its own when its slide is shown (pdfpc's `autostart`); otherwise it waits for the
    /// presenter's play key.
    public var autoplay: Bool
    /// Whether the clip starts again from the beginning when it ends (pdfpc's `loop`).
    public var loops: Bool
    /// Whether the clip's sound is off (pdfpc's `noaudio`).
    public var muted: Bool
    /// Where playback starts, in seconds (pdfpc's `start`), 0 by default.
    public var start: Double
    /// Where playback stops, in seconds (pdfpc's `stop`), nil for the clip's end.
    public var stop: Double?

    /// Creates a clip.
    public init(url: URL, pageRect: Rect? = nil, autoplay: Bool = false, loops: Bool = false, muted: Bool = false,
                start: Double = 0, stop: Double? = nil) {
        self.url = url
        self.pageRect = pageRect
        self.autoplay = autoplay
        self.loops = loops
        self.muted = muted
        self.start = start
        self.stop = stop
    }
}
