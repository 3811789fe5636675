#if canImport(CSDL2)
import DesktopImages
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay play` headless on clips gst-launch-1.0 makes: the external display's snapshot shows the colour of
/// the second the timeline stands at, unplugging brings the film back to the main window paused at the same
/// position, seeks land, and damaged or foreign files end with a message and an exit status.
@Suite("extdisplay play, headless", .serialized)
struct PlayCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var folder: URL

        /// The snapshot of `display` after step `step`.
        func snapshot(_ step: Int, _ display: String) throws -> Bitmap {
            let shots = folder.appendingPathComponent("shots")
            let prefix = String(format: "%03d-", step)
            let names = try FileManager.default.contentsOfDirectory(atPath: shots.path)
            guard let name = names.first(where: { $0.hasPrefix(prefix) && $0.hasSuffix("-\(display).png") }) else {
                throw SupportError("no snapshot of \(display) after step \(step) among \(names.sorted())")
            }
            return try Bitmap(contentsOf: shots.appendingPathComponent(name))
        }

        /// The position the log gives for step `step` (`003-pause: paused at 2.517 s on …`).
        func position(_ step: Int) throws -> Double {
            let prefix = String(format: "%03d-", step)
            guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
                  let at = line.range(of: " at "), let seconds = line[at.upperBound...].split(separator: " ").first,
                  let value = Double(seconds) else {
                throw SupportError("no position for step \(step) in:\n\(output)")
            }
            return value
        }

        /// Whether a snapshot of `display` was written after step `step`.
        func hasSnapshot(_ step: Int, _ display: String) -> Bool { (try? snapshot(step, display)) != nil }
    }

    /// Runs `extdisplay play FILE --snapshot shots ARGUMENTS` headless (no DISPLAY) under a 120 s hang guard.
    static func play(_ file: URL, _ arguments: [String], environment: String = "") throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = try Repository.extdisplay().path
        let errors = folder.appendingPathComponent("stderr")
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([binary, "play", file.path, "--snapshot", folder.appendingPathComponent("shots").path] + arguments)
            .map(quote).joined(separator: " ")
        let result = try Shell.run(["sh", "-c", "DISPLAY= WAYLAND_DISPLAY= \(environment) exec timeout -s KILL 120 \(command) 2>\(quote(errors.path))"])
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return Run(status: result.status, output: result.output, errors: stderr, folder: folder)
    }

    /// The colour at the centre of a snapshot matches `expected`.
    static func expectCentre(_ bitmap: Bitmap, _ expected: UInt32, _ what: String, y: Int? = nil) {
        let pixel = bitmap.pixel(x: bitmap.width / 2, y: y ?? bitmap.height / 2)
        #expect(TestClip.matches(pixel.red, pixel.green, pixel.blue, expected),
                "\(what): got \(pixel), want \(TestClip.hex(expected))")
    }

    @Test(arguments: [24, 30, 60])
    func theExternalDisplayShowsTheSecondTheTimelineIsAt(fps: Int) throws {
        let clip = try TestClip.make(fps: fps)
        let run = try Self.play(clip.url, ["--simulate", "laptop,hdmi-tv-1080p",
                                           "--keys", "wait:0.5,wait:1,wait:1,pause,wait:10,seek:6.5,play,wait:1"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("decoder vp8dec"), "\(run.output)")
        // Steps: 1 at ~0.5 s, 2 at ~1.5, 3 at ~2.5, 4 paused there, 5 still there after 10 s, 6 at 6.5, 8 at ~7.5.
        let expected: [(step: Int, second: Double)] = [(0, 0), (1, 0.5), (2, 1.5), (3, 2.5), (4, 2.5), (5, 2.5), (6, 6.5), (8, 7.5)]
        for (step, second) in expected {
            let position = try run.position(step)
            #expect(abs(position - second) < 0.1, "step \(step): at \(position) s, want about \(second)")
            Self.expectCentre(try run.snapshot(step, "hdmi-tv-1080p"), clip.color(at: second), "\(fps) fps, step \(step)")
        }
        // The picture sits in the TV's safe frame (2.5 % overscan), letterboxed: the edges stay black.
        let tv = try run.snapshot(1, "hdmi-tv-1080p")
        #expect(tv.width == 1920 && tv.height == 1080)
        for (x, y) in [(10, 540), (1910, 540), (960, 10), (960, 1070)] {
            let p = tv.pixel(x: x, y: y)
            #expect(p.red < 16 && p.green < 16 && p.blue < 16, "outside the safe frame at \(x),\(y): \(p)")
        }
        let inside = tv.pixel(x: 60, y: 540)
        #expect(TestClip.matches(inside.red, inside.green, inside.blue, clip.color(at: 0.5)), "inside the safe frame: \(inside)")
    }

    /// Unplugged at 2.5 s the film pauses and comes back to the main window at the same second; plugged in
    /// again it goes out still paused, and plays from there on `play`.
    @Test func unplugAndReplugKeepThePosition() throws {
        let clip = try TestClip.make(fps: 30)
        let run = try Self.play(clip.url, ["--simulate", "laptop,hdmi-tv-1080p",
                                           "--keys", "wait:2.5,unplug:hdmi-tv-1080p,wait:5,plug:hdmi-tv-1080p,wait:3,play,wait:1"])
        #expect(run.status == 0, "\(run.errors)")
        let atUnplug = try run.position(2)
        #expect(abs(atUnplug - 2.5) < 0.1)
        for step in 3...5 {
            #expect(abs(try run.position(step) - atUnplug) < 1, "step \(step) moved from \(atUnplug) s")
        }
        #expect(!run.hasSnapshot(2, "hdmi-tv-1080p") && !run.hasSnapshot(3, "hdmi-tv-1080p"))
        // The main window shows the film, at the same colour (the video area's centre: a 30th of the height
        // margin, six tenths of the height tall).
        let console = try run.snapshot(3, "console")
        Self.expectCentre(console, clip.color(at: atUnplug), "the main window after unplugging",
                          y: console.height / 30 + console.height * 6 / 20)
        #expect(run.output.contains("paused at"), "\(run.output)")
        // Plugged in again: out on the TV, still paused at the same second.
        Self.expectCentre(try run.snapshot(4, "hdmi-tv-1080p"), clip.color(at: atUnplug), "the TV after replugging")
        Self.expectCentre(try run.snapshot(5, "hdmi-tv-1080p"), clip.color(at: atUnplug), "the TV 3 s later, paused")
        let resumed = try run.position(7)
        #expect(abs(resumed - (atUnplug + 1)) < 0.1)
        Self.expectCentre(try run.snapshot(7, "hdmi-tv-1080p"), clip.color(at: resumed), "the TV after play")
    }

    /// `--display` picks the projector among two external displays; the TV stays black. Played past its end, the
    /// film stops on its last second.
    @Test func theNamedDisplayPlaysToTheEnd() throws {
        let clip = try TestClip.make(fps: 30)
        let run = try Self.play(clip.url, ["--simulate", "laptop,hdmi-tv-1080p,vga-projector-xga",
                                           "--display", "vga-projector-xga", "--keys", "wait:1.5,wait:20"])
        #expect(run.status == 0, "\(run.errors)")
        let projector = try run.snapshot(1, "vga-projector-xga")
        #expect(projector.width == 1024 && projector.height == 768)
        Self.expectCentre(projector, clip.color(at: 1.5), "the named projector")
        let tv = try run.snapshot(1, "hdmi-tv-1080p").pixel(x: 960, y: 540)
        #expect(tv.red < 16 && tv.green < 16 && tv.blue < 16, "the other display: \(tv)")
        #expect(abs(try run.position(2) - Double(clip.colors.count)) < 0.01)
        #expect(run.output.contains("002-wait-20: paused"), "\(run.output)")
        Self.expectCentre(try run.snapshot(2, "vga-projector-xga"), clip.colors.last!, "the last second after the end")
    }

    @Test func withoutAnExternalDisplayItPlaysInTheMainWindow() throws {
        let clip = try TestClip.make(fps: 24)
        let run = try Self.play(clip.url, ["--simulate", "laptop", "--keys", "wait:4.5"])
        #expect(run.status == 0, "\(run.errors)")
        let console = try run.snapshot(1, "console")
        Self.expectCentre(console, clip.color(at: 4.5), "the main window", y: console.height / 30 + console.height * 6 / 20)
    }

    @Test func aTextFileNamedWebmEndsWithAMessage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("film.webm")
        try "not a film\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try Self.play(file, ["--simulate", "laptop,hdmi-tv-1080p", "--keys", "wait:1"])
        #expect(run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("film.webm cannot be played"), "\(run.errors)")
    }

    /// Cut after half its bytes, the clip plays its first seconds; past the cut the run reports the problem and
    /// ends with status 1 (or 2 when it cannot even be opened), never with a signal.
    @Test func aTruncatedClipEndsWithAMessage() throws {
        let clip = try TestClip.make(fps: 30)
        let cut = try clip.truncated(to: 0.5)
        let run = try Self.play(cut, ["--simulate", "laptop,hdmi-tv-1080p", "--keys", "wait:0.5,wait:7"])
        #expect(run.status == 1 || run.status == 2, "status \(run.status): \(run.output)\n\(run.errors)")
        #expect(run.errors.contains("truncated.webm"), "\(run.errors)")
        if run.status == 1 { Self.expectCentre(try run.snapshot(1, "hdmi-tv-1080p"), clip.color(at: 0.5), "before the cut") }
    }

    /// H.264 decodes with OpenH264 (BSD), never with FFmpeg's avdec_h264 (GPL-2+ as Debian builds it, and ranked
    /// above it), unless the user opts in with EXTDISPLAY_ALLOW_AVDEC=1.
    @Test func h264DecodesWithOpenH264NotFFmpeg() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-h264-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("green.mp4")
        let made = try Shell.run(["timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=60",
                                  "pattern=solid-color", "foreground-color=0xff00ff00", "!",
                                  "video/x-raw,width=160,height=96,framerate=30/1", "!", "openh264enc", "!", "h264parse",
                                  "!", "mp4mux", "!", "filesink", "location=\(file.path)"])
        try #require(made.status == 0, "gst-launch-1.0 could not make the H.264 clip (gstreamer1.0-plugins-bad): \(made.output)")
        let run = try Self.play(file, ["--simulate", "laptop,hdmi-tv-1080p", "--keys", "wait:1"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("decoder openh264dec"), "\(run.output)")
        Self.expectCentre(try run.snapshot(1, "hdmi-tv-1080p"), 0x00FF00, "H.264 through OpenH264")
        if try Shell.run(["gst-inspect-1.0", "avdec_h264"]).status == 0 {
            let optIn = try Self.play(file, ["--simulate", "laptop", "--keys", "wait:1"], environment: "EXTDISPLAY_ALLOW_AVDEC=1")
            #expect(optIn.output.contains("decoder avdec_h264"), "with the opt-in, FFmpeg outranks OpenH264: \(optIn.output)")
        } else {
            print("avdec_h264 is not installed (gstreamer1.0-libav): the opt-in is not exercised")
        }
    }

    @Test func wrongStepsAndDisplaysAreExplained() throws {
        let clip = try TestClip.make(fps: 24, colors: [0xFF0000])
        let badStep = try Self.play(clip.url, ["--simulate", "laptop", "--keys", "seek:soon"])
        #expect(badStep.status == 2 && badStep.errors.contains("seek needs a number"), "\(badStep.errors)")
        let badDisplay = try Self.play(clip.url, ["--simulate", "laptop,hdmi-tv-8k"])
        #expect(badDisplay.status == 2 && badDisplay.errors.contains("unknown display preset 'hdmi-tv-8k'"), "\(badDisplay.errors)")
        let absent = try Self.play(clip.url, ["--simulate", "laptop,hdmi-tv-1080p", "--display", "projector"])
        #expect(absent.status == 0 && absent.output.contains("no external display named projector (plugged: hdmi-tv-1080p)"),
                "\(absent.output)")
        #expect(!absent.hasSnapshot(0, "hdmi-tv-1080p") || {
            let p = (try? absent.snapshot(0, "hdmi-tv-1080p"))?.pixel(x: 960, y: 540)
            return p.map { $0.red < 16 && $0.green < 16 && $0.blue < 16 } ?? false
        }(), "the TV is not the named display: it stays black")
        let badUnplug = try Self.play(clip.url, ["--simulate", "laptop", "--keys", "unplug:hdmi-tv-1080p"])
        #expect(badUnplug.status == 2 && badUnplug.errors.contains("no display 'hdmi-tv-1080p' is plugged in"), "\(badUnplug.errors)")
    }
}
#endif
