import Foundation

/// What every canvas of one run draws from, made once where the run starts and passed to each canvas, the deck
/// reader and the hosts (injected, not global): rendered PDF pages, decoded images, and the newest frame of each
/// slide clip. One run shares one set, so the console, every audience window and every browser picture hold an
/// image or a page once; a test or a benchmark makes its own and sees nothing of another's.
///
/// ```swift
/// let caches = DrawingCaches(pages: PageRasterCache(byteBudget: 256 << 20))
/// let deck = try DeckParser.parse(contentsOf: url, imageProblem: caches.imageProblem)
/// let canvas = try SDLPresenterCanvas(size: PixelSize(width: 1920, height: 1080), caches: caches)
/// ```
public final class DrawingCaches: Sendable {
    /// Rendered PDF pages (rendered ahead, bounded by its byte budget).
    public let pages: PageRasterCache
    /// Decoded PNG, JPEG and BMP images (decoded once; the deck reader's check fills it).
    let images: DecodedImages
    /// The newest decoded frame of each slide clip, written by the clip host.
    public let clipFrames: SlideClipFrames

    /// A set for one run: `pages` as given (by default the budget a talk uses, rendering ``PageRasterCache/furtherAhead``
    /// pages beyond the next two), empty image and clip stores.
    public init(pages: PageRasterCache = PageRasterCache(further: PageRasterCache.furtherAhead),
                clipFrames: SlideClipFrames = SlideClipFrames()) {
        self.pages = pages
        self.images = DecodedImages()
        self.clipFrames = clipFrames
    }

    /// Why the image at `url` cannot be shown, by decoding it into this run's image store (nil when it decodes):
    /// the deck reader's check, whose pixels the canvases then draw without a second decode.
    public var imageProblem: @Sendable (URL) -> String? {
        let images = self.images
        return { url in DeckParser.imageProblem(url, in: images) }
    }
}
