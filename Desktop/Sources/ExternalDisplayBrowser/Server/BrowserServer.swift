import ExternalDisplayKit
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore

/// The one HTTP and WebSocket server behind browser pages (Hummingbird 2, under ``GuardedHTTPServer``'s guard: Host
/// and Origin checks, head size and time, connection budget; see ``BrowserServerConfiguration``). Both modes use it:
/// presenting, it serves the slide pages (browsers are displays of ``BrowserDisplayPlatform``); playing, the film's
/// page, its file and its timeline (``BrowserFilm``). The pages come from the binary; no file is read but a film's.
///
/// The server decides the routes and who may use the remote: `/` is the audience page, `/remote?token=…` the remote
/// (403 without the configuration's ``BrowserServerConfiguration/remoteToken``), `/ws` an audience page's socket
/// (refused when it carries a token: a token names the remote, and a wrong one is never taken for an audience page),
/// `/remote/ws?token=…` the remote's socket (refused without the token), `/media` the film's file (404 while
/// presenting). What each page is sent is the site's.
///
/// ```swift
/// let film = try BrowserFilm(file: url)
/// let server = BrowserServer(configuration: try BrowserServerConfiguration(listen: "8080"), film: film)
/// let page = try await server.listen()   // http://127.0.0.1:8080/
/// film.publish(message)                  // from the player's timeline effects
/// ```
public final class BrowserServer: Sendable {
    /// The server's configuration (address, remote token, limits).
    public let configuration: BrowserServerConfiguration
    private let site: any BrowserSite
    private let serving = NIOLockedValueBox<Task<Void, Never>?>(nil)
    private let baseURL = NIOLockedValueBox<URL?>(nil)

    /// A server for playing: `film`'s page, file and timeline. Nothing listens until ``listen()``.
    public convenience init(configuration: BrowserServerConfiguration, film: BrowserFilm) {
        self.init(configuration: configuration, site: film)
    }

    /// A server for `site`. Nothing listens until ``listen()``.
    init(configuration: BrowserServerConfiguration, site: any BrowserSite) {
        self.configuration = configuration
        self.site = site
    }

    /// Opens the listening socket and returns the audience page's URL (`http://HOST:PORT/`); the same URL again
    /// when it listens already.
    public func listen() async throws(BrowserServerError) -> URL {
        if let url = baseURL.withLockedValue({ $0 }) { return url }
        let (task, port) = try await GuardedHTTPServer.listen(configuration: configuration) { [self] onListening in
            try await GuardedHTTPServer.run(configuration: configuration, router: router(),
                                            upgrade: { [self] request, port in upgrade(request, port: port) },
                                            onListening: onListening)
        }
        serving.withLockedValue { $0 = task }
        let url = GuardedHTTPServer.baseURL(host: configuration.host, port: port)
        baseURL.withLockedValue { $0 = url }
        return url
    }

    /// The port listened on, once listening.
    var port: Int? { baseURL.withLockedValue { $0?.port } }

    /// The remote's URL (`http://HOST:PORT/remote?token=…`) once listening: a password, for the user's eyes only.
    public var remoteURL: URL? {
        baseURL.withLockedValue { $0 }.flatMap {
            URL(string: "remote?token=" + configuration.remoteToken, relativeTo: $0)?.absoluteURL
        }
    }

    /// Stops serving; every page is disconnected.
    public func stop() {
        serving.withLockedValue { $0?.cancel() }
        site.finish()
    }

    // MARK: Routes

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { [site] _, _ in site.audiencePage() }
        router.get("/remote") { [site, configuration] request, _ -> Response in
            guard RequestGuard.tokenMatches(request.uri.queryParameters["token"].map(String.init),
                                            configuration.remoteToken) else {
                return GuardedHTTPServer.text(.forbidden, "the remote needs its token (/remote?token=…): the "
                                              + "presenter's console or the player's first lines show the whole URL")
            }
            return site.remotePage()
        }
        router.get("/media") { [site] request, _ -> Response in
            site.media(range: request.headers[.range])
                ?? GuardedHTTPServer.text(.notFound, "nothing to play: the presenter serves slides, not a film")
        }
        return router
    }

    private func upgrade(_ request: HTTPRequest, port: Int) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let (path, query) = GuardedHTTPServer.admitted(request, port: port, configuration: configuration) else {
            return .dontUpgrade
        }
        switch path {
        case "/ws" where query["token"] == nil:
            return .upgrade([:]) { [site] inbound, outbound, _ in await site.serveAudience(inbound, outbound) }
        case "/remote/ws" where RequestGuard.tokenMatches(query["token"], configuration.remoteToken):
            return .upgrade([:]) { [site] inbound, outbound, _ in await site.serveRemote(inbound, outbound) }
        default:
            return .dontUpgrade
        }
    }

    // MARK: File limits

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
}
