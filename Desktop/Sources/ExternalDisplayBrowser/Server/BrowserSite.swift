import Hummingbird
import HummingbirdWebSocket

/// What one mode shows browsers through the one ``BrowserServer``: slide pages while presenting (``SlideSite``), the
/// film's page while playing (``BrowserFilm``). The server owns the address, the guard, the routes and the token
/// check; a site only answers.
///
/// Every site is served at the same four places: `/` the audience page, `/remote?token=…` the remote page, `/ws`
/// the audience page's socket and `/remote/ws?token=…` the remote's socket. `/media` is the film's file, where a
/// site has one.
protocol BrowserSite: Sendable {
    /// The audience page (`/`).
    func audiencePage() -> Response
    /// The remote page (`/remote`), once the server has checked the token.
    func remotePage() -> Response
    /// The site's media (`/media`), answered for a `Range` header: nil when the site has none (404).
    func media(range: String?) -> Response?
    /// Serves an audience page's socket (`/ws`) until it ends.
    func serveAudience(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async
    /// Serves the remote's socket (`/remote/ws`), once the server has checked the token, until it ends.
    func serveRemote(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async
    /// Ends every page's socket (the server stops).
    func finish()
}
