import ExternalDisplayKit
import Foundation

/// Browsers as external displays: every page that opens the server's URL is a display of connection kind
/// ``ExternalDisplayKit/ConnectionKind/network``. Its viewport (CSS size × devicePixelRatio) is its one mode,
/// a resize is a mode change, closing or reloading the page or losing the connection (no answer to the
/// heartbeat) is a disconnect. Its ``BrowserSurface`` takes frames. It decides nothing: the engine does.
///
/// ```swift
/// let platform = BrowserDisplayPlatform(configuration: try BrowserServerConfiguration(listen: "8080"))
/// let url = try await platform.listen()          // http://127.0.0.1:8080/
/// let coordinator = DisplayCoordinator(platform: platform)
/// coordinator.start()
/// coordinator.surface(for: "browser-1")?.show(BrowserFrame(number: 1, png: png))
/// ```
@MainActor
public final class BrowserDisplayPlatform: DisplayPlatform {
    /// Surfaces are pages.
    public typealias Surface = BrowserSurface

    /// The server configuration (address, remote token, heartbeat).
    public var configuration: BrowserServerConfiguration { server.configuration }
    /// Called with each command from the remote page.
    public var onRemoteCommand: ((BrowserRemoteCommand) -> Void)?
    /// Called with each drawing tool the remote page chose (one of ``remoteKeyNames``).
    public var onRemoteKey: ((String) -> Void)?
    /// Called with the remote page's pen input (checked: each number 0…1, at most
    /// ``BrowserRemoteInk/maximumPoints`` points, the stroke numbers in order — see ``BrowserRemotePen``).
    public var onRemoteInk: ((BrowserRemoteInk) -> Void)?
    /// Called with the remote page's zoom requests (a pinch, a two-finger drag, a double tap; checked: see
    /// ``BrowserRemoteZoom``).
    public var onRemoteZoom: ((BrowserRemoteZoom) -> Void)?
    /// Called with a line for the console when a remote's key or ink message was refused (once a connection; the
    /// page itself is told every time, as `{"type":"error","message":…}`).
    public var onRemoteRefused: ((String) -> Void)?
    /// The drawing tools' key names the remote page may send (`{"type":"key","name":…}`); none by default.
    public var remoteKeyNames: Set<String> {
        get { slides.remoteKeys }
        set { slides.remoteKeys = newValue }
    }
    /// Called when a page connects or goes away, with a line for the console
    /// (`browser-3 connected: 1280×720@60` / `browser-3 gone: the page closed`). The lines are printable and
    /// bounded: at most a few a second, then one summary line (`pages: 292 connected, 290 left (not listed); …`).
    public var onViewerChange: ((String) -> Void)?
    /// Remote pages connected now.
    public private(set) var remotesConnected = 0

    private let server: BrowserServer
    private let slides: SlideSite
    private var pump: Task<Void, Never>?
    private var deliver: (@MainActor ([DisplayEvent]) -> Void)?
    private var viewers: [DisplayID: (display: Display, connection: ViewerConnection)] = [:]
    private var surfaces: [DisplayID: BrowserSurface] = [:]
    private var changeLog = ViewerChangeLog()
    private var summaryTimer: Task<Void, Never>?
    private let startedAt = ContinuousClock.now

    /// A platform serving with `configuration`; nothing listens until ``listen()``.
    public init(configuration: BrowserServerConfiguration = BrowserServerConfiguration()) {
        slides = SlideSite(sendsAhead: configuration.sendsAhead)
        server = BrowserServer(configuration: configuration, site: slides)
    }

    /// Opens the listening socket and returns the audience URL (`http://HOST:PORT/`). Pages may connect from
    /// then on; they are reported as displays once ``start(delivering:)`` is called.
    public func listen() async throws(BrowserServerError) -> URL {
        if pump == nil {
            let events = slides.events
            pump = Task { [weak self] in
                for await event in events { self?.handle(event) }
            }
        }
        return try await server.listen()
    }

    /// The remote page's URL with its token: give it only to the speaker.
    public var remoteURL: URL? { server.remoteURL }

    /// Publishes what the remote page shows (JSON text the page understands, see ``BrowserRemoteState``) and a
    /// picture of the current slide.
    public func publishRemote(_ state: BrowserRemoteState, picture: BrowserFrame?) {
        slides.publishRemote(state: state.json, frame: picture)
    }

    // MARK: DisplayPlatform

