@testable import ExternalDisplayBrowser
import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Testing

/// Issue 23, on a real server over loopback: what a client without the token can send never stalls, locks out
/// or misleads. DNS rebinding (row e), protocol violations (row h), slow and idle connections (row d), a flood
/// of connections (row c), text from pages printed (row f).
@MainActor
@Suite(.serialized)
struct ServerGuardTests {
    static func start(_ change: (inout BrowserServerConfiguration) -> Void = { _ in })
        async throws -> (BrowserDisplayPlatform, DisplayCoordinator<BrowserDisplayPlatform>, Int) {
        var configuration = BrowserServerConfiguration()
        change(&configuration)
        let platform = BrowserDisplayPlatform(configuration: configuration)
        let url = try await platform.listen().absoluteString
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.start()
        return (platform, coordinator, Int(url.split(separator: ":").last!.dropLast())!)
    }

    /// Sends `request` on a new connection and returns the response's status and whether the server closed.
    nonisolated static func ask(_ port: Int, _ request: String, timeout: Double = 10) async throws -> (status: Int, closed: Bool, text: String) {
        try await onOwnThread {
            let socket = try RawSocket(port: port)
            socket.send(request)
            let (bytes, closed) = socket.read(timeout: timeout) { bytes in
                // An upgrade answered 101 stays open: stop at the end of its head.
                RawSocket.status(bytes) == 101 && ConnectionGuardHeadEnd.find(bytes) != nil
            }
            return (RawSocket.status(bytes), closed, String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("DNS rebinding: a page and an upgrade under another name are refused; loopback names are served")
    func rebinding() async throws {
        let (platform, coordinator, port) = try await Self.start()
        defer { coordinator.stop() }
        let token = platform.configuration.remoteToken
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] {
            #expect(try await Self.ask(port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n").status == 200, "\(host)")
        }
        let rebound = "rebind.example:\(port)"
        #expect(try await Self.ask(port, "GET / HTTP/1.1\r\nHost: \(rebound)\r\n\r\n").status == 421)
        #expect(try await Self.ask(port, "GET /remote?token=\(token) HTTP/1.1\r\nHost: \(rebound)\r\n\r\n").status == 421)
        #expect(try await Self.ask(port, upgradeRequest("/ws", port: port, host: rebound, origin: "http://\(rebound)")).status != 101)
        #expect(try await Self.ask(port, upgradeRequest("/ws", port: port, origin: "http://\(rebound)")).status != 101)
        #expect(try await Self.ask(port, upgradeRequest("/remote/ws?token=\(token)", port: port, host: rebound,
                                                        origin: "http://\(rebound)")).status != 101)
        #expect(try await Self.ask(port, upgradeRequest("/ws", port: port, host: "127.0.0.1:\(port + 1)")).status != 101)
        // The server's own page upgrades.
        #expect(try await Self.ask(port, upgradeRequest("/ws", port: port, origin: "http://127.0.0.1:\(port)")).status == 101)
        #expect(try await Self.ask(port, upgradeRequest("/remote/ws?token=\(token)", port: port,
                                                        origin: "http://localhost:\(port)")).status == 101)
    }

    @Test("a reverse proxy's public origin (--serve-origin) is accepted; an https origin without it is not")
    func publicOrigin() async throws {
        let (_, coordinator, port) = try await Self.start { $0.publicOrigins = ["https://talk.example.org"] }
        defer { coordinator.stop() }
        #expect(try await Self.ask(port, upgradeRequest("/ws", port: port, host: "talk.example.org",
                                                        origin: "https://talk.example.org")).status == 101)
        #expect(try await Self.ask(port, upgradeRequest("/ws", port: port, origin: "https://talk.example.org")).status == 101)
        #expect(try await Self.ask(port, upgradeRequest("/ws", port: port, origin: "https://other.example.org")).status != 101)
        let (_, plain, plainPort) = try await Self.start()
        defer { plain.stop() }
        #expect(try await Self.ask(plainPort, upgradeRequest("/ws", port: plainPort, origin: "https://talk.example.org")).status != 101)
    }

    @Test("a duplicate Host is 400, a 1 MB header is 431; both are closed")
    func malformedHeads() async throws {
        let (_, coordinator, port) = try await Self.start()
        defer { coordinator.stop() }
        let duplicate = try await Self.ask(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: rebind.example:\(port)\r\n\r\n")
        #expect(duplicate.status == 400 && duplicate.closed, "\(duplicate)")
        let huge = try await Self.ask(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: "
                                      + String(repeating: "a", count: 1 << 20) + "\r\n\r\n")
        #expect(huge.status == 431 && huge.closed, "\(huge.status) closed \(huge.closed)")
        let body = try await Self.ask(port, "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 4\r\n\r\nabcd")
        #expect(body.closed && body.status >= 400, "\(body)")
    }

    @Test("an unmasked client frame is closed with 1002 (RFC 6455 5.1); a masked one is a page")
    func unmaskedFrames() async throws {
        let (platform, coordinator, port) = try await Self.start()
        defer { coordinator.stop() }
        let viewport = #"{"type":"viewport","width":640,"height":360,"dpr":1}"#
        let (code, closed) = try await onOwnThread {
            let socket = try RawSocket(port: port)
            socket.send(upgradeRequest("/ws", port: port))
            _ = socket.read(timeout: 10) { ConnectionGuardHeadEnd.find($0) != nil }
            socket.send(clientFrame(viewport, masked: false))
            let (bytes, closed) = socket.read(timeout: 10)
            return (closeCode(in: Array("HTTP/1.1 101 x\r\n\r\n".utf8) + bytes), closed)
        }
        #expect(code == 1002 && closed, "close code \(String(describing: code)), closed \(closed)")
        // The same in the upgrade's own packet.
        let first = try await onOwnThread {
            let socket = try RawSocket(port: port)
            socket.send(Array(upgradeRequest("/ws", port: port).utf8) + clientFrame(viewport, masked: false))
            let (bytes, closed) = socket.read(timeout: 10)
            return (closeCode(in: bytes), closed)
        }
        #expect(first.0 == 1002 && first.1, "\(first)")
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(platform.viewerCount == 0, "no unmasked page became a display")
        // Masked: a display.
        let socket = try RawSocket(port: port)
        socket.send(Array(upgradeRequest("/ws", port: port).utf8) + clientFrame(viewport))
        try await waitUntil("masked page attach") { platform.viewerCount == 1 }
        _ = socket
    }

    @Test("issue 40: six pages at once against a budget of four: four are displays, two learn at once they were refused")
    func pagesOverTheBudget() async throws {
        let (platform, coordinator, port) = try await Self.start { $0.maximumPages = 4 }
        defer { coordinator.stop() }
        #expect(platform.configuration.maximumConnections == 20, "the reserve of 16 stays")
        let start = Date()
        // Hang guard 60 s; every answer comes within a second.
        let load = try await LoadClient.connect(count: 6, to: "http://127.0.0.1:\(port)/", timeout: 60)
        let waited = Date().timeIntervalSince(start)
        let open = load.snapshot.filter(\.isOpen).count
        let problems = load.problems ?? ""
        await load.close()
        #expect(open == 4, "\(open) of 6 pages open against a budget of 4: \(problems)")
        #expect(problems.hasPrefix("2 of 6 viewers not open: 2 refused"), "\(problems)")
        #expect(waited < 30, "the load client waited \(waited) s for pages the server had refused")
    }

    @Test("a close reason is at most 123 bytes whatever the page sent; text from pages is printed without controls")
    func closeReasonsAndPrintedText() async throws {
        let (platform, coordinator, port) = try await Self.start()
        defer { coordinator.stop() }
        var lines: [String] = []
        platform.onViewerChange = { lines.append($0) }
        let socket = "ws://127.0.0.1:\(port)/ws"
        let viewport = WebSocketOutboundWriter.OutboundFrame.text(#"{"type":"viewport","width":640,"height":360,"dpr":1}"#)
        let hostileType = "\u{1B}[2J\u{1B}]0;owned\u{07}\nbrowser-1 gone: FAKE CONSOLE LINE\r" + String(repeating: "é漢🎉", count: 60)
        let json = String(data: try JSONSerialization.data(withJSONObject: ["type": hostileType]), encoding: .utf8)!
        let close = try await ServerTests.exchange(socket, [viewport, .text(json)])
        let reason = try #require(close.reason)
        #expect(reason.utf8.count <= 123, "close reason of \(reason.utf8.count) bytes")
        #expect(!reason.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        try await waitUntil("gone line") { lines.contains { $0.contains(" gone: ") } }
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line.debugDescription)")
            #expect(line.count <= NetworkText.lineLimit + 1, "a line of \(line.count) characters")
        }
        #expect(!lines.contains { $0.hasPrefix("browser-1 gone: FAKE") })
    }

    @Test("connections that send nothing, stop inside the request line or trickle headers are closed at the header timeout")
    func slowClients() async throws {
        let (_, coordinator, port) = try await Self.start {
            $0.headerTimeout = .seconds(1)
            $0.idleTimeout = .seconds(1)
        }
        defer { coordinator.stop() }
        let closed = try await onOwnThread {
            let silent = try RawSocket(port: port)
            let cut = try RawSocket(port: port)
            cut.send("GET / HT")
            let trickle = try RawSocket(port: port)
            trickle.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
            let kept = try RawSocket(port: port)
            kept.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            // Hang guard: 15 s, 15 times the timeout. The trickling one sends a header line each time none is closed.
            var header = 0
            poll(15, every: 0.2) {
                if silent.isClosedByPeer && cut.isClosedByPeer && trickle.isClosedByPeer && kept.isClosedByPeer { return true }
                header += 1
                trickle.send("X-Header-\(header): 1\r\n")
                return false
            }
            return [silent.isClosedByPeer, cut.isClosedByPeer, trickle.isClosedByPeer, kept.isClosedByPeer]
        }
        #expect(closed == [true, true, true, true], "silent, cut, trickling, idle after a request: \(closed)")
    }

    @Test("200 idle connections against a budget of 64: the oldest idle ones are closed, and the remote still connects")
    func connectionFlood() async throws {
        let (platform, coordinator, port) = try await Self.start {
            $0.maximumConnections = 64
            $0.maximumPendingPerAddress = 8
        }
        defer { coordinator.stop() }
        let token = platform.configuration.remoteToken
        let (open, status) = try await onOwnThread {
            var idle: [RawSocket] = []
            for _ in 0..<200 { idle.append(try RawSocket(port: port)) }
            let remote = try RawSocket(port: port)
            remote.send(upgradeRequest("/remote/ws?token=\(token)", port: port, origin: "http://127.0.0.1:\(port)"))
            let (bytes, _) = remote.read(timeout: 20) { ConnectionGuardHeadEnd.find($0) != nil }
            // Give the server a moment to close the ones it evicted (hang guard 10 s).
            let open = pollReading(10, every: 0.1, { idle.filter { !$0.isClosedByPeer }.count }, until: { $0 <= 64 })
            return (open, RawSocket.status(bytes))
        }
        #expect(status == 101, "the remote's upgrade was answered \(status)")
        #expect(open <= 64, "\(open) of 200 idle connections still open")
    }
}
