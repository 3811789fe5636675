#if canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// Files a talk may be handed that are not good films: a named pipe (which would block a reader forever), a
/// picture wider than the player accepts, and clips with random bytes overwritten. Each gets a message or plays;
/// every call returns within the decoder's time limit; nothing traps.
@Suite("GStreamer decoder on hostile files", .serialized)
struct HostileVideoTests {
    @Test func aNamedPipeIsRefusedWithoutReadingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gst-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("film.webm")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let started = Date()
        #expect(throws: VideoDecodingError.unreadableFile(path: fifo.path, reason: "not a regular file")) {
            _ = try VideoDecoder(opening: fifo, timeout: 30)
        }
        // A hang guard: far below the 30 s the decoder would wait for a frame.
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// 9000 pixels wide: refused by its size before the picture is converted (VP8 allows 16383).
    @Test func aPictureWiderThanTheLimitIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gst-wide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("wide.webm")
        let made = try Shell.run(["timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=2", "!",
                                  "video/x-raw,width=9000,height=16,framerate=30/1", "!", "vp8enc", "deadline=1", "!",
                                  "webmmux", "!", "filesink", "location=\(file.path)"])
        try #require(made.status == 0, "gst-launch-1.0 could not make the wide clip: \(made.output)")
        #expect(throws: VideoDecodingError.unsupportedSize(path: file.path, width: 9000, height: 16)) {
            _ = try VideoDecoder(opening: file, timeout: 10)
        }
    }

    /// Up to 40 bytes of a clip overwritten, per seed. Some still play, some are refused, some stall GStreamer
    /// (no frame, no error, no end): those must come back with `timedOut` at the limit, not hang.
    @Test func damagedClipsGetMessagesWithinTheTimeLimit() throws {
        let clip = try TestClip.make(fps: 30)
        let original = [UInt8](try Data(contentsOf: clip.url))
        let limit = 2.0
        var outcomes: [String: Int] = [:]
        for seed in UInt64(1)...20 {
            var bytes = original
            var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
            func next() -> UInt64 {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return state
            }
            for _ in 0..<(1 + Int(next() % 40)) { bytes[Int(next() % UInt64(bytes.count))] = UInt8(next() % 256) }
            let file = clip.url.deletingLastPathComponent().appendingPathComponent("damaged-\(seed).webm")
            try Data(bytes).write(to: file)
            var outcome = "played"
            /// Runs one decoder call and checks it came back within the limit (plus scheduling slack).
            func bounded<T>(_ what: String, _ call: () throws(VideoDecodingError) -> T) -> T? {
                let started = Date()
                defer {
                    let took = Date().timeIntervalSince(started)
                    #expect(took < limit + 3, "seed \(seed) (bytes overwritten as above): \(what) took \(took) s")
                }
                do { return try call() } catch {
                    outcome = if case .timedOut = error { "timed out" } else { "refused" }
                    #expect(!error.description.isEmpty)
                    return nil
                }
            }
            if let decoder = bounded("opening", { () throws(VideoDecodingError) in try VideoDecoder(opening: file, timeout: limit) }) {
                for time in [0.5, 3.5, 1.5, 7.9] {
                    guard bounded("frame at \(time) s", { () throws(VideoDecodingError) in try decoder.frame(at: time) }) != nil else { break }
                }
            }
            outcomes[outcome, default: 0] += 1
            try? FileManager.default.removeItem(at: file)
        }
        print("damaged clips: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes.values.reduce(0, +) == 20)
    }
}
#endif
