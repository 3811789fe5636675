@testable import ExternalDisplayBrowser
import ExtDisplayTestSupport
import ExternalDisplayMedia
import Foundation
import Testing

/// The video route and timeline socket of `play --serve` on a real server over loopback: the file byte for
/// byte, ranges, hostile Range headers, the same Host checks as the presenter's server, a page that never reads
/// (bounded, closed when nothing moves, publishing never waits), a page that reads slowly but steadily (kept).
@Suite(.serialized)
struct VideoServerTests {
    /// A file of `count` bytes whose byte i is i mod 251, with a WebM signature in front.
    static func file(_ count: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("edk-video-\(UUID().uuidString).webm")
        var bytes = (0..<count).map { UInt8($0 % 251) }
        let signature: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84] + Array("webm".utf8)
        bytes.replaceSubrange(0..<min(count, signature.count), with: signature.prefix(count))
        try Data(bytes).write(to: url)
        return url
    }

    static func start(_ url: URL, _ change: (inout BrowserServerConfiguration) -> Void = { _ in })
        async throws -> (BrowserFilm, BrowserServer, Int) {
        var configuration = BrowserServerConfiguration()
        change(&configuration)
        let film = try BrowserFilm(file: url, clock: { 1_000 })
        let server = BrowserServer(configuration: configuration, film: film)
        let address = try await server.listen().absoluteString
        return (film, server, Int(address.split(separator: ":").last!.dropLast())!)
    }

    /// One request on a new connection: status, head fields (lowercased names) and body.
    static func get(_ port: Int, _ extra: String = "", host: String? = nil, path: String = "/media")
        async throws -> (status: Int, fields: [String: String], body: [UInt8]) {
        try await onOwnThread {
            let socket = try RawSocket(port: port)
            socket.send("GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(extra)Connection: close\r\n\r\n")
            let (bytes, _) = socket.read(timeout: 20)
            guard let end = ConnectionGuardHeadEnd.find(bytes) else { return (RawSocket.status(bytes), [:], []) }
            var fields: [String: String] = [:]
            for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return (RawSocket.status(bytes), fields, Array(bytes[end...]))
        }
    }

    @Test("200 with Accept-Ranges, 206 with Content-Range, 416, 400; the container's type; the bytes themselves")
    func ranges() async throws {
        let url = try Self.file(300_000)
        let original = [UInt8](try Data(contentsOf: url))
        let (film, server, port) = try await Self.start(url)
        defer { server.stop() }
        #expect(film.container == .webm)
        let whole = try await Self.get(port)
        #expect(whole.status == 200 && whole.fields["accept-ranges"] == "bytes" && whole.fields["content-type"] == "video/webm")
        #expect(whole.body == original, "the whole file, byte for byte (\(whole.body.count) of \(original.count))")
        let part = try await Self.get(port, "Range: bytes=100000-100099\r\n")
        #expect(part.status == 206 && part.fields["content-range"] == "bytes 100000-100099/300000")
        #expect(part.body == Array(original[100_000...100_099]))
        let tail = try await Self.get(port, "Range: bytes=-10\r\n")
        #expect(tail.status == 206 && tail.body == Array(original.suffix(10)))
        let several = try await Self.get(port, "Range: bytes=5-9, 20-29\r\n")
        #expect(several.status == 206 && several.fields["content-range"] == "bytes 5-9/300000" && several.body == Array(original[5...9]))
        let outside = try await Self.get(port, "Range: bytes=300000-\r\n")
        #expect(outside.status == 416 && outside.fields["content-range"] == "bytes */300000")
        for hostile in ["bytes=9-5", "bytes=-", "bytes=abc", "bytes=" + String(repeating: "0-1,", count: 100),
                        "bytes=99999999999999999999999-1"] {
            let answer = try await Self.get(port, "Range: \(hostile)\r\n")
            #expect(answer.status == 400, "\(hostile.prefix(40)): \(answer.status)")
        }
        let huge = try await Self.get(port, "Range: bytes=99999999999999999999999-\r\n")
        #expect(huge.status == 416)
        // Only that file, only under this server's names.
        #expect(try await Self.get(port, path: "/media/../etc/passwd").status == 404)
        #expect(try await Self.get(port, path: "/clip.webm").status == 404)
        #expect(try await Self.get(port, host: "rebind.example:\(port)").status == 421)
        let page = try await Self.get(port, path: "/")
        #expect(page.status == 200 && page.fields["content-security-policy"]?.contains("media-src 'self'") == true)
    }

    @Test("a page that never reads: the server holds little, publishing never waits, others are served, and it is closed when nothing moves")
    func neverReads() async throws {
        let url = try Self.file(48 << 20)
        let (film, server, port) = try await Self.start(url) { $0.idleTimeout = .seconds(2) }
        defer { server.stop() }
        let before = Self.residentBytes()
        let stuck = try await onOwnThread { () -> [RawSocket] in
            (0..<8).compactMap { _ in
                guard let socket = try? RawSocket(port: port) else { return nil }
                socket.send("GET /media HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                return socket
            }
        }
        try await Task.sleep(for: .milliseconds(800))
        let started = ContinuousClock.now
        for sequence in 1...1_000 {
            film.publish(TimelineMessage(sequence: sequence, item: nil,
                                           timeline: PlaybackTimeline(elapsed: 0, at: 0, rate: 1), discontinuity: false))
        }
        #expect(ContinuousClock.now - started < .seconds(1), "publishing waited")
        let grown = Self.residentBytes() - before
        print("video route: 8 pages that never read 48 MiB each: resident memory grew by \(grown >> 10) KiB")
        // 8 × 48 MiB asked for; the server may hold a few chunks per connection, never the files.
        #expect(grown < 40 << 20, "resident memory grew by \(grown >> 20) MiB for 8 pages that never read")
        let other = try await Self.get(port, "Range: bytes=0-9\r\n")
        #expect(other.status == 206)
        // Nothing moved for the 2 s idle timeout: the server closed them. Read now, each gets what was in flight
        // and then the end: far less than the 48 MiB asked for (a connection left open would deliver all of it).
        try await Task.sleep(for: .seconds(4))
        let received = try await onOwnThread { () -> [(Int, Bool)] in
            stuck.map { socket in
                var total = 0
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                let end = Date().addingTimeInterval(10)
                while Date() < end {
                    var poller = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 1_000) > 0 else { continue }
                    let n = recv(socket.fd, &buffer, buffer.count, 0)
                    if n <= 0 { return (total, true) }
                    total += n
                }
                return (total, false)
            }
        }
        for (bytes, closed) in received {
            #expect(closed && bytes < 48 << 20, "a page that never read got \(bytes) bytes, closed: \(closed)")
        }
    }

    @Test("a page that reads steadily gets the whole file although it takes longer than the idle timeout")
    func readsSteadily() async throws {
        // 64 MiB at about 12 MB a second against a 2 s idle timeout: the response takes about 5 s. With a 1 s
        // timeout and 32 MiB, the server once saw no write for a whole second while the test command ran 72 tests
        // of this target on 2 cores (21 of 32 MB received, cut after 1.5 s; the cause — the response's producer not
        // scheduled, or the event loop late — is not proved); 2 s leaves room for scheduling, and a timer that did
        // not count writes would still cut the response near 2 s, about 24 MB in.
        let size = 64 << 20
        let url = try Self.file(size)
        let (_, server, port) = try await Self.start(url) { $0.idleTimeout = .seconds(2) }
        defer { server.stop() }
        let (received, seconds) = try await onOwnThread { () -> (Int, Double) in
            let socket = try RawSocket(port: port)
            var window: Int32 = 65_536
            setsockopt(socket.fd, SOL_SOCKET, SO_RCVBUF, &window, socklen_t(MemoryLayout<Int32>.size))
            socket.send("GET /media HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            var total = 0, buffer = [UInt8](repeating: 0, count: 1 << 16)
            let start = Date()
            // About 12 MB a second, in 512 KiB gulps 40 ms apart, and the server, whose kernel buffers hold about
            // 8 MB, writes all along.
            while total < size, Date().timeIntervalSince(start) < 40 {
                var gulp = 0
                while gulp < 512 << 10 {
                    var poller = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 1_000) > 0 else { break }
                    let n = recv(socket.fd, &buffer, buffer.count, 0)
                    if n <= 0 { return (total, Date().timeIntervalSince(start)) }
                    gulp += n
                    total += n
                }
                usleep(40_000)
            }
            return (total, Date().timeIntervalSince(start))
        }
        // Before the idle timer counted writes as activity, it cut every response at the timeout.
        #expect(received >= size, "got \(received) of \(size) bytes in \(seconds) s with a 2 s idle timeout")
        #expect(seconds > 3, "the response took \(seconds) s: not longer than the idle timeout, nothing was shown")
    }

    @Test("the timeline socket: hello, the newest timeline without the local path, clock answers, and a close for anything else")
    func timelineSocket() async throws {
        let url = try Self.file(1_000)
        let (film, server, port) = try await Self.start(url)
        defer { server.stop() }
        film.publish(TimelineMessage(sequence: 3, item: "/home/someone/secret/film.webm",
                                       timeline: PlaybackTimeline(elapsed: 12.5, at: 990, rate: 1, duration: 60),
                                       discontinuity: true))
        let (text, code) = try await onOwnThread { () -> (String, UInt16?) in
            let socket = try RawSocket(port: port)
            socket.send(upgradeRequest("/ws", port: port, origin: "http://127.0.0.1:\(port)"))
            socket.send(clientFrame(#"{"type":"clock","page":42.5}"#))
            let (bytes, _) = socket.read(timeout: 10) { String(decoding: $0, as: UTF8.self).contains("\"host\"") }
            socket.send(clientFrame(#"{"type":"show","frame":1}"#))
            let (rest, _) = socket.read(timeout: 10)
            return (String(decoding: bytes, as: UTF8.self), closeCode(in: Array("HTTP/1.1 101 x\r\n\r\n".utf8) + rest))
        }
        #expect(text.contains(#""type":"hello""#) && text.contains(#""contentType":"video/webm""#), "\(text)")
        #expect(text.contains(#""sequence":3"#) && text.contains(#""mediaTime":12.5"#), "\(text)")
        #expect(!text.contains("secret"), "the local path went to the page: \(text)")
        #expect(text.contains(#"{"type":"clock","page":42.5,"host":1000"#), "\(text)")
        #expect(code == 1003, "close code \(String(describing: code))")
    }

    static func residentBytes() -> Int {
        let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
