#if canImport(CSDL2)
import DesktopProcesses
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// Decoding in a process of its own (`extdisplay-decoder`): a decoder that crashes, hangs, floods or talks
/// nonsense ends its file with one error naming the file and the reason, its process stopped and reaped (none
/// left behind); a real crash (libde265 on an HEVC 4:4:4 clip that x265enc makes here) ends the clip and the
/// talk goes on; in-process decoding still chosen on request.
@Suite("Decoder process", .serialized)
struct DecoderProcessTests {
    /// A stub decoder program: a shell script in a fresh folder, which writes its pid to `pid` there first.
    struct Stub {
        let program: URL
        let pidFile: URL

        init(_ name: String, _ body: String) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decoder-stub-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            program = folder.appendingPathComponent(name)
            pidFile = folder.appendingPathComponent("pid")
            let quoted = "'" + pidFile.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
            let text = folder.appendingPathComponent("\(name).txt")
            try "#!/bin/sh\necho $$ > \(quoted).tmp && mv \(quoted).tmp \(quoted)\n\(body)\n"
                .write(to: text, atomically: true, encoding: .utf8)
            // The program itself written by another process: a descriptor of ours open for writing on it, copied
            // into a child another test starts at that moment, would make its exec fail (ETXTBSY).
            let installed = try Shell.run(["install", "-m", "755", text.path, program.path])
            try #require(installed.status == 0, "install: \(installed.output)")
        }

