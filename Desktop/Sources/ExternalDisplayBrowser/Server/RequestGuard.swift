import Foundation

/// The server's checks on who may connect, kept pure so they are tested alone: same-origin WebSocket upgrades,
/// the remote's token (compared in constant time), and exact paths (nothing is ever read from disk, so no path
/// can traverse anywhere).
enum RequestGuard {
    /// Splits a request target into its path and decoded query items; nil when it is not a valid target.
    static func split(_ target: String) -> (path: String, query: [String: String])? {
        guard let components = URLComponents(string: target), components.host == nil else { return nil }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] where query[item.name] == nil { query[item.name] = item.value ?? "" }
        return (components.percentEncodedPath, query)
    }

    /// Whether a WebSocket upgrade comes from one of our own pages: a browser always sends `Origin`, the origin
    /// of the page that opens the socket, and it must be this server (`http://` + the `Host` the browser used).
    /// Clients that are not browsers send no origin or a `ws://` one (which no web page can have); they are let
    /// in, as a cross-site page can never send either.
    static func originAllowed(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        let lowered = origin.lowercased()
        if lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://") { return true }
        guard let host, !host.isEmpty else { return false }
        return lowered == "http://" + host.lowercased()
    }

    /// Compares a presented token with the secret without stopping at the first difference.
    static func tokenMatches(_ presented: String?, _ secret: String) -> Bool {
        guard let presented else { return false }
        let a = Array(presented.utf8), b = Array(secret.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<b.count { difference |= (i < a.count ? a[i] : 0) ^ b[i] }
        return difference == 0 && !b.isEmpty
    }
}
