// `present-bench mpv`: `extdisplay play` beside mpv on the same clips and the same output (Xorg-dummy's DUMMY1 at
// 1920×1080, Openbox), everything read from the screen: each frame shows its number (``FrameIndexCode``), DUMMY1's
// middle row is read every ~2 ms with XGetImage, and a frame number never read is a dropped frame.
//
//   scripts/bench-mpv.sh [--seconds 60] [--seeks 3] [--only extdisplay|mpv] [--baseline PATH]
#if canImport(CXRandR)
import Foundation
import SDLWindows

#if canImport(Glibc)
import Glibc
#endif

/// The mpv benchmark's options.
struct MpvBenchOptions {
    /// Seconds of playback measured per clip and player (the clip is 20 s longer, for the seeks).
    var seconds = 60
    /// Right-arrow seeks (+5 s) after the measured playback.
    var seeks = 3
    var only: String?
    /// Another `extdisplay` binary (an earlier build) played too, as a column of its own: a change measured side by
    /// side in the same run, under the same load.
    var baseline: String?
    var pollMicroseconds: UInt32 = 2000

    init(_ arguments: [String]) throws {
        var args = arguments[...]
        while let arg = args.popFirst() {
            switch arg {
            case "--seconds":
                guard let v = args.popFirst().flatMap({ Int($0) }), (1...3000).contains(v) else { throw BenchError("--seconds takes 1…3000") }
                seconds = v
            case "--seeks":
                guard let v = args.popFirst().flatMap({ Int($0) }), (0...3).contains(v) else { throw BenchError("--seeks takes 0…3") }
                seeks = v
            case "--baseline":
                guard let v = args.popFirst(), FileManager.default.isExecutableFile(atPath: v) else {
                    throw BenchError("--baseline takes the path of an executable extdisplay")
                }
                baseline = v
            case "--only":
                guard let v = args.popFirst(), ["extdisplay", "mpv"].contains(v) else { throw BenchError("--only extdisplay|mpv") }
                only = v
            default:
                throw BenchError("usage: present-bench mpv [--seconds 60] [--seeks 3] [--only extdisplay|mpv] [--baseline PATH]")
            }
        }
    }
}

/// What one player did with one clip, as read from the screen.
struct PlayFigures {
    var firstFrame: Double?
    /// Frame numbers from the first to the last one read during the measured playback, and how many of them were never read.
    var span = 0
    var dropped = 0
    /// Reads that showed an earlier frame than the one before (frames out of order).
    var backwards = 0
    var cpuPercent: Double?
    var seekLatencies: [Double] = []
    var seeksMissed = 0
    /// Screen reads per second during the measured playback, and the longest time between two of them: a frame
    /// shown for less than that may go unseen, so drops count only where reads are well under a frame apart.
    var readsPerSecond = 0.0
    var longestGap = 0.0
    var note = ""

    /// One line of figures.
    var summary: String {
        let cpu = cpuPercent.map { String(format: "%.0f %%", $0) } ?? "—"
        let seeks = seekLatencies.map { formatMS($0) }.joined(separator: " ")
        let missed = seeksMissed > 0 ? " (\(seeksMissed) missed)" : ""
        let noted = note.isEmpty ? "" : "; \(note)"
        return "first frame \(formatMS(firstFrame)), \(dropped) of \(span) frames never shown, \(backwards) backwards, "
            + "CPU \(cpu), seeks \(seeks)\(missed); \(Int(readsPerSecond)) screen reads/s, longest gap \(formatMS(longestGap))\(noted)"
    }
}

/// Makes the clips, starts the server and plays each clip with each player in turn, reading DUMMY1 all along.
final class MpvBench {
    let options: MpvBenchOptions
    let work: URL
    var reader: ScreenReader?
    /// DUMMY1's place on the screen (right of the 1920×1080 main output).
    let output = (x: 1920, y: 0, width: 1920, height: 1080)

