import ExtDisplayTestSupport
@testable import ExternalDisplayBrowser
import Foundation
import Testing

/// Host and Origin against what the server is bound to (issue 23 row e: DNS rebinding), alone: a loopback
/// server answers only to loopback names with its port; a LAN server to the name it was given and address
/// literals; a reverse proxy's public origin when named. Every other name, port, scheme or malformed value is
/// refused.
struct RequestGuardTests {
    static let loopback = RequestGuard.Policy(boundHost: "127.0.0.1", port: 8080)
    static let everywhere = RequestGuard.Policy(boundHost: "0.0.0.0", port: 8080)
    static let named = RequestGuard.Policy(boundHost: "talk.local", port: 8080)
    static let proxied = RequestGuard.Policy(boundHost: "127.0.0.1", port: 8080,
                                             publicOrigins: ["https://talk.example.org"])

    @Test("a loopback server: loopback names with the right port only; rebinding names refused",
          arguments: [
              ("127.0.0.1:8080", true), ("localhost:8080", true), ("LOCALHOST:8080", true), ("[::1]:8080", true),
              ("127.0.0.2:8080", true), ("127.1.2.3:8080", true), ("localhost.:8080", true),
              ("rebind.example:8080", false), ("127.0.0.1.nip.io:8080", false), ("localhost.evil.example:8080", false),
              ("127.0.0.1:8081", false), ("127.0.0.1", false), ("localhost", false), ("192.168.1.5:8080", false),
              ("[::2]:8080", false), ("[::1]", false), ("", false), ("127.0.0.1:8080@evil.example", false),
              ("127.0.0.1:8080/x", false), ("127.0.0.1:80800", false), ("127.0.0.1:", false), ("127.0.0.1:+8080", false),
              ("127.0.0.1 :8080", false), ("127.0.0.256:8080", false), ("127.0.0:8080", false), ("[::1:8080", false),
              ("talk.example.org", false), ("0.0.0.0:8080", false),
          ])
    func loopbackHosts(host: String, allowed: Bool) {
        #expect(RequestGuard.hostAllowed(host, policy: Self.loopback) == allowed, "\(host)")
    }

    @Test("a server on every interface: address literals and loopback with its port; names only when given",
          arguments: [
              ("192.168.1.5:8080", true), ("10.0.0.7:8080", true), ("[fe80::1]:8080", true), ("127.0.0.1:8080", true),
              ("localhost:8080", true), ("rebind.example:8080", false), ("192.168.1.5:8081", false),
              ("192.168.1.5", false), ("printer.local:8080", false), ("[zz::1]:8080", false),
          ])
    func lanHosts(host: String, allowed: Bool) {
        #expect(RequestGuard.hostAllowed(host, policy: Self.everywhere) == allowed, "\(host)")
    }

    @Test("a server bound to a name answers to that name")
    func namedHost() {
        #expect(RequestGuard.hostAllowed("talk.local:8080", policy: Self.named))
        #expect(RequestGuard.hostAllowed("TALK.local:8080", policy: Self.named))
        #expect(!RequestGuard.hostAllowed("talk.local:9090", policy: Self.named))
        #expect(!RequestGuard.hostAllowed("rebind.example:8080", policy: Self.named))
        #expect(RequestGuard.hostAllowed("[::1]:8080", policy: RequestGuard.Policy(boundHost: "::1", port: 8080)))
        #expect(!RequestGuard.hostAllowed(nil, policy: Self.loopback))
    }

    @Test("origins: same server (http, right port), non-browsers and the proxy's public origin; nothing else",
          arguments: [
              (nil, true), ("http://127.0.0.1:8080", true), ("http://localhost:8080", true), ("http://[::1]:8080", true),
              ("ws://127.0.0.1", true), ("http://127.0.0.1:8080/", true),
              ("http://evil.example", false), ("http://rebind.example:8080", false), ("http://127.0.0.1:9999", false),
              ("null", false), ("https://127.0.0.1:8080", false), ("https://127.0.0.1:8080.evil.example", false),
              ("http://127.0.0.1", false), ("file://", false), ("http://user@127.0.0.1:8080", false),
              ("http://127.0.0.1:8080/path", false), ("https://talk.example.org", false), ("", false),
          ] as [(String?, Bool)])
    func origins(origin: String?, allowed: Bool) {
        #expect(RequestGuard.originAllowed(origin, policy: Self.loopback) == allowed, "\(origin ?? "nil")")
    }

    @Test("behind a TLS proxy: the public origin is accepted as Origin and as Host, nothing like it is")
    func proxy() {
        #expect(RequestGuard.originAllowed("https://talk.example.org", policy: Self.proxied))
        #expect(RequestGuard.originAllowed("https://TALK.example.org:443", policy: Self.proxied))
        #expect(RequestGuard.hostAllowed("talk.example.org", policy: Self.proxied))
        #expect(RequestGuard.hostAllowed("talk.example.org:443", policy: Self.proxied))
        #expect(RequestGuard.hostAllowed("127.0.0.1:8080", policy: Self.proxied))
        #expect(!RequestGuard.originAllowed("http://talk.example.org", policy: Self.proxied))
        #expect(!RequestGuard.originAllowed("https://talk.example.org:8443", policy: Self.proxied))
        #expect(!RequestGuard.originAllowed("https://evil.talk.example.org", policy: Self.proxied))
        #expect(!RequestGuard.hostAllowed("talk.example.org:8080", policy: Self.proxied))
        #expect(!RequestGuard.hostAllowed("rebind.example:8080", policy: Self.proxied))
        #expect(BrowserServerConfiguration.originProblem("https://talk.example.org") == nil)
        #expect(BrowserServerConfiguration.originProblem("https://talk.example.org/slides") != nil)
        #expect(BrowserServerConfiguration.originProblem("talk.example.org") != nil)
    }

