#if canImport(CSDL2)
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows

/// Shows the presenter's display lists in a `ExternalDisplaySDL/DesktopSurface` (the desktop platform's
/// window on an external display): a new list is drawn and presented at once, and the surface's own draw pass
/// (exposure, its frame clock) redraws the same picture.
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

    /// How a PDF page that is not rendered yet is drawn (`.placeholder` live: the room sees the slide's frame for
    /// the moment the page renders, and the talk goes on).
    public var pageWaiting: PageWaiting {
        get { canvas.pageWaiting }
        set { canvas.pageWaiting = newValue }
    }

    /// The surface canvas's metrics.
    public var metrics: (any TextMetrics)? { canvas }

    /// Uploads the pictures of the pages either side of the one shown, when the page cache holds them: the
    /// next flip then copies a texture in the window's own format and presents.
    public func prepareAhead() { canvas.preparePagesAhead() }

    /// Keeps the list and draws and presents it now (not on a later pass of the main queue: a flip reaches the
    /// glass without waiting for anything else the loop does); exposure redraws the same list later.
    public func present(_ list: DisplayList) {
        self.list = list
        surface.setNeedsDisplay()
        surface.displayIfNeeded()
    }
}
#endif
