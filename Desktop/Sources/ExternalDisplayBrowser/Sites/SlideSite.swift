import ExternalDisplayKit
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers

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
        _ = await GuardedHTTPServer.serveSocket(
            inbound, outbound, maxSize: BrowserRemoteCommand.maximumSize, textOnly: "the remote sends text messages only",
            writer: { await remote.runWriter { try await Self.write($0, to: outbound) } }, stop: remote.finish) { text in
            continuation.yield(.remote(try BrowserRemoteCommand.parse(text)))
        }
        let left = registry.withLockedValue { registry in
            registry.remotes[key] = nil
            return registry.remotes.count
        }
        continuation.yield(.remotes(left))
    }

    private static func write(_ outgoing: ViewerConnection.Outgoing, to outbound: WebSocketOutboundWriter) async throws {
        switch outgoing {
        case .frame(let frame): try await outbound.write(.binary(frame.message))
        case .show(let number): try await outbound.write(.text("{\"type\":\"show\",\"frame\":\(number)}"))
        case .text(let text): try await outbound.write(.text(text))
        }
    }
}
