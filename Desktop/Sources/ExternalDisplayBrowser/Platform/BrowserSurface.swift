import ExternalDisplayKit

/// The surface of one browser display: the page. It takes frames (``show(_:)``); the page draws the newest one
/// it has received. Until the app's content is ready, or while hidden, the page shows its own placeholder or
/// black, as the engine says.
@MainActor
public final class BrowserSurface {
    /// The display (page) this surface is on.
    public let display: DisplayID
    /// The layout the engine gave the window (its frame is the page's size in device pixels).
    public internal(set) var layout: DisplayLayout
    /// Whether the engine shows the window.
    public internal(set) var isVisible = false
    /// What the window shows: placeholder until the app's content is ready.
    public internal(set) var content: SurfaceContent = .placeholder
    /// The last frame handed to the page.
    public private(set) var frame: BrowserFrame?
    let viewer: ViewerConnection
    private var preloaded: [UInt32] = []

    init(display: DisplayID, layout: DisplayLayout, viewer: ViewerConnection) {
        self.display = display
        self.layout = layout
        self.viewer = viewer
    }

    /// Sends a frame to the page unless it is the frame the page already has. A newer frame replaces one the
    /// page has not taken yet (latest frame wins); this never waits for the network.
    public func show(_ frame: BrowserFrame) {
        guard frame !== self.frame else { return }
        self.frame = frame
        if isVisible, content == .app { viewer.offer(frame) }
    }

    /// Gives the page pictures to hold decoded but not show (say, the slides either side of the current one), so
    /// that showing one later is a few-byte message and a draw of a picture it already has. A new set replaces
    /// one not yet sent; pictures the page holds are not sent again; the page holds at most four. Only while the
    /// window shows the app's content: a page waiting on the placeholder is given nothing ahead.
    ///
    /// What it means for viewers: a page holds pictures it does not show yet, and a curious viewer can read them
    /// in the browser's developer tools. Give it only what every viewer may see (the audience view, never notes),
    /// or nothing when the talk keeps surprises (``BrowserServerConfiguration/sendsAhead`` false: this does nothing).
    public func preload(_ frames: [BrowserFrame]) {
        guard isVisible, content == .app else { return }
        let ahead = frames.filter { $0 !== frame }
        let numbers = ahead.map(\.number)
        guard numbers != preloaded else { return }
        preloaded = numbers
        viewer.preload(ahead)
    }

    /// Sends the page the ink to draw over its picture (the presenter's `BrowserInkLayer` message,
    /// `{"type":"ink","frame":K,…}`), replacing ink not yet sent; only while the window shows the app's content
    /// (false otherwise: nothing is sent). This never waits for the network. The caller decides how often (at most
    /// one message a frame).
    @discardableResult
    public func showInk(_ message: String) -> Bool {
        guard isVisible, content == .app else { return false }
        viewer.send(ink: message)
        return true
    }

    /// The frame number the page last reported on screen.
    public var paintedFrame: UInt32? { viewer.lastPainted }

    func apply(visible: Bool, content: SurfaceContent) {
        self.isVisible = visible
        self.content = content
        viewer.send(text: "{\"type\":\"\(visible ? content.rawValue : "hidden")\"}")
        if visible, content == .app, let frame { viewer.offer(frame, again: true) }
    }
}
