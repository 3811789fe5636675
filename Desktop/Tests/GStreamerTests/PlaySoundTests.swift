#if os(Linux) && canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay play` on Xorg-dummy with a real sound server — PulseAudio, and PipeWire with pipewire-pulse — (a
/// null sink whose monitor `parec` records), controlled over MPRIS: without a sound server it plays silently and
/// says so once; with one, the beep a clip starts at 3 s is heard when the picture turns from red to blue (DUMMY1's
/// centre pixel read with XGetImage, the sound on the same clock), also at 2× after a seek back, stops when paused,
/// comes back at a quarter of the loudness after `playerctl volume 0.25`; the server killed mid-film, the film goes on.
@Suite("extdisplay play with sound (PulseAudio, Xorg-dummy)", .serialized)
struct PlaySoundTests {
    static let red: UInt32 = 0xFF0000
    static let blue: UInt32 = 0x0000FF

    /// Made by gst-launch-1.0: red and silent for `redSeconds` (3 s), then blue with a 440 Hz sine at half scale
    /// for 5 s (VP8 and Vorbis in WebM).
    static func beepClip(redSeconds: Int = 3) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("beep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("beep.webm")
        var arguments = ["gst-launch-1.0", "-q", "concat", "name=c", "!", "videoconvert", "!", "vp8enc", "deadline=1", "!",
                         "m.", "webmmux", "name=m", "!", "filesink", "location=\(url.path)"]
        for (color, seconds) in [(red, redSeconds), (blue, 5)] {
            arguments += ["videotestsrc", "pattern=solid-color", "foreground-color=\(0xFF00_0000 | color)",
                          "num-buffers=\(30 * seconds)",
                          "!", "video/x-raw,width=160,height=90,framerate=30/1", "!", "c."]
        }
        arguments += ["concat", "name=a", "!", "audioconvert", "!", "vorbisenc", "!", "m."]
        for (wave, seconds) in [("wave=silence", redSeconds), ("wave=sine", 5)] {
            arguments += ["audiotestsrc", wave, "freq=440", "volume=0.5", "num-buffers=\(48 * seconds)",
                          "samplesperbuffer=1000", "!",
                          "audio/x-raw,rate=48000,channels=1", "!", "a."]
        }
        let made = try Shell.run(["timeout", "-s", "KILL", "60"] + arguments)
        guard made.status == 0, FileManager.default.fileExists(atPath: url.path) else {
            throw SupportError("gst-launch-1.0 could not make the beep clip (status \(made.status)): \(made.output)")
        }
        return url
    }

    static func mprisQuit(_ bus: SessionBus) throws -> Int32 {
        try Shell.run(["timeout", "-s", "KILL", "10", "dbus-send", "--session", "--print-reply",
                       "--dest=org.mpris.MediaPlayer2.extdisplay_play", "/org/mpris/MediaPlayer2",
                       "org.mpris.MediaPlayer2.Quit"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]).status
    }

    static func setRate(_ bus: SessionBus, _ rate: Double) throws -> Int32 {
        try Shell.run(["timeout", "-s", "KILL", "10", "dbus-send", "--session", "--print-reply",
                       "--dest=org.mpris.MediaPlayer2.extdisplay_play", "/org/mpris/MediaPlayer2",
                       "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Rate",
                       "variant:double:\(rate)"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]).status
    }

    /// When DUMMY1's centre turned from red to blue, bracketed by reads of that pixel: the start of the last
    /// read showing red and the end of the first showing blue; `nil` when it did not happen before `deadline`.
    static func redToBlue(_ probe: ScreenProbe, _ centre: (Int, Int), until deadline: Double) -> (Double, Double)? {
        var lastRed: Double?
        return pollFirst(deadline - ProcessInfo.processInfo.systemUptime, every: 0.001) {
            let before = ProcessInfo.processInfo.systemUptime
            let color = probe.color(x: centre.0, y: centre.1)
            let after = ProcessInfo.processInfo.systemUptime
            if let color, matches(color, red) { lastRed = before }
            if let color, matches(color, blue), let lastRed { return (lastRed, after) }
            return nil
        }
    }

