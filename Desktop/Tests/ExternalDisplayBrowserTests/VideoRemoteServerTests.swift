@testable import ExternalDisplayBrowser
import ExtDisplayTestSupport
import ExternalDisplayMedia
import Foundation
import Testing

/// The browser remote of `play --serve` on a real server over loopback: the token guards the page and the
/// socket, the remote's controls reach ``BrowserFilm/onRequest`` in order, at most 20 a second, and
/// audience pages or hostile messages are closed with a reason and reach nothing.
@Suite(.serialized)
struct VideoRemoteServerTests {
    /// What ``BrowserFilm/onRequest`` was called with, from the server's threads.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [BrowserVideoRequest] = []
        func append(_ request: BrowserVideoRequest) { lock.withLock { requests.append(request) } }
        var all: [BrowserVideoRequest] { lock.withLock { requests } }
        func clear() { lock.withLock { requests = [] } }
    }

    static let token = "0123456789abcdef0123456789abcdef"

    static func start() async throws -> (BrowserFilm, BrowserServer, Int, Received) {
        let (film, server, port) = try await VideoServerTests.start(try VideoServerTests.file(1_000)) { $0.remoteToken = Self.token }
        let received = Received()
        film.onRequest = { request in received.append(request) }
        return (film, server, port, received)
    }

    /// Opens `target`'s socket, sends `messages` and reads until `done` says what was read is the answer (by
    /// default: a close frame), the connection ends, or a hang guard of 20 s: the status of the upgrade, the text
    /// the server sent, and its close code. No fixed reading window: a loaded machine answers late, not differently.
    static func exchange(_ port: Int, _ target: String, _ messages: [String],
                         until done: @escaping @Sendable ([UInt8]) -> Bool = { closeCode(in: $0) != nil })
        async throws -> (status: Int, text: String, close: UInt16?) {
        try await onOwnThread {
            let socket = try RawSocket(port: port)
            socket.send(upgradeRequest(target, port: port, origin: "http://127.0.0.1:\(port)"))
            for message in messages { socket.send(clientFrame(message)) }
            let (bytes, _) = socket.read(timeout: 20, until: done)
            return (RawSocket.status(bytes), String(decoding: bytes, as: UTF8.self), closeCode(in: bytes))
        }
    }

    @Test("the remote's page and socket need the token; a wrong one is refused")
    func tokenGuards() async throws {
        let (_, server, port, _) = try await Self.start()
        defer { server.stop() }
        #expect(server.remoteURL?.absoluteString == "http://127.0.0.1:\(port)/remote?token=\(Self.token)")
        #expect(try await VideoServerTests.get(port, path: "/remote").status == 403)
        #expect(try await VideoServerTests.get(port, path: "/remote?token=0123").status == 403)
        #expect(try await VideoServerTests.get(port, path: "/remote?token=\(Self.token)").status == 200)
        let wrong = try await Self.exchange(port, "/remote/ws?token=nottheone", [], until: Self.answered)
        #expect(wrong.status != 101, "a socket with a wrong token was upgraded")
        let bare = try await Self.exchange(port, "/remote/ws", [], until: Self.answered)
        #expect(bare.status != 101, "the remote's socket was upgraded without a token")
        // A token names the remote: on the audience socket even the right one is refused, never taken for a page.
        let misplaced = try await Self.exchange(port, "/ws?token=\(Self.token)", [], until: Self.answered)
        #expect(misplaced.status != 101, "an audience socket carrying a token was upgraded")
    }

    /// Whether an upgrade was answered: its status line has arrived.
    @Sendable static func answered(_ bytes: [UInt8]) -> Bool { RawSocket.status(bytes) != 0 }

    @Test("the remote's controls arrive in order; more than 20 a second get an error and go nowhere")
    func controlsArriveInOrder() async throws {
        let (_, server, port, received) = try await Self.start()
        defer { server.stop() }
        let sent = [#"{"type":"control","action":"pause"}"#, #"{"type":"control","action":"seekBy","value":5}"#,
                    #"{"type":"control","action":"seekTo","value":12.5}"#, #"{"type":"control","action":"rate","value":2}"#,
                    #"{"type":"control","action":"volume","value":0.25}"#]
        let answer = try await Self.exchange(port, "/remote/ws?token=\(Self.token)", sent) { _ in received.all.count >= 5 }
        #expect(answer.status == 101 && answer.close == nil, "\(answer.text)")
        #expect(received.all == [.command(.pause), .command(.seek(by: 5)), .command(.changePosition(to: 12.5)),
                                                    .command(.changeRate(to: 2)), .volume(0.25)])
        received.clear()
        // The test's clock stands still (1,000 s): exactly 20 pass; the others get errors (the page's queue keeps the
        // newest 16 messages, so not all 80 arrive). Read until the 20th acted on and the last control's error.
        let flood = try await Self.exchange(port, "/remote/ws?token=\(Self.token)",
                                            Array(repeating: #"{"type":"control","action":"play"}"#, count: 100)) { bytes in
            received.all.count >= 20 && String(decoding: bytes, as: UTF8.self).hasSuffix("this one was not carried out\"}")
        }
        let acted = received.all.count
        #expect(acted == 20, "\(acted) of 100 controls sent at once were acted on")
        #expect(flood.text.contains("too many controls") && flood.close == nil, "\(flood.text.suffix(300))")
    }

    @Test("audience pages and hostile remote messages are closed with a reason; nothing reaches the player")
    func hostileMessagesAreClosed() async throws {
        let (_, server, port, received) = try await Self.start()
        defer { server.stop() }
        let audience = try await Self.exchange(port, "/ws", [#"{"type":"control","action":"pause"}"#])
        #expect(audience.close == 1003 && audience.text.contains("audience pages cannot control"), "\(audience.text)")
        for hostile in [#"{"type":"control","action":"seekTo","value":"30"}"#, #"{"type":"control","action":"rate","value":1e999}"#,
                        #"{"type":"control","action":"launch"}"#, String(repeating: "x", count: 5_000)] {
            let answer = try await Self.exchange(port, "/remote/ws?token=\(Self.token)", [hostile])
            #expect(answer.close == 1003 || answer.close == 1009, "\(hostile.prefix(50)): close \(String(describing: answer.close))")
        }
        #expect(received.all.isEmpty, "\(received.all)")
    }

    @Test("frames presented in the half second after a jump are its landing: the display latency pages get ignores them")
    func seekLandingsAreNotTheDisplaysLatency() async throws {
        let (film, server, _, _) = try await Self.start()
        defer { server.stop() }
        film.publish(TimelineMessage(sequence: 1, item: nil, timeline: PlaybackTimeline(elapsed: 30, at: 100, rate: 1, duration: 60),
                                       discontinuity: true))
        // The landing: frames 300 ms late within 0.5 s of the seek at host time 100.
        for index in 0..<10 {
            let at = 100.05 + Double(index) * 0.04
            film.framePresented(mediaTime: 30 + (at - 100) - 0.3, hostTime: at)
        }
        #expect(film.displayLatency == 0, "the landing was learnt as the display's latency: \(film.displayLatency)")
        // Then the display's steady latency, 60 ms, is learnt.
        for index in 0..<10 {
            let at = 100.6 + Double(index) * 0.04
            film.framePresented(mediaTime: 30 + (at - 100) - 0.06, hostTime: at)
        }
        #expect(abs(film.displayLatency - 0.06) < 1e-9, "\(film.displayLatency)")
    }
}
