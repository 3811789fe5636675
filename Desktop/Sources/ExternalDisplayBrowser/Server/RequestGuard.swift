import Foundation

/// The server's checks on who may connect, kept pure so they are tested alone: the `Host` a request names and
/// the `Origin` of the page that sends it (against DNS rebinding and other sites' pages), the remote's token
/// (compared in constant time), and exact paths (nothing is ever read from disk, so no path can traverse
/// anywhere).
enum RequestGuard {
    /// Splits a request target into its path and decoded query items; nil when it is not a valid target.
    static func split(_ target: String) -> (path: String, query: [String: String])? {
        guard let components = URLComponents(string: target), components.host == nil else { return nil }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] where query[item.name] == nil { query[item.name] = item.value ?? "" }
        return (components.percentEncodedPath, query)
    }

    /// Compares a presented token with the secret without stopping at the first difference.
    static func tokenMatches(_ presented: String?, _ secret: String) -> Bool {
        guard let presented else { return false }
        let a = Array(presented.utf8), b = Array(secret.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<b.count { difference |= (i < a.count ? a[i] : 0) ^ b[i] }
        return difference == 0 && !b.isEmpty
    }

    // MARK: Host and Origin

    /// What a request may call this server: the names a browser may have used to reach it.
    ///
    /// - A loopback server (127.x, ::1, localhost): `localhost`, `127.x.y.z` and `[::1]`, with the bound port.
    /// - Any other server: the name or address given with `--serve`, `localhost` and loopback literals, and any
    ///   IP address literal (IPv4 or bracketed IPv6), with the bound port. A browser sends an address literal only
    ///   when the page's own URL is that address, so a literal cannot be rebound; a *name* can, and only names
    ///   the speaker gave are accepted.
    /// - Public origins (`--serve-origin https://talk.example.org`, a reverse proxy's): that host with its port
    ///   (443 for https and 80 for http when none is written), as `Host` and as `Origin`.
    struct Policy: Hashable, Sendable {
        /// The address or name the server is bound to (`--serve HOST:PORT`).
        var boundHost: String
        /// The port the server listens on (the real one when 0 was asked for).
        var port: Int
        /// Origins a reverse proxy publishes the server under (`https://talk.example.org[:port]`), normalised.
        var publicOrigins: [Origin] = []

        /// A policy for a server bound to `boundHost:port`, published under `publicOrigins` too.
        init(boundHost: String, port: Int, publicOrigins: [String] = []) {
            self.boundHost = boundHost
            self.port = port
            self.publicOrigins = publicOrigins.compactMap(Origin.init)
        }

        /// Whether the server listens on loopback only.
        var isLoopback: Bool { RequestGuard.isLoopbackName(boundHost.lowercased()) }
    }

    /// A parsed origin: scheme, host (lowercased; IPv6 in brackets) and port (the scheme's default when absent).
    struct Origin: Hashable, Sendable {
        var scheme: String
        var host: String
        var port: Int

        /// Parses `scheme://host[:port]` (no path, query or user); nil for anything else (among them `null`).
        init?(_ text: String) {
            let lowered = text.lowercased()
            guard let separator = lowered.range(of: "://") else { return nil }
            let scheme = String(lowered[..<separator.lowerBound])
            let defaultPort: Int
            switch scheme {
            case "http", "ws": defaultPort = 80
            case "https", "wss": defaultPort = 443
            default: return nil
            }
            var rest = Substring(lowered[separator.upperBound...])
            if rest.hasSuffix("/") { rest = rest.dropLast() }
            guard let authority = Authority(rest, defaultPort: defaultPort) else { return nil }
            self.scheme = scheme
            host = authority.host
            port = authority.port
        }
    }

    /// A `host[:port]` as a request's `Host` names it.
    struct Authority: Hashable, Sendable {
        /// Lowercased; an IPv6 address keeps its brackets.
        var host: String
        var port: Int
        /// Whether the port was written (else it is the default one).
        var explicitPort = false

        /// Parses `name`, `name:port`, `1.2.3.4:port`, `[::1]:port`; nil for anything malformed (user info,
        /// paths, spaces, an empty name, a port outside 1…65535).
        init?(_ text: Substring, defaultPort: Int) {
            let text = text.lowercased()
            guard !text.isEmpty, text.utf8.count <= 255,
                  text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }),
                  !text.contains(where: { "/?#@\\,".contains($0) }) else { return nil }
            var host = Substring(text), portText: Substring?
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { return nil }
                host = text[...close]
                let after = text[text.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { return nil }
                    portText = after.dropFirst()
                }
                guard host.count > 2, host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                    return nil
                }
            } else if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            }
            guard !host.isEmpty else { return nil }
            if let portText {
                guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
                      let port = Int(portText), (1...65_535).contains(port) else { return nil }
                self.port = port
                explicitPort = true
            } else {
                port = defaultPort
            }
            self.host = String(host.hasSuffix(".") && !host.hasPrefix("[") ? host.dropLast() : host)
        }
    }

    /// Whether a request's `Host` names this server (see ``Policy``). A request without one is refused: every
    /// HTTP/1.1 client sends it.
    static func hostAllowed(_ host: String?, policy: Policy) -> Bool {
        guard let host, let authority = Authority(Substring(host), defaultPort: 80) else { return false }
        // Behind a TLS proxy the scheme the browser used is unknown here: a Host without a port matches the
        // public origin's host whatever its default port.
        if policy.publicOrigins.contains(where: { $0.host == authority.host && (!authority.explicitPort || $0.port == authority.port) }) {
            return true
        }
        guard authority.port == policy.port else { return false }
        return nameAllowed(authority.host, policy: policy)
    }

    /// Whether a page of `origin` may talk to this server: no `Origin` (not a browser: it could forge any header,
    /// which is what the token is for) or a `ws://`/`wss://` one (which no web page has) is let in; otherwise the
    /// origin must be `http://` + a name of this server with the bound port, or one of the public origins
    /// (`--serve-origin`). `null` (sandboxed and file pages) is refused.
    static func originAllowed(_ origin: String?, policy: Policy) -> Bool {
        guard let origin else { return true }
        let lowered = origin.lowercased()
        if lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://") { return true }
        guard let parsed = Origin(origin) else { return false }
        if policy.publicOrigins.contains(parsed) { return true }
        return parsed.scheme == "http" && parsed.port == policy.port && nameAllowed(parsed.host, policy: policy)
    }

    /// What a request head says about itself, for ``check(_:policy:)``.
    struct Head: Hashable, Sendable {
        /// The request target (`/ws`, `/remote?token=…`).
        var target: String
        /// Every `Host` field's value, in order.
        var hosts: [String]
        /// Every `Origin` field's value, in order.
        var origins: [String]
        /// Whether it asks for a WebSocket upgrade (`Upgrade: websocket`).
        var upgrade: Bool
    }

    /// Why a request is refused before it reaches a route: the status and a line saying why.
    struct Refusal: Hashable, Sendable, Error {
        var status: Int
        var message: String
    }

    /// Checks a whole request head: exactly one `Host`, naming this server; every `Origin` allowed.
    static func check(_ head: Head, policy: Policy) -> Refusal? {
        guard head.hosts.count == 1 else {
            return Refusal(status: 400, message: head.hosts.isEmpty ? "no Host header" : "more than one Host header")
        }
        guard hostAllowed(head.hosts[0], policy: policy) else {
            return Refusal(status: 421, message: "this server is not reached under that name (Host)")
        }
        // Browsers send one Origin; a client that sends several (swift-websocket's adds its own) has them all checked.
        guard head.origins.allSatisfy({ originAllowed($0, policy: policy) }) else {
            return Refusal(status: 403, message: "pages of another origin may not connect")
        }
        return nil
    }

    private static func nameAllowed(_ host: String, policy: Policy) -> Bool {
        if isLoopbackName(host) { return true }
        if policy.isLoopback { return false }
        let bound = policy.boundHost.lowercased()
        let boundName = bound.contains(":") && !bound.hasPrefix("[") ? "[\(bound)]" : bound
        return host == boundName || isAddressLiteral(host)
    }

    /// `localhost`, `127.x.y.z`, `[::1]` (and the unbracketed forms, for a bound host).
    static func isLoopbackName(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && isAddressLiteral(host)
    }

    /// An IPv4 dotted quad or a bracketed IPv6 address.
    static func isAddressLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") {
            var address = in6_addr()
            return inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1
        }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && (Int(part) ?? 256) <= 255
        }
    }
}

