@testable import ExternalDisplayBrowser
import ExtDisplayTestSupport
import ExternalDisplayMedia
import Foundation
import NIOConcurrencyHelpers
import Testing

/// Issue 34: a socket the server closes with a reason must end with that close frame. Nothing may follow it: a
/// browser that has answered a close frame fails the socket on any later frame (Chromium: "Text frame received
/// after close"), and its page sees 1006 with no reason instead of the close it was sent. The server's own
/// messages to a page (timeline, answers, pictures) are written by a task of their own, beside the one that reads
/// the page and closes it.
@Suite(.serialized)
struct SocketCloseTests {
    /// One frame the server sent.
    struct Frame: Sendable {
        var opcode: UInt8
        var payload: [UInt8]
    }

    /// The frames a server sent after its 101 head, in order (a frame cut short at the end is left out). Server frames
    /// are never masked (RFC 6455 §5.1); one that is ends the list with opcode 0xFF.
    static func frames(_ bytes: [UInt8]) -> [Frame] {
        guard let end = ConnectionGuardHeadEnd.find(bytes) else { return [] }
        var out: [Frame] = []
        var index = end
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            guard bytes[index + 1] & 0x80 == 0 else { return out + [Frame(opcode: 0xFF, payload: [])] }
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            let extra = length == 126 ? 2 : length == 127 ? 8 : 0
            guard start + extra <= bytes.count else { break }
            if extra > 0 {
                length = bytes[start..<(start + extra)].reduce(0) { $0 << 8 | Int($1) }
                start += extra
            }
            guard start + length <= bytes.count else { break }
            out.append(Frame(opcode: opcode, payload: Array(bytes[start..<(start + length)])))
            index = start + length
        }
        return out
    }

    /// Opens `target`'s socket with `message` sent right behind the upgrade request, reads until a close frame has
    /// come, answers it as a browser does (a close frame back) and reads until the server ends the connection: every
    /// frame the server sent.
    static func hostile(_ port: Int, _ target: String, _ message: [UInt8]) throws -> [Frame] {
        let socket = try RawSocket(port: port)
        socket.send(upgradeRequest(target, port: port, origin: "http://127.0.0.1:\(port)"))
        socket.send(message)
        // Hang guards 10 s each: the server answers within milliseconds, and closes within its 2 s close timeout.
        let (first, _) = socket.read(timeout: 10) { frames($0).contains { $0.opcode == 0x8 } }
        socket.send(clientFrame("", opcode: 0x8))
        let (rest, _) = socket.read(timeout: 10)
        return frames(first + rest)
    }

    /// What is wrong with how a socket closed with `code` ended (nil: the close frame came, with that code, last).
    static func problem(_ frames: [Frame], code: UInt16) -> String? {
        guard let close = frames.firstIndex(where: { $0.opcode == 0x8 }) else {
            return "no close frame (frames \(frames.map(\.opcode)))"
        }
        let payload = frames[close].payload
        let got = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 0
        guard got == code else { return "closed with \(got), not \(code)" }
        guard close == frames.count - 1 else {
            return "\(frames.count - 1 - close) frames after the close frame (opcodes \(frames[(close + 1)...].map(\.opcode)))"
        }
        return nil
    }

    @Test("play --serve: hostile sockets closed while the timeline streams end with the close frame, nothing after it")
    func videoCloseIsLast() async throws {
        let (film, server, port, _) = try await VideoRemoteServerTests.start()
        defer { server.stop() }
        // Timeline messages keep every page's writer busy, as a playing film's do (here far more often).
        let publishing = Task.detached {
            var sequence = 1
            while !Task.isCancelled {
                film.publish(TimelineMessage(sequence: sequence, item: nil,
                                               timeline: PlaybackTimeline(elapsed: Double(sequence) / 1_000, at: 100, rate: 1, duration: 60),
                                               discontinuity: false))
                sequence += 1
                try? await Task.sleep(nanoseconds: 200_000)
            }
        }
        defer { publishing.cancel() }
        let remote = "/remote/ws?token=\(VideoRemoteServerTests.token)"
        let cases: [(String, String)] = [("/ws", #"{"type":"control","action":"pause"}"#),
                                         (remote, #"{"type":"control","action":"eject"}"#),
                                         (remote, #"{"type":"control","action":"seekTo","value":"30"}"#)]
        let problems = NIOLockedValueBox<[String]>([])
        // Four connections at a time, 240 in all.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    try await onOwnThread {
                        for round in 0..<60 {
                            let (target, message) = cases[(lane + round) % cases.count]
                            if let problem = Self.problem(try Self.hostile(port, target, clientFrame(message)), code: 1003) {
                                problems.withLockedValue { $0.append("\(target.prefix(3)) \(message): \(problem)") }
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let found = problems.withLockedValue { $0 }
        #expect(found.isEmpty, "\(found.count) of 240 sockets: \(found.prefix(5))")
    }
}
