import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// The one way this module listens: Hummingbird with WebSocket upgrades behind a ``ConnectionGuardHandler`` on
/// every connection, with the limits, Host/Origin policy and connection budget of a ``BrowserServerConfiguration``.
/// ``BrowserServer`` is its one user: one route table and one socket dispatch for every site.
enum GuardedHTTPServer {
    /// What a WebSocket upgrade request becomes (the request, and the port the connection arrived on).
    typealias Upgrade = @Sendable (HTTPRequest, Int) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>

    /// Serves `router` and `upgrade` until the task is cancelled; `onListening` gets the bound port.
    static func run(configuration: BrowserServerConfiguration, router: Router<BasicRequestContext>,
                    upgrade: @escaping Upgrade, onListening: @escaping @Sendable (Int) -> Void) async throws {
        var logger = Logger(label: "extdisplay.browser")
        logger.logLevel = .critical
        let ws = WebSocketServerConfiguration(maxFrameSize: 1 << 14,
                                              autoPing: .enabled(timePeriod: configuration.heartbeat),
                                              closeTimeout: .seconds(2), validateUTF8: true)
        let limits = ConnectionLimits(headerTimeout: configuration.headerTimeout, idleTimeout: configuration.idleTimeout,
                                      maximumHeadBytes: configuration.maximumHeadBytes)
        let policy = RequestGuard.Policy(boundHost: configuration.host, port: configuration.port,
                                         publicOrigins: configuration.publicOrigins)
        let budget = ConnectionBudget(maximum: min(configuration.maximumConnections, BrowserServer.raiseFileLimit() - 64),
                                      pendingPerAddress: configuration.maximumPendingPerAddress,
                                      reserved: configuration.reservedConnections)
        let server = HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init(ws: ws)) { request, channel, _ in
                    upgrade(request, channel.localAddress?.port ?? configuration.port)
                },
                limits: limits, policy: policy, budget: budget)
        }
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService(gracefulShutdownSignals: [])
    }

    /// Whether an upgrade request names this server and comes from its pages (the guard checked the raw head
    /// already; this checks what Hummingbird parsed), with its path and query.
    static func admitted(_ request: HTTPRequest, port: Int,
                         configuration: BrowserServerConfiguration) -> (path: String, query: [String: String])? {
        let policy = RequestGuard.Policy(boundHost: configuration.host, port: port, publicOrigins: configuration.publicOrigins)
        guard let target = request.path, let split = RequestGuard.split(target),
              RequestGuard.hostAllowed(request.authority, policy: policy),
              RequestGuard.originAllowed(request.headerFields[.origin], policy: policy) else {
            return nil
        }
        return split
    }

    /// Starts `run` (a server that calls its argument with the bound port once listening) on a task of its own
    /// and waits until it listens: the task (cancel it to stop serving) and the port.
    static func listen(configuration: BrowserServerConfiguration,
                       run: @escaping @Sendable (@escaping @Sendable (Int) -> Void) async throws -> Void)
        async throws(BrowserServerError) -> (task: Task<Void, Never>, port: Int) {
        let (ports, found) = AsyncStream<Result<Int, BrowserServerError>>.makeStream()
        let task = Task.detached {
            do {
                try await run { found.yield(.success($0)) }
                found.yield(.failure(BrowserServerError("the server stopped")))
            } catch {
                found.yield(.failure(BrowserServerError("cannot listen on \(configuration.host):\(configuration.port): \(error)")))
            }
        }
        for await result in ports {
            switch result {
            case .success(let port): return (task, port)
            case .failure(let error): throw error
            }
        }
        throw BrowserServerError("the server stopped before it listened")
    }

    /// `http://HOST:PORT/` (an IPv6 host in brackets).
    static func baseURL(host: String, port: Int) -> URL {
        URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/")!
    }

    /// A page from the binary, with headers that keep it from being framed, cached or leaking its URL, and a
    /// content security policy that lets it load nothing but its own script, its socket and, when `mediaSource`
    /// is given, media from there.
    static func page(_ html: String, mediaSource: String? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.init("Referrer-Policy")!] = "no-referrer"
        headers[.init("X-Frame-Options")!] = "DENY"
        headers[.init("Content-Security-Policy")!] =
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src blob:; connect-src 'self'"
            + (mediaSource.map { "; media-src \($0)" } ?? "")
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A plain-text answer: `message` and a newline.
    static func text(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = HTTPFields()) -> Response {
        var headers = headers
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }

    /// Serves one page's socket: `writer` (everything the server sends the page on its own) runs beside the reading
    /// of the page's text messages into `handle` until they end; then `stop` ends the writer's source, the writer is
    /// waited for, and only then is the close frame sent, when one is due. Nothing may follow a close frame: a
    /// browser that has answered one fails the socket on any later frame ("Text frame received after close"), and
    /// its page sees 1006 with no reason instead of the close the server sent. Returns why the socket ended,
    /// printable.
    ///
    /// A ``BrowserProtocolError`` (from `handle`, or a binary message: `textOnly` says who sends text only) closes
    /// with 1003 and the error as the reason; a message too large or malformed closes with 1009.
    static func serveSocket(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, maxSize: Int,
                            textOnly: String, writer: @escaping @Sendable () async -> Void, stop: () -> Void,
                            _ handle: (String) throws -> Void) async -> String {
        var ending = SocketEnding(reason: "")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await writer() }
            ending = await readText(inbound, maxSize: maxSize, textOnly: textOnly, handle)
            stop()
            group.cancelAll()
            // The group waits for the writer here: a write it had begun is on the wire before the close frame.
        }
        switch ending.close {
        case .refused(let reason): try? await outbound.close(.unacceptableData, reason: reason)
        case .malformed: try? await outbound.close(.messageTooLarge, reason: "message too large or malformed")
        case nil: break
        }
        return ending.reason
    }

    /// Why a page's socket ended, and the close frame due (none when the page closed or the connection is gone).
    struct SocketEnding: Sendable {
        /// Why, printable.
        var reason: String
        /// The close frame due, if any.
        var close: Close?

        /// A close frame due.
        enum Close: Sendable {
            /// 1003 (unacceptable data), with what was refused as the reason.
            case refused(String)
            /// 1009: a message too large or malformed.
            case malformed
        }
    }

    /// Reads a socket's text messages into `handle` until they end or one is refused (see ``serveSocket``), and
    /// says why, with the close frame due. Sends nothing itself.
    static func readText(_ inbound: WebSocketInboundStream, maxSize: Int, textOnly: String,
                         _ handle: (String) throws -> Void) async -> SocketEnding {
        do {
            for try await message in inbound.messages(maxSize: maxSize) {
                guard case .text(let text) = message else { throw BrowserProtocolError(textOnly) }
                try handle(text)
            }
            return SocketEnding(reason: "the page closed")
        } catch let error as BrowserProtocolError {
            return SocketEnding(reason: "closed: " + NetworkText.printable(error.description),
                                close: .refused(CloseReason.fitting(error.description)))
        } catch {
            return SocketEnding(reason: "connection lost", close: .malformed)
        }
    }
}