    static func playerctl(_ bus: SessionBus, _ arguments: String...) throws -> String {
        try Shell.run(["timeout", "-s", "KILL", "10", "playerctl", "-p", "extdisplay_play"] + arguments,
                      environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A sound server, an X server and a session bus for one test, stopped together.
    struct Servers {
        let pulse: PulseAudioServer
        let x: XorgServer
        let bus: SessionBus

        init(_ kind: PulseAudioServer.Kind = .pulseAudio) throws {
            pulse = try PulseAudioServer.start(kind)
            do {
                x = try XorgServer.start()
            } catch {
                pulse.stop()
                throw error
            }
            do {
                bus = try SessionBus.start()
            } catch {
                pulse.stop()
                x.stop()
                throw error
            }
        }

        func stop() {
            bus.stop()
            x.stop()
            pulse.stop()
        }
    }

    @Test(arguments: PulseAudioServer.Kind.allCases)
    func theSoundIsHeardWithThePicturePausesAndFollowsTheVolume(server: PulseAudioServer.Kind) throws {
        let clip = try Self.beepClip()
        let servers = try Servers(server)
        defer { servers.stop() }
        let (pulse, x, bus) = (servers.pulse, servers.x, servers.bus)
        let binary = try Repository.extdisplay().path
        let geometry = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let centre = (geometry[0] + geometry[2] / 2, geometry[1] + geometry[3] / 2)

        // No sound server: the film plays without sound and says so once, on standard error.
        let silent = try ChildProcess([binary, "play", clip.path, "--display", "DUMMY1"],
                                      environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil,
                                                    "PULSE_SERVER": "unix:/nonexistent/edk-no-server",
                                                    "DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { silent.signal(SIGKILL) }
        #expect(poll(30) { silent.stdout.contains("MPRIS: serving") }, "\(silent.stdout) \(silent.stderr)")
        #expect(poll(30) { (try? x.captureRoot()).map { Self.isColor($0, centre, Self.red) } ?? false })
        #expect(try Self.mprisQuit(bus) == 0)
        #expect(silent.exitStatus(timeout: 30) == 0, "\(silent.stderr)")
        #expect(silent.stderr.components(separatedBy: "no sound server answered").count == 2, "\(silent.stderr)")

        // With the server: record its null sink, then play.
        let recording = try SoundRecording(environment: pulse.environment)
        defer { recording.stop() }
        #expect(poll(10) { recording.count > 0 }, "parec recorded nothing")
        let started = ProcessInfo.processInfo.systemUptime
        let play = try ChildProcess([binary, "play", clip.path, "--display", "DUMMY1"],
                                    environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil,
                                                  "PULSE_SERVER": pulse.server, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { play.signal(SIGKILL) }
        #expect(poll(30) { play.stdout.contains("sound: through the sound server") }, "\(play.stdout) \(play.stderr)")

        // The picture's change from red to blue, read from DUMMY1's centre pixel.
        let probe = try #require(ScreenProbe(display: x.display), "cannot open \(x.display)")
        let (redSeen, blueSeen) = try #require(Self.redToBlue(probe, centre, until: started + 40), "\(play.stdout)")
        let pictureChange = (redSeen + blueSeen) / 2
        let pictureUncertainty = (blueSeen - redSeen) / 2
        #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > blueSeen + 0.5 } ?? false })
        let beep = try #require(recording.onset(after: started, threshold: 0.05), "no beep recorded")
        let offset = beep - pictureChange
        // What the server says of its streams' latencies (the recording's and the player's), for a run whose offset
        // is off: a diagnosis line, not an oracle.
        let latencies = ["source-outputs", "sink-inputs"].map { kind in
            kind + ": " + ((try? Shell.run(["pactl", "list", kind], environment: pulse.environment).output) ?? "")
                .split(separator: "\n").filter { $0.contains("atency") || $0.contains("node.latency") || $0.contains("Buffer") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        }.joined(separator: " | ")
        print("\(server): sound against picture: the beep heard \(String(format: "%+.0f", offset * 1000)) ms from the colour "
              + "change (screen reads bracket it within ±\(String(format: "%.0f", pictureUncertainty * 1000)) ms); \(latencies)")
        // EBU R37's window for sound against picture: sound at most 40 ms early, at most 60 ms late. (Runs here give
        // −8…+9 ms on PulseAudio and +7…+28 ms on PipeWire. The +41…+94 ms seen in clean-clone runs on PipeWire were
        // pipewire-pulse stalled by the busy machine: see aStalledSoundServerIsBroughtBackInStepWithThePicture.)
        #expect(offset > -0.04 - pictureUncertainty && offset < 0.06 + pictureUncertainty,
                "beep at \(beep), picture change at \(pictureChange) ± \(pictureUncertainty): \(offset * 1000) ms")

        // Playing: the sine at half scale (RMS 0.35). Paused: silence.
        #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > beep + 0.5 } ?? false })
        let loud = try #require(recording.loudness(from: beep + 0.1, to: beep + 0.4))
        // Half scale is an RMS of 0.35 in one channel; PipeWire's mono-to-stereo mix adds 3 dB (0.5).
        #expect(loud > 0.25 && loud < 0.55, "loudness while playing: \(loud)")
        _ = try Self.playerctl(bus, "pause")
        let paused = ProcessInfo.processInfo.systemUptime
        #expect(try poll(10) { try Self.playerctl(bus, "status") == "Paused" })
        #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > paused + 1.2 } ?? false })
        let quiet = try #require(recording.loudness(from: paused + 0.5, to: paused + 1.2))
        #expect(quiet < 0.01, "loudness while paused: \(quiet)")
        // When the sound stopped after `playerctl pause` returned (a diagnosis line: until the pause stopped the
        // decoder's pipeline itself, a paused player showing the same frame let it play out its queues, up to 1 s).
        let stopped = recording.quietStretch(after: paused - 0.2, threshold: 0.02, minimum: 0.3)?.start
        print("\(server): the sound stopped " + (stopped.map { String(format: "%+.0f ms", ($0 - paused) * 1000) } ?? "never")
              + " from the pause")

        // A quarter of the volume: a quarter of the loudness.
        _ = try Self.playerctl(bus, "volume", "0.25")
        #expect(poll(10) { play.stdout.contains("MPRIS: volume 0.25") })
        _ = try Self.playerctl(bus, "play")
        let resumed = ProcessInfo.processInfo.systemUptime
        #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > resumed + 1 } ?? false })
        let heard = recording.onset(after: resumed, threshold: 0.02)
        if heard == nil {
            // The failing timeline (once in about ten runs with PipeWire while the sound ran on pulsesink's clock):
            // when, if at all, the sound came back within 5 s, and where the player says it is.
            _ = poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > resumed + 5 } ?? false }
            let late = recording.onset(after: resumed, threshold: 0.02)
            let position = (try? Self.playerctl(bus, "position")) ?? "?"
            print("\(server): no sound within 1 s of resuming; it came back "
                  + (late.map { String(format: "%.3f s after the resume", $0 - resumed) } ?? "not within 5 s")
                  + "; the player's position 5 s after: \(position); loudness by half second: "
                  + (0..<10).map { step in
                      recording.loudness(from: resumed + Double(step) / 2, to: resumed + Double(step + 1) / 2)
                          .map { String(format: "%.3f", $0) } ?? "-"
                  }.joined(separator: " "))
        }
        let softer = try #require(heard, "no sound after resuming: \(play.stdout)\n\(play.stderr)")
        let soft = try #require(recording.loudness(from: softer + 0.1, to: softer + 0.4))
        #expect(abs(soft / loud - 0.25) < 0.05, "loudness at volume 0.25: \(soft), at 1: \(loud)")

        // Back to the silent red second 1 at twice the speed: silence, then picture and sound turn together
        // again at 3 s, the beep still at 440 Hz (the pitch kept).
        #expect(try Self.setRate(bus, 2) == 0)
        _ = try Self.playerctl(bus, "position", "1")
        let rewound = ProcessInfo.processInfo.systemUptime
        let (red2, blue2) = try #require(Self.redToBlue(probe, centre, until: rewound + 20), "\(play.stdout)")
        #expect(blue2 - rewound > 0.6 && blue2 - rewound < 1.6, "2 s of film took \(blue2 - rewound) s at 2×")
        #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > blue2 + 0.5 } ?? false })
        // The beep before the seek stops, the silent seconds play (half a second at 2×, at least 0.3 s of it
        // measured), then the beep comes back with the blue picture.
        let silence = try #require(recording.quietStretch(after: rewound, threshold: 0.01, minimum: 0.3),
                                   "no silence after seeking back to second 1")
        let beep2 = try #require(silence.end, "no beep at 2× after the silence")
        let offset2 = beep2 - (red2 + blue2) / 2
        print("\(server) at 2×: the beep heard \(String(format: "%+.0f", offset2 * 1000)) ms from the colour change (±"
              + "\(String(format: "%.0f", (blue2 - red2) / 2 * 1000)) ms)")
        // The same EBU R37 window, 5 ms wider for the quiet stretch's 5 ms steps.
        #expect(offset2 > -0.045 - (blue2 - red2) / 2 && offset2 < 0.065 + (blue2 - red2) / 2,
                "beep at \(beep2), picture change at \(red2)…\(blue2)")
        let pitch = try #require(recording.frequency(from: beep2 + 0.05, to: beep2 + 0.3))
        #expect(abs(pitch - 440) < 15, "the beep at 2× is at \(pitch) Hz")

        #expect(try Self.mprisQuit(bus) == 0)
        #expect(play.exitStatus(timeout: 30) == 0, "\(play.stderr)")
        #expect(play.stdout.contains("picture moved to the sound"), "\(play.stdout)")
        #expect(!play.stderr.contains("no sound server"), "\(play.stderr)")
    }

