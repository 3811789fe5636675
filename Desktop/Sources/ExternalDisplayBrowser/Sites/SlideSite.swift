import ExternalDisplayKit
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import Foundation

/// What the ``BrowserServer`` shows while presenting: the audience page, whose socket turns it into a viewer, and
/// the remote. Viewers and the remote's commands are reported as ``ServerEvent``s. It decides nothing:
/// ``BrowserDisplayPlatform`` turns the events into display events for the engine.
final class SlideSite: BrowserSite {
    /// Viewers and remote commands, in the order they happened.
    let events: AsyncStream<ServerEvent>
    private let sendsAhead: Bool
    private let continuation: AsyncStream<ServerEvent>.Continuation
    private let registry = NIOLockedValueBox(Registry())

    private struct Registry {
        var nextViewer = 1
        var remotes: [ObjectIdentifier: ViewerConnection] = [:]
        var remoteState: String?
        var remoteFrame: BrowserFrame?
        var remoteKeys: Set<String> = []
    }

    /// A site whose pages are sent pictures ahead of being shown when `sendsAhead`
    /// (``BrowserServerConfiguration/sendsAhead``).
    init(sendsAhead: Bool) {
        self.sendsAhead = sendsAhead
        (events, continuation) = AsyncStream<ServerEvent>.makeStream()
    }

    func audiencePage() -> Response { GuardedHTTPServer.page(AudiencePage.html) }

    func remotePage() -> Response { GuardedHTTPServer.page(RemotePage.html) }

    func media(range: String?) -> Response? { nil }

    /// Ends the event stream (the platform stops listening).
    func finish() { continuation.finish() }

    /// Sends the remote's state (JSON) and slide picture to every remote, now and to remotes that join later.
    func publishRemote(state: String, frame: BrowserFrame?) {
        let remotes = registry.withLockedValue { registry in
            registry.remoteState = state
            if let frame { registry.remoteFrame = frame }
            return Array(registry.remotes.values)
        }
        for remote in remotes {
            remote.send(text: state)
            if let frame { remote.offer(frame) }
        }
    }

    /// The tool keys the remote may send (``BrowserDisplayPlatform/remoteKeyNames``).
    var remoteKeys: Set<String> {
        get { registry.withLockedValue { $0.remoteKeys } }
        set { registry.withLockedValue { $0.remoteKeys = newValue } }
    }

    // MARK: Sockets

    func serveAudience(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        let number = registry.withLockedValue { registry in
            defer { registry.nextViewer += 1 }
            return registry.nextViewer
        }
        let viewer = ViewerConnection(id: DisplayID("browser-\(number)"), sendsAhead: sendsAhead)
        var connected = false
        let reason = await GuardedHTTPServer.serveSocket(
            inbound, outbound, maxSize: PageMessage.maximumSize, textOnly: "pages send text messages only",
            writer: { await viewer.runWriter { try await Self.write($0, to: outbound) } }, stop: viewer.finish) { text in
            switch try PageMessage.parse(text) {
            case .viewport(let viewport):
                continuation.yield(connected ? .viewerResized(viewer.id, viewport) : .viewerConnected(viewer, viewport))
                connected = true
            case .painted(let frame, _):
                viewer.painted(frame)
            }
        }
        if connected { continuation.yield(.viewerGone(viewer.id, reason: reason)) }
    }

    func serveRemote(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        let remote = ViewerConnection(id: DisplayID("remote"), holdsPictures: false)
        let key = ObjectIdentifier(remote)
        let (state, frame, count) = registry.withLockedValue { registry in
            registry.remotes[key] = remote
            return (registry.remoteState, registry.remoteFrame, registry.remotes.count)
        }
        continuation.yield(.remotes(count))
        if let state { remote.send(text: state) }
        if let frame { remote.offer(frame) }
        var pen = BrowserRemotePen()
        var refusedBefore = false
        _ = await GuardedHTTPServer.serveSocket(
            inbound, outbound, maxSize: BrowserRemoteMessage.maximumSize, textOnly: "the remote sends text messages only",
            writer: { await remote.runWriter { try await Self.write($0, to: outbound) } }, stop: remote.finish) { text in
            switch try BrowserRemoteMessage.parse(text, keys: remoteKeys, pen: &pen) {
            case .command(let command): continuation.yield(.remote(command))
            case .key(let name): continuation.yield(.remoteKey(name))
            case .ink(let ink): continuation.yield(.remoteInk(ink))
            case .zoom(let zoom): continuation.yield(.remoteZoom(zoom))
            case .refused(let reason):
                // The page is told every time; the presenter's output once a connection (a page sending nonsense
                // many times a second does not flood it).
                if !refusedBefore { continuation.yield(.remoteRefused(reason)) }
                refusedBefore = true
                remote.send(reply: Self.error(reason))
            }
        }
        // A connection lost with a stroke under way: the stroke ends where the finger last was (what was drawn stays).
        if let open = pen.open { continuation.yield(.remoteInk(BrowserRemoteInk(stroke: open, points: [], end: .up))) }
        let left = registry.withLockedValue { registry in
            registry.remotes[key] = nil
            return registry.remotes.count
        }
        continuation.yield(.remotes(left))
    }

    /// `{"type":"error","message":…}`: what the remote is told when a message of its was refused.
    static func error(_ reason: String) -> String {
        let encoded = (try? JSONSerialization.data(withJSONObject: ["type": "error", "message": NetworkText.printable(reason)],
                                                   options: [.sortedKeys]))
            .flatMap { String(data: $0, encoding: .utf8) }
        return encoded ?? "{\"type\":\"error\",\"message\":\"refused\"}"
    }

    private static func write(_ outgoing: ViewerConnection.Outgoing, to outbound: WebSocketOutboundWriter) async throws {
        switch outgoing {
        case .frame(let frame): try await outbound.write(.binary(frame.message))
        case .show(let number): try await outbound.write(.text("{\"type\":\"show\",\"frame\":\(number)}"))
        case .text(let text): try await outbound.write(.text(text))
        }
    }
}