        /// The pid the stub wrote (it has run).
        func pid() throws -> pid_t {
            let text = try String(contentsOf: pidFile, encoding: .utf8)
            return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), "pid file: \(text)")
        }
    }

    /// Whether `pid` is gone: not running and reaped (a zombie still answers `kill(pid, 0)`).
    static func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    /// Opens `clip` with `stub` as the decoder program; returns the error and how long it took.
    static func open(_ clip: URL, with stub: Stub, timeout: Double = 1) -> (error: VideoDecodingError?, seconds: Double) {
        let started = Date()
        do {
            _ = try VideoDecoder(opening: clip, timeout: timeout, isolation: .process, worker: stub.program)
            return (nil, Date().timeIntervalSince(started))
        } catch {
            return (error, Date().timeIntervalSince(started))
        }
    }

    @Test func aDecoderThatAbortsEndsTheFileWithItsSignalAndLastWords() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000])
        let stub = try Stub("aborts", "echo 'malloc(): corrupted top size' >&2\nkill -ABRT $$")
        let (error, _) = Self.open(clip.url, with: stub)
        #expect(error == .decoderProcessFailed(path: clip.url.path,
                                               reason: "crashed (signal 6, SIGABRT: malloc(): corrupted top size)"),
                "\(String(describing: error))")
        #expect(error.map { !$0.description.contains("\n") && $0.description.contains(clip.url.path) } == true)
        #expect(Self.isGone(try stub.pid()))
    }

    @Test func aDecoderThatHangsIsStoppedAtItsTimeLimit() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000])
        let stub = try Stub("hangs", "exec sleep 600")
        let (error, seconds) = Self.open(clip.url, with: stub, timeout: 1)
        guard case .timedOut(let path, let limit, let doing)? = error else {
            Issue.record("a hung decoder: \(String(describing: error))")
            return
        }
        #expect(path == clip.url.path && limit == 8 && doing.contains("was stopped"), "\(limit) \(doing)")
        // The bound: the timeout, the grace and the start allowance (1 + 2 + 5 s), and no more than a little after.
        #expect(seconds >= 7.9 && seconds < 20, "took \(seconds) s")
        #expect(Self.isGone(try stub.pid()))
    }

    /// A process that opens, starts streaming, then stops answering: a streamed frame (which never waits in the
    /// pipeline) is given up after the quick allowance (2 s), not the whole timeout, so a player's loop is held up
    /// no longer; every later call says the same at once.
    @Test func aDecoderThatHangsWhileStreamingHoldsUpThePlayerTwoSecondsAtMost() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000])
        let read = "dd bs=65536 count=1 <&3 >/dev/null 2>&1"
        let stub = try Stub("hangs-later", """
            \(read)
            printf '{"opened":{"info":{"width":160,"height":90,"decoderIsHardware":false}}}' >&3
            \(read)
            printf '{"done":{}}' >&3
            exec sleep 600
            """)
        let decoder = try VideoDecoder(opening: clip.url, timeout: 30, isolation: .process, worker: stub.program)
        #expect(decoder.info.width == 160 && decoder.lastFrame == nil)
        try decoder.startStreaming(from: 0)
        let started = Date()
        #expect(throws: VideoDecodingError.timedOut(path: clip.url.path, seconds: 2,
                                                    doing: "streaming (its decoder process did not answer and was stopped)")) {
            _ = try decoder.streamFrame(upTo: 0.5)
        }
        #expect(Date().timeIntervalSince(started) < 10, "hang guard")
        #expect(Self.isGone(try stub.pid()))
        #expect(decoder.processID == nil && decoder.soundPosition() == nil)
        #expect(throws: VideoDecodingError.self) { _ = try decoder.frame(at: 0) }
    }

    @Test func aDecoderThatFloodsItsSocketIsStopped() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000])
        // Datagrams of 128 KiB, without end (and the standard error flooded by a child in its group).
        let stub = try Stub("floods", "yes 'decoder noise' >&2 &\nexec cat /dev/zero >&3")
        let (error, seconds) = Self.open(clip.url, with: stub, timeout: 5)
        guard case .decoderProcessFailed(let path, let reason)? = error else {
            Issue.record("a flooding decoder: \(String(describing: error))")
            return
        }
        #expect(path == clip.url.path && reason.hasPrefix("broke the protocol"), "\(reason)")
        #expect(seconds < 5, "a flood is seen at once, not at the time limit: \(seconds) s")
        #expect(Self.isGone(try stub.pid()))
    }

    @Test func aDecoderThatAnswersNonsenseIsStopped() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000])
        // It reads the request (one datagram) first, then answers.
        let stub = try Stub("nonsense", "dd bs=65536 count=1 <&3 >/dev/null 2>&1\nprintf '{\"opened\":{\"info\":42}}' >&3\nexec sleep 600")
        let (error, _) = Self.open(clip.url, with: stub, timeout: 5)
        #expect(error == .decoderProcessFailed(path: clip.url.path,
                                               reason: "broke the protocol: it answered with something that is not a reply (22 bytes); it was stopped"),
                "\(String(describing: error))")
        #expect(Self.isGone(try stub.pid()))
    }

    @Test func aMissingDecoderProgramIsNamed() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000])
        let missing = URL(fileURLWithPath: "/nonexistent/extdisplay-decoder")
        #expect(throws: VideoDecodingError.decoderProcessUnavailable("/nonexistent/extdisplay-decoder is missing or not executable")) {
            _ = try VideoDecoder(opening: clip.url, isolation: .process, worker: missing)
        }
    }

    /// The real decoder process: frames right, and the process gone (reaped) once the decoder is.
    @Test func theDecoderProcessEndsWithItsDecoder() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000, 0x0000FF])
        var decoder: VideoDecoder? = try VideoDecoder(opening: clip.url, isolation: .process)
        let pid = try #require(decoder?.processID)
        #expect(!Self.isGone(pid))
        let (r, g, b, _) = try #require(try decoder?.frame(at: 1.5).rgba(x: 10, y: 10))
        #expect(TestClip.matches(r, g, b, 0x0000FF), "\(r),\(g),\(b)")
        decoder = nil
        #expect(Self.isGone(pid), "the decoder process \(pid) outlived its decoder")
    }

    /// The real decoder program under a parent that is killed (SIGKILL: no cleanup of its own runs): it ends by
    /// itself (its socket's other end closes; its parent changes). The parent is a shell holding that end, which
    /// its decoder child does not inherit.
    @Test func theDecoderProcessNeverOutlivesItsParent() throws {
        let worker = try Repository.extdisplay().deletingLastPathComponent().appendingPathComponent("extdisplay-decoder")
        try #require(FileManager.default.isExecutableFile(atPath: worker.path), "\(worker.path) is not built")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decoder-orphan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        // The frame memory: a sparse file of the size the decoder maps.
        let memoryPath = folder.appendingPathComponent("frames").path
        let memory = Glibc.open(memoryPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(memory >= 0 && ftruncate(memory, off_t(8192 * 8192 * 4)) == 0)
        let pidFile = folder.appendingPathComponent("decoder-pid").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 3)
        posix_spawn_file_actions_adddup2(&actions, memory, 4)
        posix_spawn_file_actions_adddup2(&actions, pair[0], 5)
        let script = "\"$0\" $$ thread 5>&- & echo $! > \"$1\"; wait"
        let arguments: [String] = ["/bin/sh", "-c", script, worker.path, pidFile]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var shell: pid_t = 0
        let spawned = CleanSpawn.withAttributes(newProcessGroup: false) { attributes in
            posix_spawn(&shell, "/bin/sh", &actions, &attributes, argv, environ)
        }
        for fd in pair + [memory] { close(fd) }
        try #require(spawned == 0)
        var decoder: pid_t = 0
        #expect(poll(20) {
            decoder = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
            return decoder > 0
        }, "the shell started no decoder (hang guard)")
        // The decoder runs (past its start: its parent watch is up once its command line is read and it maps).
        #expect(poll(20) { Self.state(of: decoder) == "S" }, "decoder \(decoder) did not start waiting: \(Self.state(of: decoder) ?? "gone")")
        kill(shell, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(shell, &status, 0)
        #expect(poll(10) { Self.state(of: decoder).map { $0 == "Z" } ?? true },
                "decoder \(decoder) outlived its parent (hang guard): state \(Self.state(of: decoder) ?? "gone")")
    }

    /// The state letter of `pid` (`/proc/PID/stat`'s third field: R, S, Z …), `nil` when it is gone.
    static func state(of pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    /// A file named by a descriptor of this process (`/proc/self/fd/N`, how `play` hands on a name that is not
    /// UTF-8) opens in the decoder process too, and its messages name the same path.
    @Test func aFileNamedByItsDescriptorOpens() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000, 0x00FF00])
        let descriptor = Glibc.open(clip.url.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let named = URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")
        let decoder = try VideoDecoder(opening: named, isolation: .process)
        let (r, g, b, _) = try #require(try decoder.frame(at: 1.5).rgba(x: 10, y: 10))
        #expect(TestClip.matches(r, g, b, 0x00FF00), "\(r),\(g),\(b)")
        #expect(throws: VideoDecodingError.endOfStream(path: named.path, at: 3)) {
            try decoder.startStreaming(from: 1.9)
            _ = try VideoDecoderTests.polled { () throws(VideoDecodingError) -> VideoFrame? in
                _ = try decoder.streamFrame(upTo: 3)
                return nil
            }
        }
    }

    /// In-process decoding, chosen for comparisons, gives the same pictures and starts no process.
    @Test func inProcessDecodingIsStillThere() throws {
        let clip = try TestClip.make(fps: 30, colors: [0xFF0000, 0x00FF00])
        let inside = try VideoDecoder(opening: clip.url, isolation: .inProcess)
        let outside = try VideoDecoder(opening: clip.url, isolation: .process)
        #expect(inside.processID == nil && outside.processID != nil)
        #expect(inside.info == outside.info, "\(inside.info) vs \(outside.info)")
        for time in [1.5, 0.2] {
            let a = try inside.frame(at: time), b = try outside.frame(at: time)
            #expect(a == b, "at \(time) s")
        }
    }

    /// An HEVC 4:4:4 clip x265enc makes; libde265 (the decoder GStreamer picks once FFmpeg's are ranked down)
    /// corrupts its heap on it (glibc aborts, or it faults). `nil` when x265enc is missing (the test then fails).
    static func crashingClip() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hevc444-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("clip.mp4")
        let made = try Shell.run(["timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=10",
                                  "!", "video/x-raw,format=Y444,width=64,height=64,framerate=30/1", "!", "x265enc", "!",
                                  "video/x-h265,profile=main-444", "!", "h265parse", "!", "mp4mux", "!", "filesink",
                                  "location=\(file.path)"])
        try #require(made.status == 0, "gst-launch-1.0 with x265enc (gstreamer1.0-plugins-bad) could not make the clip: \(made.output)")
        return file
    }

    @Test func aRealDecoderCrashEndsTheFileNotThisProcess() throws {
        let clip = try Self.crashingClip()
        do {
            let decoder = try VideoDecoder(opening: clip, timeout: 10, isolation: .process)
            for time in [0.1, 0.3, 0.0] { _ = try decoder.frame(at: time) }
            Issue.record("libde265 decoded the HEVC 4:4:4 clip without crashing (decoder \(decoder.info.decoder ?? "?")): the test no longer shows a crash")
        } catch {
            guard case .decoderProcessFailed(let path, let reason) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(path == clip.path && reason.hasPrefix("crashed (signal "), "\(reason)")
        }
    }

    /// `play` of that clip: one line naming the file and the crash, the exit status of a file that cannot be
    /// played (2), no crash report of ours.
    @Test func playingACrashingClipSaysSoInOneLine() throws {
        let clip = try Self.crashingClip()
        let run = try PlayCommandTests.play(clip, ["--simulate", "laptop,hdmi-tv-1080p", "--keys", "wait:1"])
        #expect(run.status == 2, "\(run.status): \(run.errors)")
        let lines = run.errors.split(separator: "\n")
        #expect(lines.count == 1 && lines.allSatisfy { $0.hasPrefix("extdisplay play: the decoder for \(clip.path) crashed (signal ") },
                "\(run.errors)")
    }

    /// The issue's case: a Markdown deck with that clip on slide 2 (opened ahead while slide 1 shows), presented
    /// headless: the clip's slide says what happened in one line and the talk goes on to slide 3.
    @Test func aTalkWithACrashingClipGoesOn() throws {
        let clip = try Self.crashingClip()
        let folder = clip.deletingLastPathComponent()
        let deck = folder.appendingPathComponent("talk.md")
        try "# Intro\nA colleague's clip next.\n---\n![the odd clip](clip.mp4)\n---\n# After\nstill here\n"
            .write(to: deck, atomically: true, encoding: .utf8)
        let run = try SlideClipTests.present(deck, keys: "next,v,wait:1,next")
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let problems = run.output.split(separator: "\n").filter { $0.hasPrefix("slide video: ") }
        #expect(problems.count == 1 && problems.allSatisfy { $0.contains("the decoder for \(clip.path) crashed (signal ") },
                "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("next: slide 3 of 3"), "\(run.output)")
        #expect(!run.errors.contains("Fatal error") && !run.errors.contains("Crash"), "\(run.errors)")
    }
}
#endif