    /// The sound server stopped for 0.2 s mid-film, 1.5 s before the beep (SIGSTOP, as a machine too busy to run
    /// it does): the sound is heard with the picture afterwards, in EBU R37's window. pipewire-pulse 0.3.65 then plays about 100 ms behind the
    /// position it reports until the next flush (measured with the decoder alone: +135 ms against +28 ms
    /// unstalled); the player sees the reported position fall back, restarts the sound where the picture stands and
    /// says so. PulseAudio stays in step by itself.
    @Test(arguments: PulseAudioServer.Kind.allCases)
    func aStalledSoundServerIsBroughtBackInStepWithThePicture(server: PulseAudioServer.Kind) throws {
        let clip = try Self.beepClip(redSeconds: 6)
        let servers = try Servers(server)
        defer { servers.stop() }
        let (pulse, x, bus) = (servers.pulse, servers.x, servers.bus)
        let geometry = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let centre = (geometry[0] + geometry[2] / 2, geometry[1] + geometry[3] / 2)
        let recording = try SoundRecording(environment: pulse.environment)
        defer { recording.stop() }
        #expect(poll(10) { recording.count > 0 }, "parec recorded nothing")
        let started = ProcessInfo.processInfo.systemUptime
        let play = try ChildProcess([try Repository.extdisplay().path, "play", clip.path, "--display", "DUMMY1"],
                                    environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil,
                                                  "PULSE_SERVER": pulse.server, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { play.signal(SIGKILL) }
        #expect(poll(30) { play.stdout.contains("sound: through the sound server") }, "\(play.stdout) \(play.stderr)")
        // 4.5 s into the film, 1.5 s before the beep: the stall. (Unhandled, pipewire-pulse plays about 100 ms
        // behind then; its reported position runs slow afterwards, so the error changes, through −40 ms 4 s later.)
        #expect(try poll(20, every: 0.02) { (Double(try Self.playerctl(bus, "position")) ?? 0) >= 4.5 })
        pulse.stallProtocolServer(for: 0.2)
        let probe = try #require(ScreenProbe(display: x.display), "cannot open \(x.display)")
        let (redSeen, blueSeen) = try #require(Self.redToBlue(probe, centre, until: started + 40), "\(play.stdout)")
        let pictureChange = (redSeen + blueSeen) / 2
        let uncertainty = (blueSeen - redSeen) / 2
        #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > blueSeen + 0.5 } ?? false })
        let beep = try #require(recording.onset(after: started, threshold: 0.05), "no beep recorded")
        let offset = beep - pictureChange
        let restarted = play.stdout.split(separator: "\n").filter { $0.contains("sound restarted") }
        print("\(server) stalled 0.2 s: the beep heard \(String(format: "%+.0f", offset * 1000)) ms from the colour change "
              + "(±\(String(format: "%.0f", uncertainty * 1000)) ms); the player: \(restarted.isEmpty ? "no restart" : restarted.joined(separator: " / "))")
        #expect(offset > -0.04 - uncertainty && offset < 0.06 + uncertainty,
                "beep at \(beep), picture change at \(pictureChange) ± \(uncertainty): \(offset * 1000) ms; \(play.stdout)")
        #expect(try Self.mprisQuit(bus) == 0)
        #expect(play.exitStatus(timeout: 30) == 0, "\(play.stderr)")
    }

