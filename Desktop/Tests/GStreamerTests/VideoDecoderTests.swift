#if canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// The GStreamer decoder on clips gst-launch-1.0 makes: the right picture at each time for 24, 30 and 60 fps,
/// seeking both ways, a sound track ignored, and messages (never traps) for damaged and foreign files.
@Suite("GStreamer decoder", .serialized)
struct VideoDecoderTests {
    @Test(arguments: [24, 30, 60])
    func eachSecondShowsItsColour(fps: Int) throws {
        let clip = try TestClip.make(fps: fps)
        let decoder = try VideoDecoder(opening: clip.url)
        #expect(decoder.info.width == 160 && decoder.info.height == 90)
        #expect(abs((decoder.info.framesPerSecond ?? 0) - Double(fps)) < 0.01, "fps \(String(describing: decoder.info.framesPerSecond))")
        #expect(abs((decoder.info.duration ?? 0) - Double(clip.colors.count)) < 0.1, "duration \(String(describing: decoder.info.duration))")
        // Forwards, then backwards: every seek lands on the frame that covers the time asked for.
        let times = (0..<clip.colors.count).map { Double($0) + 0.5 } + [6.9, 2.2, 0.1, 7.95]
        for time in times {
            let frame = try decoder.frame(at: time)
            let (r, g, b, _) = try #require(frame.rgba(x: 80, y: 45))
            #expect(TestClip.matches(r, g, b, clip.color(at: time)),
                    "\(fps) fps at \(time) s: got \(r),\(g),\(b), want \(TestClip.hex(clip.color(at: time)))")
            #expect(frame.time <= time + 1e-6 && frame.time > time - 1.0 / Double(fps) - 1e-3,
                    "\(fps) fps at \(time) s: frame at \(frame.time) s")
        }
    }

    /// Polls `next` (which never waits) until it gives a frame; a hang guard of 15 s.
    static func polled(_ next: () throws -> VideoFrame?) throws -> VideoFrame {
        guard let frame = try pollFirst(15, every: 0.005, next) else {
            throw VideoDecodingError.timedOut(path: "the test", seconds: 15, doing: "polling")
        }
        return frame
    }

    /// The player's way: streaming ahead while playing (frames handed out as the clock reaches them, in order),
    /// and a still frame asked for and collected later while paused; neither call waits.
    @Test func streamingAndStillFramesWithoutWaiting() throws {
        let clip = try TestClip.make(fps: 30)
        let decoder = try VideoDecoder(opening: clip.url)
        try decoder.startStreaming(from: 2.2)
        var times: [Double] = []
        for time in [2.5, 3.5, 5.5] {
            // Until the decoder has caught up, the newest frame it has is handed out (a late frame).
            var frame = try Self.polled { try decoder.streamFrame(upTo: time) }
            while frame.time < time - 1.0 / 30 - 1e-3 {
                #expect(frame.time <= time)
                frame = try Self.polled { try decoder.streamFrame(upTo: time) }
            }
            let (r, g, b, _) = try #require(frame.rgba(x: 80, y: 45))
            #expect(TestClip.matches(r, g, b, clip.color(at: time)), "streamed at \(time) s: \(r),\(g),\(b)")
            #expect(frame.time <= time && frame.time > time - 1, "streamed at \(time) s: frame at \(frame.time) s")
            times.append(frame.time)
        }
        #expect(times == times.sorted())
        try decoder.requestFrame(at: 6.5)
        let still = try Self.polled { try decoder.prerolledFrame() }
        let (r, g, b, _) = try #require(still.rgba(x: 80, y: 45))
        #expect(TestClip.matches(r, g, b, clip.color(at: 6.5)), "still frame at 6.5 s: \(r),\(g),\(b)")
        #expect(try decoder.prerolledFrame() == nil, "a still frame is handed out once")
        // Back to streaming from the start.
        try decoder.startStreaming(from: 0)
        let first = try Self.polled { try decoder.streamFrame(upTo: 0.5) }
        let (r0, g0, b0, _) = try #require(first.rgba(x: 80, y: 45))
        #expect(TestClip.matches(r0, g0, b0, clip.color(at: 0.5)), "streamed again from 0: \(r0),\(g0),\(b0)")
    }

    @Test func aSoundTrackDoesNotHoldUpThePicture() throws {
        let clip = try TestClip.make(fps: 30, colors: Array(TestClip.palette.prefix(3)), audio: true)
        let decoder = try VideoDecoder(opening: clip.url, timeout: 10)
        for time in [2.5, 0.5, 1.5] {
            let (r, g, b, _) = try #require(try decoder.frame(at: time).rgba(x: 10, y: 10))
            #expect(TestClip.matches(r, g, b, clip.color(at: time)), "at \(time) s: \(r),\(g),\(b)")
        }
    }

    @Test func theEndAndBeyondShowTheLastFrame() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000, 0x0000FF])
        let decoder = try VideoDecoder(opening: clip.url)
        for time in [2.0, 50.0] {
            let (r, g, b, _) = try #require(try decoder.frame(at: time).rgba(x: 80, y: 45))
            #expect(TestClip.matches(r, g, b, 0x0000FF), "at \(time) s: \(r),\(g),\(b)")
        }
    }

    @Test func positionsThatAreNotTimesAreRefused() throws {
        let clip = try TestClip.make(fps: 24, colors: [0xFF0000])
        let decoder = try VideoDecoder(opening: clip.url)
        for bad in [-1, Double.nan, Double.infinity, -Double.infinity] {
            do {
                _ = try decoder.frame(at: bad)
                Issue.record("the position \(bad) was accepted")
            } catch {
                if case .invalidPosition = error {} else { Issue.record("wrong error for \(bad): \(error)") }
            }
        }
        // Still usable afterwards.
        #expect(try decoder.frame(at: 0.5).rgba(x: 1, y: 1) != nil)
    }

    @Test func aTextFileNamedWebmGetsAMessage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gst-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("notes.webm")
        try String(repeating: "This is a text file, not a film.\n", count: 200).write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try VideoDecoder(opening: file, timeout: 10)
            Issue.record("a text file opened as a video")
        } catch {
            guard case .undecodable(let path, let reason) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(path == file.path && !reason.isEmpty, "\(error)")
        }
    }

    @Test func aFileWithoutPictureSaysSo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gst-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("sound.ogg")
        let made = try Shell.run(["gst-launch-1.0", "-q", "audiotestsrc", "num-buffers=40", "!",
                                                       "audioconvert", "!", "vorbisenc", "!", "oggmux", "!", "filesink",
                                                       "location=\(file.path)"]).status
        try #require(made == 0, "gst-launch-1.0 could not make the sound file")
        #expect(throws: VideoDecodingError.noVideoStream(path: file.path)) { _ = try VideoDecoder(opening: file, timeout: 10) }
    }

    @Test func missingFilesAndFoldersAreNamed() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/film.webm")
        #expect(throws: VideoDecodingError.unreadableFile(path: missing.path, reason: "no such file")) {
            _ = try VideoDecoder(opening: missing)
        }
        let folder = FileManager.default.temporaryDirectory
        #expect(throws: VideoDecodingError.unreadableFile(path: folder.path, reason: "it is a folder")) {
            _ = try VideoDecoder(opening: folder)
        }
    }

    /// A clip cut in the middle: it opens (the header is whole) or is refused with a message; what is left plays,
    /// and past the cut the decoder reports the end or an error — within its time limit, never a trap.
    @Test(arguments: [0.05, 0.5, 0.8])
    func aTruncatedClipGetsMessages(fraction: Double) throws {
        let clip = try TestClip.make(fps: 30)
        let cut = try clip.truncated(to: fraction)
        let decoder: VideoDecoder
        do { decoder = try VideoDecoder(opening: cut, timeout: 10) } catch {
            #expect(!error.description.isEmpty)
            return
        }
        // The first frame, decoded when it opened (a cut after 5 % of the bytes leaves less than half a second).
        let first = try #require(decoder.lastFrame)
        let (r, g, b, _) = try #require(first.rgba(x: 80, y: 45))
        #expect(first.time == 0 && TestClip.matches(r, g, b, clip.color(at: 0)), "the start of a truncated clip: \(r),\(g),\(b)")
        let started = Date()
        do {
            let late = try decoder.frame(at: 7.5)
            // Some of the end may survive the cut only if the cut was late; then it must be the right picture.
            let pixel = late.rgba(x: 80, y: 45)
            #expect(fraction > 0.7 && pixel.map { TestClip.matches($0.0, $0.1, $0.2, clip.color(at: late.time)) } == true,
                    "past the cut: \(late.time) s \(String(describing: pixel))")
        } catch {
            // The end of what is left, or GStreamer's own complaint: never the time limit (a stall).
            switch error {
            case .endOfStream, .undecodable: break
            default: Issue.record("past the cut of a \(fraction) clip: \(error)")
            }
        }
        #expect(Date().timeIntervalSince(started) < 12, "the decoder must answer within its limit")
    }
}
#endif