    /// Starts reporting pages as displays; returns the pages connected already.
    public func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] {
        self.deliver = deliver
        return viewers.values.map(\.display).sorted { $0.id.rawValue < $1.id.rawValue }
    }

    /// Carries out a command on a page.
    public func perform(_ command: DisplayCommand) throws(DisplayPlatformError) {
        switch command {
        case .setMode(let id, let mode):
            // A page has exactly one mode, its viewport; the engine asks for another only by request.
            guard viewers[id]?.display.currentMode == mode else {
                throw DisplayPlatformError(command: command, reason: "a browser page's mode is its viewport; resize the page instead")
            }
        case .createWindow(let id, let layout):
            guard let viewer = viewers[id] else {
                throw DisplayPlatformError(command: command, reason: "the page has gone")
            }
            surfaces[id] = BrowserSurface(display: id, layout: layout, viewer: viewer.connection)
        case .layoutWindow(let id, let layout):
            // The page's new size: the surface stays; the next frame is drawn at it.
            surfaces[id]?.layout = layout
        case .showWindow(let id, let content), .setContent(let id, let content):
            surfaces[id]?.apply(visible: true, content: content)
        case .hideWindow(let id):
            surfaces[id]?.apply(visible: false, content: surfaces[id]?.content ?? .placeholder)
        case .destroyWindow(let id):
            surfaces[id] = nil
        case .setOverscanCompensation, .startFrameClock, .pauseFrameClock, .resumeFrameClock, .stopFrameClock,
             .startRefresh, .stopRefresh, .setRenderScale, .setFrameRate:
            // Pages do not overscan; frames are pushed on change, so there is no clock to run.
            break
        }
    }

    /// The page's surface, while the engine has a window on it.
    public func surface(for display: DisplayID) -> BrowserSurface? { surfaces[display] }

    /// Stops reporting and serving; every page is disconnected.
    public func stop() {
        deliver = nil
        surfaces = [:]
        viewers = [:]
        pump?.cancel()
        summaryTimer?.cancel()
        server.stop()
    }

    /// Pages connected now.
    public var viewerCount: Int { viewers.count }

    /// Whether `id` is one of this server's pages (connected now), e.g. to tell pages from other displays
    /// reported to the same delegate.
    public func hasPage(_ id: DisplayID) -> Bool { viewers[id] != nil }

    // MARK: Server events

    private func handle(_ event: ServerEvent) {
        switch event {
        case .viewerConnected(let connection, let viewport):
            let mode = viewport.mode
            let display = Display(id: connection.id, name: "browser \(connection.id.rawValue.dropFirst(8))",
                                  connection: .network, modes: [mode], preferredMode: mode)
            viewers[connection.id] = (display, connection)
            report(.connected, "\(connection.id) connected: \(mode)" + Self.clampNote(viewport))
            deliver?([.connect(display)])
        case .viewerResized(let id, let viewport):
            guard var viewer = viewers[id] else { return }
            let mode = viewport.mode
            guard mode != viewer.display.currentMode else { return }
            // The page now offers only its new viewport and is in it: a mode list change, which the engine answers
            // by laying the same window out again (didChangeLayout), never by tearing it down.
            viewer.display.modes = [mode]
            viewer.display.preferredMode = mode
            viewer.display.currentMode = mode
            viewers[id] = viewer
            report(.resized, "\(id) resized: \(mode)" + Self.clampNote(viewport))
            deliver?([.modesChanged(id, modes: [mode], preferred: mode, current: mode)])
        case .viewerGone(let id, let reason):
            guard viewers.removeValue(forKey: id) != nil else { return }
            report(.left, "\(id) gone: \(NetworkText.printable(reason))")
            deliver?([.disconnect(id)])
        case .remote(let command):
            onRemoteCommand?(command)
        case .remotes(let count):
            remotesConnected = count
        case .remoteKey(let name):
            onRemoteKey?(name)
        case .remoteInk(let ink):
            onRemoteInk?(ink)
        case .remoteZoom(let zoom):
            onRemoteZoom?(zoom)
        case .remoteRefused(let reason):
            onRemoteRefused?("remote: a message was refused: \(NetworkText.printable(reason)) (further ones are told to the page only)")
        }
    }
}

extension BrowserDisplayPlatform {
    private var seconds: Double {
        let elapsed = ContinuousClock.now - startedAt
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// ` (viewport 16384×16384 device pixels: larger than a display; scaled)` for a clamped viewport.
    fileprivate static func clampNote(_ viewport: BrowserViewport) -> String {
        guard viewport.isClamped else { return "" }
        let width = Int((viewport.cssWidth * viewport.devicePixelRatio).rounded())
        let height = Int((viewport.cssHeight * viewport.devicePixelRatio).rounded())
        return " (viewport \(width)×\(height) device pixels: larger than a display, pictures scaled)"
    }

    /// Prints a line about a page through the change log; when lines are held back, their summary is printed
    /// when the window ends.
    fileprivate func report(_ change: ViewerChangeLog.Change, _ line: String) {
        for out in changeLog.record(change, line: line, at: seconds, connectedNow: viewers.count) { onViewerChange?(out) }
        guard changeLog.isHolding, summaryTimer == nil else { return }
        let delay = max(0, changeLog.windowEnd - seconds)
        summaryTimer = Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9) + 1_000_000)
            guard let self else { return }
            summaryTimer = nil
            if let summary = changeLog.summary(at: seconds, connectedNow: viewers.count) { onViewerChange?(summary) }
        }
    }
}

/// The browser-display server could not start or stopped.
public struct BrowserServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    /// An error with a message.
    public init(_ description: String) { self.description = description }
}
