import ExternalDisplayKit
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The HTTP and WebSocket server behind browser displays (Hummingbird 2). It serves the audience page at `/`
/// and the remote at `/remote?token=…` from the binary (no files are read), turns each audience page's
/// WebSocket into a viewer, and reports viewers and remote commands as ``ServerEvent``s. It decides nothing:
/// ``BrowserDisplayPlatform`` turns the events into display events for the engine.
final class BrowserServer: Sendable {
    let configuration: BrowserServerConfiguration
    let events: AsyncStream<ServerEvent>
    private let continuation: AsyncStream<ServerEvent>.Continuation
    private let registry = NIOLockedValueBox(Registry())

    private struct Registry {
        var nextViewer = 1
        var remotes: [ObjectIdentifier: ViewerConnection] = [:]
        var remoteState: String?
        var remoteFrame: BrowserFrame?
    }

    init(configuration: BrowserServerConfiguration) {
        self.configuration = configuration
        (events, continuation) = AsyncStream<ServerEvent>.makeStream()
    }

    /// Serves until the task is cancelled; `onListening` gets the bound port once the socket is open.
    func run(onListening: @escaping @Sendable (Int) -> Void) async throws {
        let router = Router()
        router.get("/") { _, _ in Self.page(AudiencePage.html) }
        router.get("/remote") { [configuration] request, _ -> Response in
            guard RequestGuard.tokenMatches(request.uri.queryParameters["token"].map(String.init),
                                            configuration.remoteToken) else {
                return Self.refused("the remote needs the token the presenter's console shows (/remote?token=…)")
            }
            return Self.page(RemotePage.html)
        }
        try await GuardedHTTPServer.run(configuration: configuration, router: router,
                                        upgrade: { [self] request, port in upgrade(request, port: port) },
                                        onListening: onListening)
    }

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

    // MARK: WebSocket upgrades

    private func upgrade(_ request: HTTPRequest, port: Int) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let (path, query) = GuardedHTTPServer.admitted(request, port: port, configuration: configuration) else {
            return .dontUpgrade
        }
        switch path {
        case "/ws":
            return .upgrade([:]) { [self] inbound, outbound, _ in await serveViewer(inbound, outbound) }
        case "/remote/ws" where RequestGuard.tokenMatches(query["token"], configuration.remoteToken):
            return .upgrade([:]) { [self] inbound, outbound, _ in await serveRemote(inbound, outbound) }
        default:
            return .dontUpgrade
        }
    }

    private func serveViewer(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        let number = registry.withLockedValue { registry in
            defer { registry.nextViewer += 1 }
            return registry.nextViewer
        }
        let viewer = ViewerConnection(id: DisplayID("browser-\(number)"), sendsAhead: configuration.sendsAhead)
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

    private func serveRemote(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
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

    #if os(Linux)
    private static let fileResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let fileResource = RLIMIT_NOFILE
    #endif

    /// The most files this process may open once ``raiseFileLimit()`` has run: the hard limit, at most 65,536.
    static func fileHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(fileResource, &limit) == 0 else { return 1_024 }
        return Int(min(limit.rlim_max, 65_536))
    }

    /// Raises the soft limit on open files to the hard one (at most 65,536) and returns the soft limit now.
    static func raiseFileLimit() -> Int {
        let resource = fileResource
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1_024 }
        let wanted = min(limit.rlim_max, 65_536)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(limit.rlim_cur)
    }

    // MARK: Pages

    private static func page(_ html: String) -> Response { GuardedHTTPServer.page(html) }

    private static func refused(_ message: String) -> Response { GuardedHTTPServer.text(.forbidden, message) }
}