    init(options: MpvBenchOptions) throws {
        self.options = options
        work = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-mpv")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// The frame number DUMMY1 shows now (its middle row), or nil.
    func shownIndex() -> Int? {
        reader?.row(x: output.x, y: output.y + output.height / 2, width: output.width).flatMap(FrameIndexCode.decode)
    }

    /// Plays `file` with `player` (launch, `seconds` of playback, the seeks) and returns what the screen showed.
    func runOnce(_ player: String, clip: BenchClip, file: URL, display: String, keys: KeyPresser) throws -> PlayFigures {
        var figures = PlayFigures()
        let log = work.appendingPathComponent("\(player)-\(clip.name).log")
        let start = SDLVideo.now()
        let process: Process
        if player == "mpv" {
            process = try spawn("/usr/bin/mpv", ["--no-config", "--fs", "--screen-name=DUMMY1", "--fs-screen-name=DUMMY1",
                                                 "--osd-level=0", "--no-osc", "--no-audio", "--really-quiet", file.path],
                                environment: ["DISPLAY": display], log: log)
        } else {
            process = try spawn(player == "baseline" ? options.baseline ?? "" : extdisplayPath(), ["play", file.path, "--display", "DUMMY1"],
                                environment: ["DISPLAY": display, "PULSE_SERVER": "unix:/nonexistent"], log: log)
        }
        defer { stop(process) }
        // Time to the first frame: from the launch to the first frame number read on DUMMY1.
        var index: Int?
        while index == nil, SDLVideo.now() - start < 30, process.isRunning {
            index = shownIndex()
            if index == nil { usleep(options.pollMicroseconds) }
        }
        guard let first = index else {
            figures.note = process.isRunning ? "no frame within 30 s" : "exited (log: \(log.path))"
            return figures
        }
        figures.firstFrame = SDLVideo.now() - start
        // The measured playback: every frame number read for `seconds`, CPU time over the same span.
        var seen = Set([first])
        var last = first, low = first, high = first
        let cpu0 = ProcStat.cpuSecondsWithChildren(process.processIdentifier)
        let t0 = SDLVideo.now()
        var reads = 0
        var lastRead = t0
        while SDLVideo.now() - t0 < Double(options.seconds), process.isRunning {
            let read = shownIndex()
            let now = SDLVideo.now()
            reads += 1
            figures.longestGap = max(figures.longestGap, now - lastRead)
            lastRead = now
            if let i = read {
                if i < last { figures.backwards += 1 }
                seen.insert(i)
                last = i
                low = min(low, i)
                high = max(high, i)
            }
            usleep(options.pollMicroseconds)
        }
        let wall = SDLVideo.now() - t0
        figures.readsPerSecond = Double(reads) / wall
        if let cpu0, let cpu1 = ProcStat.cpuSecondsWithChildren(process.processIdentifier) { figures.cpuPercent = (cpu1 - cpu0) / wall * 100 }
        figures.span = high - low + 1
        figures.dropped = figures.span - seen.count
        // Seeks: Right (+5 s in both players); latency until a frame at least 3 s further on shows (a player may land
        // on the key frame before the target).
        for _ in 0..<options.seeks where process.isRunning {
            let before = shownIndex() ?? last
            let pressed = SDLVideo.now()
            keys.send("key Right")
            var landed: Double?
            while SDLVideo.now() - pressed < 5 {
                if let i = shownIndex(), i >= before + 3 * clip.fps { landed = SDLVideo.now() - pressed; break }
                usleep(options.pollMicroseconds)
            }
            if let landed { figures.seekLatencies.append(landed) } else { figures.seeksMissed += 1 }
            usleep(1_000_000)
        }
        if !process.isRunning { figures.note = "exited during the run (log: \(log.path))" }
        return figures
    }

    /// The release `extdisplay` next to this binary.
    func extdisplayPath() throws -> String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("extdisplay").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("\(path) is missing: swift build -c release --product extdisplay (or scripts/bench-mpv.sh)")
        }
        return path
    }

    func run() throws {
        let players: [String] = ["extdisplay", "mpv"].filter { name in options.only.map { $0 == name } ?? true }
            + (options.baseline == nil ? [] : ["baseline"])
        if players.contains("mpv"), !FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv") {
            throw BenchError("mpv is not installed: apt-get install mpv")
        }
        if players.contains("extdisplay") { _ = try extdisplayPath() }
        let length = options.seconds + 5 * options.seeks + 2 * options.seeks + 8
        let clips = [BenchClip(width: 1920, height: 1080, fps: 60, seconds: length),
                     BenchClip(width: 1920, height: 1080, fps: 24, seconds: length)]
        var files: [URL] = []
        for clip in clips {
            print("making \(clip.name) (\(clip.frames) frames) …")
            files.append(try clip.make(in: work))
        }
        let server = try BenchServer(packageRoot: benchPackageRoot(), workDirectory: work)
        defer {
            reader = nil
            server.shutdown()
        }
        try server.xrandr("--output", "DUMMY1", "--mode", "1920x1080", "--rate", "60", "--right-of", "DUMMY0")
        usleep(500_000)
        reader = try ScreenReader(display: server.display)
        let keys = try KeyPresser(display: server.display)
        defer { keys.close() }
        let mpvVersion = (try? runTool("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "mpv"])) ?? "?"
        let mode = (try? runTool("/usr/bin/xrandr", ["--query"], environment: ["DISPLAY": server.display]))?
            .split(separator: "\n").drop(while: { !$0.hasPrefix("DUMMY1") }).dropFirst().first { $0.contains("*") }?
            .split(separator: " ").prefix(2).joined(separator: " ") ?? "?"
        let loadStart = loadAverage()
        print("present-bench mpv: Xorg-dummy \(server.display), DUMMY1 \(mode), Openbox; mpv \(mpvVersion) (its defaults, "
              + "--fs on DUMMY1, no OSD); \(options.seconds) s measured per clip, \(options.seeks) seeks; "
              + "screen polled every \(Double(options.pollMicroseconds) / 1000) ms; load average \(loadStart) at the start")
        var results: [(String, PlayFigures)] = []
        for (clip, file) in zip(clips, files) {
            for (n, player) in players.enumerated() {
                let f = try runOnce(player, clip: clip, file: file, display: server.display, keys: keys)
                let column = "\(clip.height)p\(clip.fps) \(player)"
                results.append((column, f))
                print("\(column): \(f.summary)")
                if n < players.count - 1 { usleep(1_000_000) }
            }
        }
        printTable(results, loadStart: loadStart)
    }

    /// The side-by-side table, one column per clip and player, with the load average and the command.
    func printTable(_ results: [(String, PlayFigures)], loadStart: String) {
        let rows: [(String, (PlayFigures) -> String)] = [
            ("frames never shown (of those due)", { f in
                f.span > 0 ? String(format: "%d / %d (%.1f %%)", f.dropped, f.span, Double(f.dropped) / Double(f.span) * 100) : "—" }),
            ("frames shown out of order", { f in "\(f.backwards)" }),
            ("screen reads/s, longest gap between reads", { f in "\(Int(f.readsPerSecond)) /s, \(formatMS(f.longestGap))" }),
            ("CPU % of one core while playing", { f in f.cpuPercent.map { String(format: "%.0f %%", $0) } ?? "—" }),
            ("launch → first frame", { f in formatMS(f.firstFrame) }),
            ("Right (+5 s) → new position (median / max)", { f in
                f.seekLatencies.isEmpty ? "—" : "\(formatMS(median(f.seekLatencies))) / \(formatMS(f.seekLatencies.max()))"
                    + (f.seeksMissed > 0 ? " (\(f.seeksMissed) missed)" : "") }),
        ]
        let width = 24
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        print("")
        print(pad("", 44) + results.map { pad($0.0, width) }.joined())
        for (name, cell) in rows { print(pad(name, 44) + results.map { pad(cell($0.1), width) }.joined()) }
        print("load average \(loadStart) at the start, \(loadAverage()) at the end; "
              + "command: scripts/bench-mpv.sh --seconds \(options.seconds) --seeks \(options.seeks)"
              + (options.only.map { " --only \($0)" } ?? "") + (options.baseline.map { " --baseline \($0)" } ?? ""))
    }
}

/// Runs the mpv benchmark with the arguments after `mpv`.
func mpvBench(_ arguments: [String]) {
    do {
        try MpvBench(options: MpvBenchOptions(arguments)).run()
    } catch {
        FileHandle.standardError.write(Data("present-bench mpv: \(error)\n".utf8))
        exit(2)
    }
}
#endif