extension RequestGuard {
    /// Reads a request head (request line and header fields, up to and with the blank line): what ``check(_:policy:)``
    /// needs, or why it is refused (not HTTP/1.x, folded or malformed fields, a body: the server's requests have none).
    static func parseHead(_ bytes: [UInt8]) -> Result<Head, Refusal> {
        let bad = { (message: String) in Result<Head, Refusal>.failure(Refusal(status: 400, message: message)) }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first, first.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return bad("malformed request line")
        }
        let parts = first.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8) else {
            return bad("malformed request line")
        }
        var head = Head(target: String(decoding: parts[1], as: UTF8.self), hosts: [], origins: [], upgrade: false)
        for line in lines.dropFirst() {
            guard let first = line.first, first != 0x20, first != 0x09, let colon = line.firstIndex(of: 0x3A) else {
                return bad("malformed header field")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return bad("malformed header field") }
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self)
                .trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            switch name {
            case "host": head.hosts.append(value)
            case "origin": head.origins.append(value)
            case "upgrade": head.upgrade = head.upgrade || value.lowercased() == "websocket"
            case "content-length" where value != "0", "transfer-encoding":
                return .failure(Refusal(status: 413, message: "requests to this server have no body"))
            default: break
            }
        }
        return .success(head)
    }
}
