import ExtDisplayTestSupport
import ExternalDisplayBrowser
import ExternalDisplayKit
import Foundation
import Hummingbird
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import Testing

/// The browser platform in-process, driven by a `DisplayCoordinator` like any platform: pages connect as
/// `network` displays with their viewport as their mode, resize, go away (closed, or silent past the
/// heartbeat); hostile clients are closed with an error and nothing else is affected; the remote needs its
/// token and a same-origin page; no path reaches a file.
@MainActor
@Suite(.serialized)
struct ServerTests {
    /// Records what the engine told the app.
    final class Recorder: DisplayCoordinatorDelegate {
        var attached: [DisplayAttachment] = []
        var detached: [DisplayID] = []
        var changed: [DisplayAttachment] = []
        func externalDisplayDidAttach(_ attachment: DisplayAttachment) { attached.append(attachment) }
        func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) { detached.append(display) }
        func externalDisplayDidChangeLayout(_ attachment: DisplayAttachment) { changed.append(attachment) }
    }

    /// Opens a raw WebSocket, sends `messages`, and returns the close code and reason the server answered with.
    nonisolated static func exchange(_ url: String, headers: HTTPFields = [:], _ messages: [WebSocketOutboundWriter.OutboundFrame],
                                     thenClose: Bool = false) async throws -> (code: String?, reason: String?) {
        var logger = Logger(label: "hostile")
        logger.logLevel = .critical
        let close = try await WebSocketClient.connect(url: url, configuration: .init(additionalHeaders: headers),
                                                      logger: logger) { inbound, outbound, _ in
            for message in messages { try await outbound.write(message) }
            if thenClose {
                try await Task.sleep(nanoseconds: 100_000_000)
                try await outbound.close(.normalClosure, reason: nil)
            }
            for try await _ in inbound {}
        }
        return (close.map { String(describing: $0.closeCode) }, close?.reason)
    }

    static func start(heartbeat: Duration = .seconds(2)) async throws -> (BrowserDisplayPlatform, DisplayCoordinator<BrowserDisplayPlatform>, Recorder, String) {
        let platform = BrowserDisplayPlatform(configuration: BrowserServerConfiguration(heartbeat: heartbeat))
        let url = try await platform.listen().absoluteString
        let coordinator = DisplayCoordinator(platform: platform)
        let recorder = Recorder()
        coordinator.delegate = recorder
        coordinator.start()
        return (platform, coordinator, recorder, url)
    }

    @Test("a page is a network display whose mode is its viewport; it takes frames; closing detaches it")
    func pageLifecycle() async throws {
        let (platform, coordinator, recorder, url) = try await Self.start()
        defer { coordinator.stop() }
        let load = try await LoadClient.connect(count: 1, to: url, width: 800, height: 450, dpr: 2)
        try await waitUntil("attach", timeout: 20) { recorder.attached.count == 1 }

        let display = try #require(recorder.attached.first).display
        #expect(display.connection == .network)
        #expect(display.currentMode.size == PixelSize(width: 1600, height: 900))
        let surface = try #require(coordinator.surface(for: display.id))
        #expect(surface.layout.frame.size == PixelSize(width: 1600, height: 900))
        #expect(surface.isVisible)

        // A frame reaches the page; the same frame again sends nothing.
        let frame = BrowserFrame(number: 41, png: Data([0x89, 0x50, 0x4e, 0x47]))
        surface.show(frame)
        #expect(await load.wait(timeout: 20) { $0.lastFrame == 41 })
        surface.show(frame)
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(load.snapshot[0].frames == 1, "an unchanged picture is not sent again")

        await load.close()
        try await waitUntil("detach", timeout: 20) { recorder.detached == [display.id] }
        #expect(coordinator.surface(for: display.id) == nil)
        #expect(platform.viewerCount == 0)
    }

    @Test("a resized page is a mode change: the same surface, laid out again, didChangeLayout, no detach")
    func resizeIsAModeChange() async throws {
        let (_, coordinator, recorder, url) = try await Self.start()
        defer { coordinator.stop() }
        let socket = "ws://" + url.dropFirst("http://".count) + "ws"
        let (steps, step) = AsyncStream<Void>.makeStream()
        let client = Task {
            var logger = Logger(label: "resize")
            logger.logLevel = .critical
            _ = try await WebSocketClient.connect(url: socket, logger: logger) { _, outbound, _ in
                var next = steps.makeAsyncIterator()
                try await outbound.write(.text(#"{"type":"viewport","width":640,"height":360,"dpr":1}"#))
                _ = await next.next()
                try await outbound.write(.text(#"{"type":"viewport","width":800,"height":450,"dpr":1.5}"#))
                _ = await next.next()
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        try await waitUntil("attach", timeout: 20) { recorder.attached.count == 1 }
        let id = try #require(recorder.attached.first).display.id
        let surface = try #require(coordinator.surface(for: id))
        step.yield()
        try await waitUntil("didChangeLayout", timeout: 20) { recorder.changed.count == 1 }
        let changed = try #require(recorder.changed.first)
        #expect(changed.display.id == id)
        #expect(changed.display.currentMode.size == PixelSize(width: 1200, height: 675))
        #expect(changed.display.modes.map(\.size) == [PixelSize(width: 1200, height: 675)])
        #expect(changed.layout.frame.size == PixelSize(width: 1200, height: 675))
        #expect(coordinator.surface(for: id) === surface, "the window (surface) was replaced, not laid out again")
        #expect(surface.layout.frame.size == PixelSize(width: 1200, height: 675))
        #expect(recorder.detached.isEmpty && recorder.attached.count == 1)
        step.yield()
        try await waitUntil("detach", timeout: 20) { recorder.detached == [id] }
        _ = try? await client.value
    }

    @Test("a page that stops answering the heartbeat is disconnected; the others stay")
    func heartbeat() async throws {
        let (_, coordinator, recorder, url) = try await Self.start(heartbeat: .milliseconds(300))
        defer { coordinator.stop() }
        let silent = try await LoadClient.connect(count: 1, to: url, stalled: 1)
        let alive = try await LoadClient.connect(count: 1, to: url)
        try await waitUntil("two attaches", timeout: 20) { recorder.attached.count == 2 }
        try await waitUntil("the silent page's detach", timeout: 20) { recorder.detached.count == 1 }
        #expect(recorder.detached.first == recorder.attached.first?.display.id)
        try await Task.sleep(nanoseconds: 1_000_000_000)
        #expect(recorder.detached.count == 1, "the page that answers stays connected")
        await silent.close()
        await alive.close()
    }

    @Test("hostile messages close only that connection, with an error saying what is wrong")
    func hostileMessages() async throws {
        let (platform, coordinator, recorder, url) = try await Self.start()
        defer { coordinator.stop() }
        let bystander = try await LoadClient.connect(count: 1, to: url)
        try await waitUntil("bystander attach", timeout: 20) { recorder.attached.count == 1 }
        let socket = "ws://" + url.dropFirst("http://".count) + "ws"
        let hostile: [[WebSocketOutboundWriter.OutboundFrame]] = [
            [.text("not json")], [.text("{\"type\":\"viewport\",\"width\":1e9,\"height\":1,\"dpr\":1}")],
            [.text("{\"type\":\"viewport\",\"width\":-1,\"height\":1,\"dpr\":1}")],
            [.binary(ByteBuffer(bytes: [0, 1, 2, 3]))], [.text(String(repeating: "x", count: 4_000))],
            [.text("{\"type\":\"viewport\",\"width\":640,\"height\":480,\"dpr\":1}"), .text("{\"type\":\"reboot\"}")],
            [.text("{\"type\":\"command\",\"name\":\"next\"}")],
        ]
        for messages in hostile {
            let close = try await Self.exchange(socket, messages)
            #expect(close.code != nil && close.code != "normalClosure", "\(messages) → \(close)")
            #expect(!(close.reason ?? "").isEmpty, "the close says what is wrong: \(messages)")
        }
        // The one hostile page that had connected was attached and then detached; the bystander is untouched.
        try await waitUntil("hostile page detach", timeout: 20) { recorder.detached.count == 1 }
        #expect(platform.viewerCount == 1)
        let surface = try #require(coordinator.surface(for: recorder.attached[0].display.id))
        surface.show(BrowserFrame(number: 5, png: Data([1, 2, 3])))
        #expect(await bystander.wait(timeout: 20) { $0.lastFrame == 5 })
        await bystander.close()
    }

    @Test("the remote needs the token and a same-origin page; viewers cannot send commands")
    func remoteAccess() async throws {
        let (platform, coordinator, _, url) = try await Self.start()
        defer { coordinator.stop() }
        var commands: [BrowserRemoteCommand] = []
        platform.onRemoteCommand = { commands.append($0) }
        let base = "ws://" + url.dropFirst("http://".count)
        let token = platform.configuration.remoteToken
        let next: [WebSocketOutboundWriter.OutboundFrame] = [.text("{\"type\":\"command\",\"name\":\"next\"}")]

        // No token, a wrong token, a token of the right length, one character short: the upgrade is refused.
        let port = Int(url.split(separator: ":").last!.dropLast())!
        for bad in ["/remote/ws", "/remote/ws?token=", "/remote/ws?token=\(String(repeating: "0", count: token.count))",
                    "/remote/ws?token=\(token.dropLast())", "/remote/ws?token=\(token)x", "/remote/ws?Token=\(token)"] {
            #expect(try await rawGET(port: port, target: bad, upgrade: true).0 != 101, "\(bad) was let in")
        }
        #expect(try await rawGET(port: port, target: "/remote/ws?token=\(token)", upgrade: true).0 == 101)
        // A token names the remote: an audience socket carrying one, even the right one, is refused.
        #expect(try await rawGET(port: port, target: "/ws?token=\(token)", upgrade: true).0 != 101)
        // A page of another site cannot open it even with the token.
        #expect(try await rawGET(port: port, target: "/remote/ws?token=\(token)", upgrade: true,
                                 origin: "http://evil.example").0 != 101)
        #expect(try await rawGET(port: port, target: "/ws", upgrade: true, origin: "http://evil.example").0 != 101)
        // An audience socket cannot send commands: it is closed, nothing happens.
        _ = try await Self.exchange(base + "ws", next)
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(commands.isEmpty)

        // With the token the command arrives.
        var own = HTTPFields()
        own[.origin] = "http://" + url.dropFirst("http://".count).dropLast()
        _ = try await Self.exchange(base + "remote/ws?token=\(token)", headers: own, next, thenClose: true)
        try await waitUntil("remote command", timeout: 20) { commands == [.next] }
    }

    @Test("HTTP: the pages from the binary, the remote page only with its token, no path reaches a file")
    func httpPaths() async throws {
        let (platform, coordinator, _, url) = try await Self.start()
        defer { coordinator.stop() }
        func status(_ path: String) async throws -> (Int, String) {
            // Raw request so that '..' is sent as written (URLSession would normalise it).
            let port = Int(url.split(separator: ":").last!.dropLast())!
            return try await rawGET(port: port, target: path)
        }
        #expect(try await status("/").0 == 200)
        #expect(try await status("/").1.contains("new WebSocket"))
        #expect(try await status("/remote").0 == 403)
        #expect(try await status("/remote?token=wrong").0 == 403)
        #expect(try await status("/remote?token=\(platform.configuration.remoteToken)").0 == 200)
        // The one server's film route: nothing to play while presenting, and it says so.
        let media = try await status("/media")
        #expect(media.0 == 404 && media.1.contains("serves slides, not a film"), "\(media)")
        for path in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                     "//etc/passwd", "/remote/../../etc/passwd", "/Package.swift", "/.build"] {
            let (code, body) = try await status(path)
            #expect(code == 404, "\(path) → \(code)")
            #expect(!body.contains("root:"), "\(path) leaked a file")
        }
    }
}

/// A GET with the request target sent byte for byte (optionally a WebSocket upgrade, with an Origin); returns
/// the status code and what was read (the connection is closed after the status line of an upgrade).
func rawGET(port: Int, target: String, upgrade: Bool = false, origin: String? = nil) async throws -> (Int, String) {
    try await Task.detached {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw SupportError("cannot connect to 127.0.0.1:\(port)") }
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if upgrade {
            request += "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        } else {
            request += "Connection: close\r\n"
        }
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var response = Data(), buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response.append(contentsOf: buffer[0..<count])
            if upgrade, response.contains(0x0a) { break }
        }
        let text = String(decoding: response, as: UTF8.self)
        let code = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (code, text)
    }.value
}