    @Test("a whole head: exactly one Host (400 otherwise), an allowed one (421), every Origin allowed (403), no body")
    func heads() throws {
        func check(_ text: String) -> Int? {
            switch RequestGuard.parseHead(Array(text.utf8)) {
            case .failure(let refusal): return refusal.status
            case .success(let head): return RequestGuard.check(head, policy: Self.loopback)?.status
            }
        }
        #expect(check("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n") == nil)
        #expect(check("GET /ws HTTP/1.1\r\nhost:localhost:8080\r\nOrigin: http://localhost:8080\r\nUpgrade: websocket\r\n\r\n") == nil)
        #expect(check("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nHost: 127.0.0.1:8080\r\n\r\n") == 400)
        #expect(check("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nHOST: rebind.example:8080\r\n\r\n") == 400)
        #expect(check("GET / HTTP/1.1\r\n\r\n") == 400)
        #expect(check("GET / HTTP/1.1\r\nHost: rebind.example:8080\r\n\r\n") == 421)
        #expect(check("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://rebind.example:8080\r\n\r\n") == 403)
        #expect(check("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\nOrigin: http://e.example\r\n\r\n") == 403)
        #expect(check("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n folded: x\r\n\r\n") == 400)
        #expect(check("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 5\r\n\r\n") == 413)
        #expect(check("GET / HTTP/2.0\r\nHost: 127.0.0.1:8080\r\n\r\n") == 400)
        #expect(check("GET  / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n") == 400)
        #expect(check("\u{1B}[2J / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n") == 400)
        let upgrade = try RequestGuard.parseHead(Array("GET /ws HTTP/1.1\nHost: a\nUpgrade: WebSocket\n\n".utf8)).get()
        #expect(upgrade.upgrade && upgrade.target == "/ws" && upgrade.hosts == ["a"])
    }

    @Test("the end of a head is found with CRLF or bare LF line ends, and not before it has arrived")
    func headEnds() {
        #expect(ConnectionGuardHandler.headEnd(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nrest".utf8)) == 27)
        #expect(ConnectionGuardHandler.headEnd(Array("GET / HTTP/1.1\nHost: a\n\nrest".utf8)) == 24)
        #expect(ConnectionGuardHandler.headEnd(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8)) == nil)
        #expect(ConnectionGuardHandler.headEnd(Array("GET / HTT".utf8)) == nil)
    }
}

/// The connection guard's parts alone (issue 23 rows c, h): frames followed for their masks, the connection
/// budget closing the oldest pending connection.
struct ConnectionGuardPartsTests {
    @Test("a client's frames: masked ones pass, however split; an unmasked one is found")
    func masks() {
        var checker = FrameMaskChecker()
        let frames = clientFrame("hello") + clientFrame(String(repeating: "x", count: 300)) + clientFrame("", opcode: 0x9)
        for byte in frames { #expect(checker.consume([byte]) == nil) }
        #expect(checker.consume(frames) == nil)
        var unmasked = FrameMaskChecker()
        #expect(unmasked.consume(clientFrame("hello") + clientFrame("x", masked: false)) != nil)
        var large = FrameMaskChecker()
        let header: [UInt8] = [0x82, 0x80 | 127, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 4]
        #expect(large.consume(header + [UInt8](repeating: 7, count: 65_536)) == nil)
        #expect(large.consume(clientFrame("after")) == nil)
        #expect(large.consume([0x81, 0x05]) != nil)
    }

    @Test("the budget closes the oldest pending connection, of the same address first, never a WebSocket")
    func budget() throws {
        final class Connection {}
        let budget = ConnectionBudget(maximum: 4, pendingPerAddress: 2, reserved: 1)
        let connections = (0..<8).map { _ in Connection() }
        let ids = connections.map { ObjectIdentifier($0) }
        func admit(_ index: Int, _ address: String) -> [ObjectIdentifier]? {
            switch budget.admit(ids[index], address: address, close: {}) {
            case .admitted(let evicted): return evicted.map(\.id)
            case .refused: return nil
            }
        }
        #expect(admit(0, "a") == [])
        #expect(admit(1, "a") == [])
        #expect(admit(2, "a") == [ids[0]], "a third pending from one address closes its oldest")
        budget.upgraded(ids[1])
        #expect(admit(3, "b") == [])
        #expect(admit(4, "c") == [], "4 of 4")
        #expect(admit(5, "d") == [ids[2]], "over the total: the oldest pending one closes (not the older WebSocket)")
        // Places among the pages are taken when the upgrade is asked for, before it is answered.
        #expect(budget.upgrading(ids[1], viewer: true))
        budget.upgraded(ids[1])
        #expect(budget.upgrading(ids[3], viewer: true))
        #expect(budget.upgrading(ids[4], viewer: true))
        #expect(!budget.upgrading(ids[5], viewer: true), "3 audience pages of 4, one reserved (two not yet answered)")
        budget.notUpgraded(ids[4])
        #expect(budget.upgrading(ids[5], viewer: true), "an upgrade answered otherwise frees its place")
        budget.notUpgraded(ids[5])
        budget.upgraded(ids[3])
        #expect(budget.upgrading(ids[4], viewer: true))
        budget.upgraded(ids[4])
        #expect(budget.upgrading(ids[5], viewer: false), "the remote always finds a place")
        budget.upgraded(ids[5])
        #expect(admit(6, "e") == nil, "every connection a WebSocket: the new one is refused")
        budget.remove(ids[5])
        #expect(admit(6, "e") == [])
    }
}
