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