    /// The decoder itself (in this process) on PipeWire, started and stopped twelve times, its sound position asked
    /// every millisecond from the moment it starts playing: libpulse's time (pulsesink's clock) is a wrapped negative
    /// number for a moment after each uncork, and a pipeline that reads it there stays silent for good (the PipeWire
    /// case above heard nothing after a resume once in about ten runs). After every start the beep is heard and the
    /// sound position moves with the wall clock. Every other stop is a pause that asks for no picture (a paused
    /// player whose still frame is already on screen): the sound stops with it (without `pauseStreaming()` it played
    /// on at 0.50 for over 0.7 s — what failed the pause check above once in CI).
    @Test func theSoundComesBackAfterEveryStartOnPipeWire() throws {
        let clip = try Self.beepClip()
        let pulse = try PulseAudioServer.start(.pipeWire)
        defer { pulse.stop() }
        setenv("PULSE_SERVER", pulse.server, 1)
        defer { unsetenv("PULSE_SERVER") }
        let recording = try SoundRecording(environment: pulse.environment)
        defer { recording.stop() }
        #expect(poll(10) { recording.count > 0 }, "parec recorded nothing")
        let decoder = try VideoDecoder(opening: clip, playsSound: true, layout: .bgrx)
        #expect(decoder.playsSound)
        let uptime = { ProcessInfo.processInfo.systemUptime }
        for round in 0..<12 {
            // Inside the beep (3 s to 8 s), 1 s played each time (the position is said from 0.5 s after the sound
            // starts playing, once the seek has prerolled).
            let from = 3.1 + 0.3 * Double(round)
            let started = uptime()
            try decoder.startStreaming(from: from)
            var heardAt: [(time: Double, position: Double)] = []
            // At least 1 s, and on until the position is said (at most 5 s: a preroll slowed by a loaded machine).
            while uptime() < started + 1 || (heardAt.isEmpty && uptime() < started + 5) {
                // Frames taken as they fall due, so that the decoder keeps going.
                _ = try decoder.streamFrame(upTo: from + uptime() - started)
                if let position = decoder.soundPosition() { heardAt.append((uptime(), position)) }
                usleep(1_000)
            }
            let stopped = uptime()
            if round.isMultiple(of: 2) {
                try decoder.requestFrame(at: from + stopped - started)
                #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > stopped } ?? false })
            } else {
                // A pause that asks for no new picture (the player's still frame is the one it shows): the sound
                // stops with it, not when the pipeline's queues (up to a second of sound) have played out.
                try decoder.pauseStreaming()
                #expect(poll(10) { recording.time(ofSample: recording.count - 1).map { $0 > stopped + 0.7 } ?? false })
                let after = recording.loudness(from: stopped + 0.3, to: stopped + 0.7) ?? 1
                #expect(after < 0.01, "round \(round): loudness \(after) from 0.3 s to 0.7 s after pauseStreaming()")
            }
            let loudness = recording.loudness(from: started + 0.6, to: started + 0.9) ?? 0
            #expect(loudness > 0.2, "round \(round) from \(from) s: loudness \(loudness) from 0.6 s to 0.9 s after the start")
            let last = heardAt.last
            let said = last.map { String(format: "%.3f", $0.position) } ?? "none"
            // Said 0.5 s after the sound started at the earliest, and never ahead of the time since the start.
            #expect(last.map { $0.position > from + 0.3 && $0.position < from + ($0.time - started) + 0.1 } ?? false,
                    "round \(round) from \(from) s: sound position \(said) at the end of the start")
            usleep(150_000)
        }
    }

    /// The sound server killed mid-film: said once on standard error, the film goes on (silently) and still
    /// reaches its blue second on DUMMY1.
    @Test func theFilmGoesOnWhenTheSoundServerGoes() throws {
        let clip = try Self.beepClip()
        let servers = try Servers()
        defer { servers.stop() }
        let (pulse, x, bus) = (servers.pulse, servers.x, servers.bus)
        let geometry = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let centre = (geometry[0] + geometry[2] / 2, geometry[1] + geometry[3] / 2)
        let play = try ChildProcess([try Repository.extdisplay().path, "play", clip.path, "--display", "DUMMY1"],
                                    environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil,
                                                  "PULSE_SERVER": pulse.server, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { play.signal(SIGKILL) }
        #expect(poll(30) { play.stdout.contains("sound: through the sound server") }, "\(play.stdout) \(play.stderr)")
        #expect(try poll(20) { (Double(try Self.playerctl(bus, "position")) ?? 0) >= 0.5 })
        pulse.stop()
        #expect(poll(20) { play.stderr.contains("the sound stopped") }, "\(play.stdout) \(play.stderr)")
        let probe = try #require(ScreenProbe(display: x.display), "cannot open \(x.display)")
        let change = Self.redToBlue(probe, centre, until: ProcessInfo.processInfo.systemUptime + 20)
        #expect(change != nil, "the film did not reach its blue second after the sound went: \(play.stdout)")
        #expect(try Self.playerctl(bus, "status") == "Playing")
        #expect(try Self.mprisQuit(bus) == 0)
        #expect(play.exitStatus(timeout: 30) == 0, "\(play.stderr)")
        #expect(play.stderr.components(separatedBy: "the sound stopped").count == 2, "\(play.stderr)")
    }

    /// A clip without sound plays as before beside a sound server: nothing is linked, nothing is said.
    @Test func aFilmWithoutSoundPlaysAsBefore() throws {
        let clip = try TestClip.make(fps: 30)
        let servers = try Servers()
        defer { servers.stop() }
        let (pulse, x, bus) = (servers.pulse, servers.x, servers.bus)
        let play = try ChildProcess([try Repository.extdisplay().path, "play", clip.url.path, "--display", "DUMMY1"],
                                    environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": nil,
                                                  "PULSE_SERVER": pulse.server, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { play.signal(SIGKILL) }
        #expect(poll(30) { play.stdout.contains("sound: the file has none") }, "\(play.stdout) \(play.stderr)")
        #expect(try poll(20) { try Self.playerctl(bus, "position").split(separator: ".").first.flatMap { Int($0) } ?? 0 >= 2 })
        #expect(try Self.playerctl(bus, "metadata", "xesam:title") == "clip")
        #expect(try Self.mprisQuit(bus) == 0)
        #expect(play.exitStatus(timeout: 30) == 0, "\(play.stderr)")
        #expect(play.stderr.isEmpty, "\(play.stderr)")
    }

    static func matches(_ color: UInt32, _ expected: UInt32) -> Bool {
        TestClip.matches(UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF), expected)
    }

    static func isColor(_ image: XWDImage, _ point: (Int, Int), _ color: UInt32) -> Bool {
        let (r, g, b) = image.pixel(point.0, point.1)
        return TestClip.matches(UInt8(r), UInt8(g), UInt8(b), color)
    }
}
#endif
