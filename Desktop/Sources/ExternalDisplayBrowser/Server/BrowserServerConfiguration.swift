import Foundation

/// Where and how the browser-display server listens: address, port, the remote page's secret token and the
/// heartbeat that detects pages that went away without closing.
///
/// ```swift
/// var configuration = try BrowserServerConfiguration(listen: "8080")     // 127.0.0.1:8080
/// configuration = try BrowserServerConfiguration(listen: "0.0.0.0:8080") // every interface, named explicitly
/// ```
public struct BrowserServerConfiguration: Sendable {
    /// The address to bind: loopback unless another one is named explicitly.
    public var host: String
    /// The TCP port (0: any free port; the bound one is in ``BrowserServer/baseURL``).
    public var port: Int
    /// The secret the remote page needs (`/remote?token=…`). Random by default.
    public var remoteToken: String
    /// How often the server pings each page; a page that has not answered by the next ping is disconnected.
    public var heartbeat: Duration
    /// Whether pages may be given pictures ahead of time (``BrowserSurface/preload(_:)``): a flip is then a
    /// few-byte message and a draw, but a viewer can read the pictures held ahead in the browser's developer
    /// tools. False makes `preload` do nothing: pages get a picture only when it is shown (for talks that keep
    /// surprises).
    public var sendsAhead = true
    /// Origins a reverse proxy publishes the server under (`--serve-origin https://talk.example.org`): accepted
    /// as `Host` and `Origin` beside the server's own names. Pages loaded over https open `wss://` sockets.
    public var publicOrigins: [String] = []
    /// How long a connection may take to send a whole request head, from its first byte (or from opening).
    /// Longer (nothing sent, a request line cut off, headers trickled): it is closed. Default 10 s.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a connection that is not a WebSocket may stay silent after a request. Default 30 s.
    public var idleTimeout: Duration = .seconds(30)
    /// The largest request head (request line and header fields) in bytes; larger ones are answered 431 and
    /// closed. Default 16 KiB (the pages' requests are well under 2 KiB).
    public var maximumHeadBytes = 16_384
    /// Connections open at once, at most (kept 64 under the process's file limit, which the server raises to its
    /// hard limit when it starts). When one more arrives, the oldest connection that is not yet a WebSocket is
    /// closed; when every one is a WebSocket, the new one is. Default 512.
    public var maximumConnections = 512
    /// Connections from one address that are not yet WebSockets, at most: one more closes that address's oldest.
    /// Default 16 (a browser opens up to 6 per server).
    public var maximumPendingPerAddress = 16
    /// Connections audience pages can never take (the remote and new requests always find a place). Default 16.
    public var reservedConnections = 16
    /// Audience pages connected at once, at most: ``maximumConnections`` less ``reservedConnections`` (default 496).
    /// One more page is answered 503 (its page shows "Reconnecting…" and tries again every second). Setting it
    /// sets ``maximumConnections`` and keeps the reserve (`--serve-max-pages`).
    public var maximumPages: Int {
        get { maximumConnections - reservedConnections }
        set { maximumConnections = newValue + reservedConnections }
    }
    /// The values ``maximumPages`` may be given from the command line.
    public static let pagesRange = 1...60_000
    /// The bytes pictures for pages may take at once, shared by every page (held, queued for a page, and the one
    /// being rendered; see ``PictureBudget``). Default 256 MiB.
    public var pictureBudget = PictureBudget()

    /// A configuration. `remoteToken` defaults to 128 random bits in hex.
    public init(host: String = "127.0.0.1", port: Int = 0, remoteToken: String = BrowserServerConfiguration.randomToken(),
                heartbeat: Duration = .seconds(5)) {
        self.host = host
        self.port = port
        self.remoteToken = remoteToken
        self.heartbeat = heartbeat
    }

    /// Parses `[HOST:]PORT` (`8080`, `127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`). Without a host the server
    /// listens on loopback only. Throws a message saying what is wrong.
    public init(listen text: String) throws(BrowserProtocolError) {
        var host = "127.0.0.1", portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw BrowserProtocolError("--serve '\(text)': the host before ':' is empty or not an address")
            }
        }
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw BrowserProtocolError("--serve '\(text)': use [HOST:]PORT with a port 0…65535 (0: any free port), "
                                       + "e.g. 8080 or 0.0.0.0:8080")
        }
        self.init(host: host, port: port)
    }

    /// What is wrong with a public origin (`https://host[:port]`, nothing after it), or nil when it is one.
    public static func originProblem(_ origin: String) -> String? {
        let lowered = origin.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            return "use the origin pages are loaded from: https://HOST[:PORT] (no path)"
        }
        guard RequestGuard.Origin(origin) != nil else { return "not an origin: use https://HOST[:PORT], no path or user" }
        return nil
    }

    /// What is wrong with serving at most `pages` audience pages in this process (outside ``pagesRange``, or more
    /// than its hard limit on open files leaves room for beside the reserve), or nil when nothing is.
    public static func pagesProblem(_ pages: Int) -> String? {
        guard pagesRange.contains(pages) else {
            return "use \(pagesRange.lowerBound)…\(pagesRange.upperBound) pages"
        }
        let files = BrowserServer.fileHardLimit()
        let room = files - 64 - BrowserServerConfiguration().reservedConnections
        guard pages <= room else {
            return "this process may open at most \(files) files (its hard limit, ulimit -Hn): room for \(room) pages"
        }
        return nil
    }

    /// Whether the server is reachable only from this machine.
    public var isLoopback: Bool { host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.") }

    /// 128 random bits as 32 hex digits (from the system's cryptographic generator).
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }
}
