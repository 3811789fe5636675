#if canImport(CSDL2)
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopProcesses
import DesktopText
import SDLWindows

/// Shows the presenter's display lists in a `DesktopSurface`: the one output of every live window — the
/// console, the desktop platform's audience windows (X11 RandR), and the presenter's own audience windows
/// (Wayland, SDL's display list). A new list is drawn and presented at once, and the surface's own draw pass
/// (exposure, its frame clock) redraws the same picture.
///
/// On a surface drawn on its window's surface (`DesktopSurface.Drawing.windowSurface`) only what changed is
/// drawn and sent to the screen (a ticking timer: the rectangles of its changed digits, ``DisplayListDamage``); otherwise
/// every change draws and presents the whole window.
///
/// ```swift
/// let surface = try DesktopSurface(display: "console", name: "console", frame: frame, role: .console,
///                                  title: "extdisplay present: console", borderless: true, drawing: .windowSurface)
/// let console = DesktopAudienceOutput(surface, caches: runtime.caches)
/// console.show()
/// console.present(list)   // the whole window the first time, then only changed rectangles
/// ```
@MainActor
public final class DesktopAudienceOutput: AudienceOutput {
    /// The surface shown on.
    public let surface: DesktopSurface
    private let canvas: SDLPresenterCanvas
    /// The list the surface's draw pass draws.
    private var list: DisplayList?
    /// The list the window shows now (nil: nothing known, the next present draws everything).
    private var shown: DisplayList?
    /// Presents that drew the whole window, and those that drew only a changed rectangle.
    public private(set) var fullDraws = 0, partialDraws = 0

    /// An output for a surface, drawing from the run's `caches`.
    public init(_ surface: DesktopSurface, caches: DrawingCaches) {
        self.surface = surface
        self.canvas = SDLPresenterCanvas(surface.canvas, caches: caches)
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

    /// The size lists are laid out at: the window's (a compositor may size it).
    public var size: PixelSize { surface.drawableSize }

    /// Uploads the pictures of the pages either side of the one shown, when the page cache holds them: the
    /// next flip then copies a texture in the window's own format and presents.
    public func prepareAhead() { canvas.preparePagesAhead() }

    /// Keeps the list and draws and presents it now (not on a later pass of the main queue: a flip reaches the
    /// glass without waiting for anything else the loop does); exposure redraws the same list later. On a
    /// window-surface drawing, only the rectangles that changed since the last present are drawn and sent, and
    /// nothing when nothing changed.
    public func present(_ list: DisplayList) {
        self.list = list
        guard surface.canPresentChangedRectangles else {
            shown = nil
            surface.setNeedsDisplay()
            surface.displayIfNeeded()
            if surface.isVisible { fullDraws += 1 }
            return
        }
        let damage = DisplayListDamage(from: shown, to: list, metrics: canvas)
        switch damage {
        case .none:
            return
        case .full:
            surface.setNeedsDisplay()
            surface.displayIfNeeded()
            fullDraws += 1
        case .rects(let rects):
            surface.display(changedRects: rects) { _, r in canvas.redraw(list, in: r) }
            partialDraws += 1
        }
        shown = list
        TimingTrace.note("presented \(size.width)x\(size.height) \(surface.displayName): " + {
            guard case .rects(let rects) = damage else { return "whole" }
            return "\(rects.count) rects, \(rects.reduce(0) { $0 + $1.width * $1.height }) pixels: "
                + rects.map { "\($0.x),\($0.y) \($0.width)x\($0.height)" }.joined(separator: "; ")
        }())
    }

    /// Forgets what the window shows (it was exposed, resized, or its surface replaced): the next present draws
    /// everything.
    public func invalidate() { shown = nil }

    /// Shows the window with the presenter's content.
    public func show() { surface.show(.app) }

    /// Hides the window.
    public func hide() { surface.hide() }

    /// Moves and resizes the window (screen pixels); the next present draws everything.
    public func place(_ frame: Rect) {
        surface.place(frame)
        shown = nil
    }

    /// Closes the window (its renderer and the page textures with it).
    public func close() {
        shown = nil
        list = nil
        surface.destroy()
    }
}
#endif
