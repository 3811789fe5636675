// present-bench pympress: `extdisplay present` against pympress, pdfpc and Impressive on the same 50-page 16:9 PDF,
// the same Xorg-dummy server (two outputs) and Openbox, in one run; every figure read from the screen, from /proc, or
// (idle CPU) from each presenter's own cgroup v2 (ProcessCPUMeter).
// `--audience 1080p` or `4k` sets the audience output (DUMMY1) to 1920×1080 or 3840×2160@30 with xrandr first, as
// a desktop's settings would (every presenter then uses the mode the desktop set).
//
// `--load N` runs N busy loops beside every presenter (a build, another job on the machine), from before the
// launch to the end of its run; `--launch-only` measures the launch alone (first and sharp picture, both displays).
// The launch is read three ways: the audience's first picture of page 1 (its colour, whatever the resolution), its
// sharp picture (rows through the page number match pdftoppm's own render of page 1 at the audience's size, every
// pixel within 24 a channel, at most one pixel a row off), and both displays showing page 1.
//
//   scripts/bench-pympress.sh [--runs 3] [--idle 20] [--gap 0.4] [--audience 720p|1080p|4k]
//                             [--only extdisplay|pympress|pdfpc|impressive[,...]] [--load N] [--launch-only]
//   (= swift build -c release --product extdisplay && swift run -c release present-bench pympress ...)
#if canImport(CXRandR)
import DesktopProcesses
import Foundation
import SDLWindows

#if canImport(Glibc)
import Glibc
#endif

/// What one run of one presenter gave.
struct RunFigures {
    var launch: Double?
    /// The audience shows page 1 (its colour at two points): any picture of it, sharp or not.
    var firstPicture: Double?
    /// The audience shows page 1 sharp (``PympressBench/audienceSharp()``); nil: not within 10 s of the launch.
    var sharpPicture: Double?
    var flips: [Double] = []
    var missedFlips = 0
    /// Flips over 100 ms: the page shown after it (1-based), the wall-clock time of the key, the latency.
    var slowFlips: [(page: Int, wall: Double, latency: Double)] = []
    var residentMB: Double?
    var idleCPU: Double?
    /// Where the idle figure came from (the same for every presenter when the machine allows).
    var idleCPUSource: ProcessCPUMeter.Source?
    /// Thread wakeups a second over the idle period (voluntary context switches of the presenter's threads).
    var idleWakeups: Double?
    var replug: Double?
    /// 29 keys 0.25 s apart from page 1: the audience on page 30, seconds after the last key (nil: not within 10 s).
    var rapid: Double?
    var note = ""
}

/// One of the presenters.
struct Contender {
    let name: String
    let consoleWindow: String
    /// Whether it shows a console on the main output (Impressive shows only the slides).
    var hasConsole = true
    let launch: (_ pdf: URL, _ display: String, _ log: URL) throws -> Process
}

/// Options of the pympress benchmark.
struct PympressOptions {
    var runs = 3
    var idleSeconds = 20.0
    var gap = 0.4
    /// The presenters to run (nil: all).
    var only: [String]?
    /// The audience output's size: 1280×720 (the server's own), 1920×1080, or 3840×2160 at 30 Hz.
    var audience = (width: 1280, height: 720)
    /// Another `extdisplay` binary (e.g. a build of the previous commit) run as a third contender.
    var baseline: String?
    var pollMicroseconds: UInt32 = 2000
    /// Busy loops run beside each presenter (0: a quiet machine).
    var load = 0
    /// Only the launch figures (no flips, idle, rapid keys nor replug).
    var launchOnly = false

    init(_ arguments: [String]) throws {
        var args = arguments[...]
        while let arg = args.popFirst() {
            if arg == "--launch-only" {
                launchOnly = true
                continue
            }
            let value = args.popFirst() ?? ""
            switch arg {
            case "--runs": runs = max(1, Int(value) ?? runs)
            case "--idle": idleSeconds = max(1, Double(value) ?? idleSeconds)
            case "--gap": gap = max(0.05, Double(value) ?? gap)
            case "--baseline": baseline = value
            case "--load":
                guard let n = Int(value), n >= 0, n <= 64 else { throw BenchError("--load N: how many busy loops beside (0–64)") }
                load = n
            case "--audience":
                switch value.lowercased() {
                case "720p": audience = (1280, 720)
                case "1080p": audience = (1920, 1080)
                case "4k", "2160p": audience = (3840, 2160)
                default: throw BenchError("--audience 720p|1080p|4k")
                }
            case "--only":
                let names = value.split(separator: ",").map(String.init)
                guard !names.isEmpty, names.allSatisfy(["extdisplay", "pympress", "pdfpc", "impressive"].contains) else {
                    throw BenchError("--only extdisplay|pympress|pdfpc|impressive, or several with commas (extdisplay,pdfpc)")
                }
                only = names
            default:
                throw BenchError("usage: present-bench pympress [--runs N] [--idle SECONDS] [--gap SECONDS] "
                                 + "[--audience 720p|1080p|4k] [--only extdisplay|pympress|pdfpc|impressive[,…]] "
                                 + "[--baseline OTHER-EXTDISPLAY] [--load N] [--launch-only]")
            }
        }
    }
}

/// The main output (DUMMY0), as scripts/xorg-dummy.sh lays it out; the audience output (DUMMY1) is right of it
/// at the size ``PympressOptions/audience`` says.
enum BenchLayout {
    static let main = (x: 0, y: 0, width: 1920, height: 1080)
}

final class PympressBench {
    let options: PympressOptions
    let deck = BenchDeck(pages: 50)
    let work: URL
    let packageRoot: URL
    /// The cgroup v2 directory the presenters' own cgroups are made in, or why there is none.
    let cgroupParent = ProcessCPUMeter.cgroupParent()
    /// The CPU meter of the presenter being launched (its cgroup).
    var meter: ProcessCPUMeter?
    var server: BenchServer?
    var reader: ScreenReader?
    /// Rows of pdftoppm's own render of page 1 at the audience's size (through the page number), by their y.
    var sharpRows: [(y: Int, pixels: [(r: Int, g: Int, b: Int)])] = []
    /// One line per flip seen (presenter, run, page, wall clock of the key, latency), appended to the file
    /// `PRESENT_BENCH_FLIPS` names: to line flips up with a presenter's own log (`EXTDISPLAY_FLIP_LOG`).
    let flipDetail: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["PRESENT_BENCH_FLIPS"], !path.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = FileHandle(forWritingAtPath: path)
        handle?.seekToEndOfFile()
        return handle
    }()

    init(options: PympressOptions) throws {
        self.options = options
        work = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-pympress-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        packageRoot = benchPackageRoot()
    }

    /// The page (0-based) the audience output shows: two pixels away from the page number must agree.
    func audiencePage() -> Int? {
        let a = (x: 1920, y: 0, width: options.audience.width, height: options.audience.height)
        guard let reader, let p1 = reader.pixel(x: a.x + a.width / 10, y: a.y + a.height / 7),
              let p2 = reader.pixel(x: a.x + a.width * 9 / 10, y: a.y + a.height * 6 / 7),
              let page = deck.page(of: p1), deck.page(of: p2) == page else { return nil }
        return page
    }

    /// Whether the audience output shows page 1 sharp: each of ``sharpRows`` as pdftoppm renders it at the
    /// audience's size, every pixel within 24 a channel, at most one pixel a row off (an edge's antialiasing). A
    /// picture rendered smaller and scaled up differs at every edge of the page number.
    func audienceSharp() -> Bool {
        guard let reader, !sharpRows.isEmpty else { return false }
        for row in sharpRows {
            guard let seen = reader.row(x: 1920, y: row.y, width: options.audience.width),
                  seen.count == row.pixels.count else { return false }
            var off = 0
            for (a, b) in zip(seen, row.pixels) where max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b)) > 24 {
                off += 1
                if off > 1 { return false }
            }
        }
        return true
    }

    /// Renders page 1 with pdftoppm at the audience's size and keeps six rows through its page number.
    func loadSharpRows(_ pdf: URL) throws {
        let (w, h) = options.audience
        let out = try runToolData("/usr/bin/pdftoppm", ["-cropbox", "-f", "1", "-l", "1", "-singlefile",
                                                        "-scale-to-x", String(w), "-scale-to-y", String(h), pdf.path])
        // P6 header: magic, width, height, maxval, then RGB bytes.
        var fields: [String] = []
        var i = out.startIndex
        while fields.count < 4, i < out.endIndex {
            while i < out.endIndex, out[i] == 0x20 || out[i] == 0x0A { i += 1 }
            let start = i
            while i < out.endIndex, out[i] != 0x20, out[i] != 0x0A { i += 1 }
            fields.append(String(decoding: out[start..<i], as: UTF8.self))
        }
        i += 1
        guard fields.count == 4, fields[0] == "P6", Int(fields[1]) == w, Int(fields[2]) == h,
              out.count - (i - out.startIndex) >= w * h * 3 else {
            throw BenchError("pdftoppm's render of page 1 is not a \(w)×\(h) P6 image")
        }
        let base = i
        sharpRows = [0.44, 0.48, 0.52, 0.56, 0.60, 0.64].map { f in
            let y = Int(Double(h) * f)
            let pixels = (0..<w).map { x -> (r: Int, g: Int, b: Int) in
                let p = base + (y * w + x) * 3
                return (Int(out[p]), Int(out[p + 1]), Int(out[p + 2]))
            }
            return (y, pixels)
        }
    }

    /// Whether the main output shows page `index` somewhere (at least 200 of its pixels on 13 sampled rows).
    func mainShows(page index: Int) -> Bool {
        guard let reader else { return false }
        let m = BenchLayout.main
        var count = 0
        for y in stride(from: m.y + 40, to: m.y + m.height, by: 80) {
            guard let row = reader.row(x: m.x, y: y, width: m.width) else { return false }
            count += row.reduce(0) { $0 + (deck.page(of: $1) == index ? 1 : 0) }
            if count >= 200 { return true }
        }
        return false
    }

    /// Polls `condition` every ~2 ms until it holds (the seconds it took) or `timeout` passes (nil).
    func poll(timeout: Double, from start: Double, _ condition: () -> Bool) -> Double? {
        while true {
            if condition() { return SDLVideo.now() - start }
            if SDLVideo.now() - start > timeout { return nil }
            usleep(options.pollMicroseconds)
        }
    }

    func contenders() throws -> [Contender] {
        let extdisplay = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("extdisplay").path
        guard FileManager.default.isExecutableFile(atPath: extdisplay) else {
            throw BenchError("\(extdisplay) is missing: swift build -c release --product extdisplay (or scripts/bench-pympress.sh)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pympress") else {
            throw BenchError("pympress is not installed: apt-get install pympress")
        }
        let home = work.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let pympress = Contender(name: "pympress", consoleWindow: "Pympress Presenter") { pdf, display, log in
            try spawn("/usr/bin/pympress", [pdf.path], environment: [
                "DISPLAY": display, "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path], log: log, meter: self.meter)
        }
        let ours = Contender(name: "extdisplay", consoleWindow: "extdisplay present: console") { pdf, display, log in
            try spawn(extdisplay, ["present", pdf.path], environment: ["DISPLAY": display], log: log, meter: self.meter)
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfpc") else {
            throw BenchError("pdfpc is not installed: apt-get install pdf-presenter-console")
        }
        // pdfpc 4.6: the presenter view on the primary output, the presentation on the other one (its default).
        let pdfpc = Contender(name: "pdfpc", consoleWindow: "pdfpc - presenter.*") { pdf, display, log in
            try spawn("/usr/bin/pdfpc", [pdf.path], environment: [
                "DISPLAY": display, "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path], log: log, meter: self.meter)
        }
        // Impressive 0.13 (pygame: Debian's own Python, whatever python3 is first on PATH): the slides alone, in a
        // borderless window of the audience's size placed on the audience output, no transitions.
        // Its window opens at +0+0 whatever SDL_VIDEO_WINDOW_POS says: moved onto the audience output once it is there.
        let impressive = Contender(name: "impressive", consoleWindow: "Impressive.*", hasConsole: false) { pdf, display, log in
            let process = try spawn("/usr/bin/python3", ["/usr/bin/impressive", "--nologo", "-T", "0", "-ff",
                                                         "-g", "\(self.options.audience.width)x\(self.options.audience.height)", pdf.path],
                                    environment: ["DISPLAY": display, "HOME": home.path], log: log, meter: self.meter)
            _ = try spawn("/bin/sh", ["-c", "for i in $(seq 300); do w=$(xdotool search --class impressive | tail -1); "
                                      + "if [ -n \"$w\" ]; then xdotool windowmove $w 1920 0 && exit 0; fi; sleep 0.05; done"],
                          environment: ["DISPLAY": display], log: nil)
            return process
        }
        var all = [pympress, pdfpc, ours]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/impressive") {
            all.insert(impressive, at: 2)
        } else {
            print("impressive is not installed (apt-get install impressive): left out")
        }
        if let baseline = options.baseline {
            guard FileManager.default.isExecutableFile(atPath: baseline) else { throw BenchError("--baseline \(baseline) is not executable") }
            all.append(Contender(name: "extdisplay-baseline", consoleWindow: "extdisplay present: console") { pdf, display, log in
                try spawn(baseline, ["present", pdf.path], environment: ["DISPLAY": display], log: log, meter: self.meter)
            })
        }
        return all.filter { contender in options.only.map { $0.contains { contender.name.hasPrefix($0) } } ?? true }
    }

    func runOnce(_ contender: Contender, run: Int, pdf: URL) throws -> RunFigures {
        guard let server else { throw BenchError("no server") }
        var figures = RunFigures()
        let log = work.appendingPathComponent("\(contender.name)-\(run).log")
        let meter = ProcessCPUMeter(name: "\(contender.name)-\(run)", parent: cgroupParent)
        self.meter = meter
        let start = SDLVideo.now()
        let process = try contender.launch(pdf, server.display, log)
        defer {
            stop(process)
            meter.remove()
        }
        // The first picture, the sharp picture and both displays, each the first poll it held at.
        _ = poll(timeout: 30, from: start) {
            let elapsed = SDLVideo.now() - start
            let first = audiencePage() == 0
            if first, figures.firstPicture == nil { figures.firstPicture = elapsed }
            if first, figures.sharpPicture == nil, audienceSharp() { figures.sharpPicture = elapsed }
            if first, figures.launch == nil, !contender.hasConsole || mainShows(page: 0) { figures.launch = elapsed }
            let sharpDone = figures.sharpPicture != nil || figures.firstPicture.map { elapsed - $0 > 10 } == true
            return figures.launch != nil && sharpDone
        }
        guard figures.launch != nil else {
            figures.note = "page 1 never showed on both displays within 30 s (log: \(log.path))"
            return figures
        }
        if options.launchOnly { return figures }
        // Keys go to the focused window: make sure it is the presenter's console, then let start-up settle.
        _ = try? runTool("/usr/bin/timeout", ["3", "/usr/bin/xdotool", "search", "--name", "^\(contender.consoleWindow)$",
                                              "windowactivate", "--sync"],
                         environment: ["DISPLAY": server.display])
        usleep(1_000_000)
        let keys = try KeyPresser(display: server.display)
        defer { keys.close() }
        var expected = 0
        for _ in 1..<deck.pages {
            usleep(UInt32(options.gap * 1e6))
            let target = expected + 1
            let pressed = SDLVideo.now()
            let wall = Date().timeIntervalSince1970
            keys.send("key Right")
            if let latency = poll(timeout: 3, from: pressed, { audiencePage() == target }) {
                flipDetail?.write(Data(String(format: "%@ run=%d page=%d pressedWall=%.4f latencyMs=%.1f\n",
                                              contender.name, run, target + 1, wall, latency * 1000).utf8))
                figures.flips.append(latency)
                if latency > 0.1 { figures.slowFlips.append((target + 1, wall, latency)) }
                expected = target
            } else {
                figures.missedFlips += 1
                expected = audiencePage() ?? expected
            }
        }
        usleep(1_000_000)
        figures.residentMB = ProcStat.residentMB(process.processIdentifier)
        // A fast clicker: from page 1, 29 keys 0.25 s apart; when does the audience show page 30?
        keys.send("key Home")
        if poll(timeout: 10, from: SDLVideo.now(), { audiencePage() == 0 }) != nil {
            usleep(2_000_000)
            for key in 0..<29 {
                if key > 0 { usleep(250_000) }
                keys.send("key Right")
            }
            let last = SDLVideo.now()
            figures.rapid = poll(timeout: 10, from: last) { audiencePage() == 29 }
            // Back on the last page for the idle and replug figures.
            keys.send("key End")
            _ = poll(timeout: 10, from: SDLVideo.now()) { audiencePage() == deck.pages - 1 }
            usleep(1_000_000)
        }
        // Idle: the last page, nothing pressed, the talk timer running. The presenter's CPU time over the period,
        // threads and processes that ended in between included, read the same way for every presenter
        // (``ProcessCPUMeter``: its cgroup's microseconds, else the process clock's nanoseconds, else ticks).
        let source = meter.source
        if let cpu0 = meter.seconds(from: source) {
            let wall0 = SDLVideo.now()
            let wakeups0 = ThreadWakeups.count(of: process.processIdentifier)
            usleep(UInt32(options.idleSeconds * 1e6))
            if let cpu1 = meter.seconds(from: source) {
                figures.idleCPU = (cpu1 - cpu0) / (SDLVideo.now() - wall0) * 100
                figures.idleCPUSource = source
            }
            if let w0 = wakeups0, let w1 = ThreadWakeups.count(of: process.processIdentifier) {
                figures.idleWakeups = Double(w1 - w0) / (SDLVideo.now() - wall0)
            }
        }
        // Unplug the audience output, then plug it back: does the audience see the slide again, and when?
        let shown = audiencePage() ?? expected
        try server.xrandr("--output", "DUMMY1", "--off")
        usleep(2_000_000)
        let replugged = SDLVideo.now()
        try server.xrandr("--output", "DUMMY1", "--mode", audienceMode, "--right-of", "DUMMY0")
        figures.replug = poll(timeout: 5, from: replugged) { audiencePage() == shown }
        if !process.isRunning { figures.note = "exited during the run (log: \(log.path))" }
        return figures
    }

    func run() throws {
        let pdf = work.appendingPathComponent("fifty.pdf")
        try deck.pdf().write(to: pdf)
        let contenders = try contenders()
        try loadSharpRows(pdf)
        server = try BenchServer(packageRoot: packageRoot, workDirectory: work)
        defer {
            reader = nil  // disconnect before the server goes
            server?.shutdown()
        }
        reader = try ScreenReader(display: server!.display)
        try setAudienceMode()
        let version = (try? runTool("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "pympress"])) ?? "?"
        let pdfpcVersion = (try? runTool("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "pdf-presenter-console"])) ?? "?"
        let impressiveVersion = (try? runTool("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "impressive"])) ?? "?"
        print("present-bench pympress: \(deck.pages)-page 16:9 PDF, Xorg-dummy \(server!.display) "
              + "(main 1920×1080, audience \(audienceMode)), Openbox; \(options.runs) runs, pympress \(version), pdfpc \(pdfpcVersion), "
              + "Impressive \(impressiveVersion); load average \(loadAverage()) at the start; "
              + "flips \(options.gap) s apart, idle \(options.idleSeconds) s, screen polled every "
              + "\(Double(options.pollMicroseconds) / 1000) ms"
              + (options.load > 0 ? "; LOADED: \(options.load) busy loop(s) beside each presenter" : "; no load added")
              + (options.launchOnly ? "; launch only" : ""))
        switch cgroupParent {
        case .success(let directory):
            print("idle CPU: each presenter in a cgroup v2 of its own under \(directory) (cpu.stat usage_usec: "
                  + "microseconds, its threads and processes, ended ones included)")
        case .failure(let why):
            print("idle CPU: NO CGROUP (\(why)); falling back to each process's CPU clock (nanoseconds, all its "
                  + "threads, ended ones included, not its child processes), else clock ticks; each figure says which")
        }
        defer { if case .success(let directory) = cgroupParent { rmdir(directory) } }
        var results: [String: [RunFigures]] = [:]
        for run in 0..<options.runs {
            for contender in run % 2 == 0 ? contenders : contenders.reversed() {
                let hogs = try (0..<options.load).map { _ in
                    try spawn("/bin/sh", ["-c", "while :; do :; done"], environment: [:], log: nil)
                }
                if !hogs.isEmpty { usleep(500_000) }  // the busy loops running before the launch
                let figures: RunFigures
                do {
                    defer { for hog in hogs { stop(hog, grace: 1) } }
                    figures = try runOnce(contender, run: run, pdf: pdf)
                }
                results[contender.name, default: []].append(figures)
                print(describe(contender.name, run, figures))
                usleep(1_000_000)
            }
        }
        print("")
        print("load average \(loadAverage()) at the end")
        printTable(results, names: contenders.map(\.name))
        if results.values.joined().allSatisfy({ $0.note.isEmpty }) {
            try? FileManager.default.removeItem(at: work)
        } else {
            print("logs kept in \(work.path)")
        }
    }

    func describe(_ name: String, _ run: Int, _ f: RunFigures) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.0f ms", $0 * 1000) } ?? "—" }
        let sorted = f.flips.sorted()
        return "  run \(run + 1) \(name): first picture \(ms(f.firstPicture)), sharp \(ms(f.sharpPicture)), "
            + "launch \(ms(f.launch)), flips p50 \(ms(percentile(sorted, 0.5))) "
            + "p90 \(ms(percentile(sorted, 0.9))) "
            + "max \(ms(sorted.last)) (\(f.flips.count) seen, \(f.missedFlips) missed), "
            + "RSS \(f.residentMB.map { String(format: "%.0f MB", $0) } ?? "—"), "
            + "idle CPU \(f.idleCPU.map { String(format: "%.3f %%", $0) } ?? "—")\(f.idleCPUSource.map { " (\($0.rawValue))" } ?? ""), replug \(f.replug == nil ? "never" : ms(f.replug)), "
            + "29 rapid keys: last page \(f.rapid == nil ? "not within 10 s" : ms(f.rapid)) after the last key"
            + (f.note.isEmpty ? "" : " [\(f.note)]")
            + f.slowFlips.map { String(format: "\n    slow flip to page %d, key at %.3f: %.0f ms", $0.page, $0.wall, $0.latency * 1000) }
                .joined()
    }

    func printTable(_ results: [String: [RunFigures]], names: [String]) {
        func column(_ name: String, _ row: ([RunFigures]) -> String) -> String { row(results[name] ?? []) }
        let rows: [(String, ([RunFigures]) -> String)] = [
            ("launch → audience's first picture of page 1 (median)", { runs in
                formatMS(median(runs.compactMap(\.firstPicture))) }),
            ("launch → audience's page 1 sharp (median)", { runs in
                let sharp = runs.compactMap(\.sharpPicture)
                return formatMS(median(sharp)) + (sharp.count < runs.count ? " (\(sharp.count)/\(runs.count) runs)" : "") }),
            ("first picture not yet sharp: sharp − first, per run (median / max)", { runs in
                let up = runs.compactMap { f in f.sharpPicture.flatMap { s in f.firstPicture.map { s - $0 } } }.sorted()
                return "\(formatMS(median(up))) / \(formatMS(up.last))" }),
            ("launch → both displays show page 1 (median)", { runs in
                formatMS(median(runs.compactMap(\.launch))) }),
            ("key → audience shows next page (p50 / p95 / max)", { runs in
                let all = runs.flatMap(\.flips).sorted()
                let missed = runs.map(\.missedFlips).reduce(0, +)
                return "\(formatMS(percentile(all, 0.5), digits: 1)) / \(formatMS(percentile(all, 0.95), digits: 1))"
                    + " / \(formatMS(all.last, digits: 1))"
                    + (missed > 0 ? " (\(missed) flips not seen)" : "") }),
            ("idle CPU, static slide, timer running (median)", { runs in
                let sources = Set(runs.compactMap { $0.idleCPUSource?.rawValue }).sorted().joined(separator: "; ")
                return (median(runs.compactMap(\.idleCPU)).map { String(format: "%.3f %%", $0) } ?? "—")
                    + (sources.isEmpty ? "" : " (\(sources))") }),
            ("idle thread wakeups a second, static slide, timer running (median)", { runs in
                median(runs.compactMap(\.idleWakeups)).map { String(format: "%.1f", $0) } ?? "—" }),
            ("resident memory after all pages (median)", { runs in
                median(runs.compactMap(\.residentMB)).map { String(format: "%.0f MB", $0) } ?? "—" }),
            ("29 keys 0.25 s apart: audience on the last page, after the last key (median)", { runs in
                let seen = runs.compactMap(\.rapid)
                if seen.isEmpty { return "never (0/\(runs.count) runs within 10 s)" }
                return "\(formatMS(median(seen))) (\(seen.count)/\(runs.count) runs)" }),
            ("audience back after unplug/replug (median)", { runs in
                let back = runs.compactMap(\.replug)
                if back.isEmpty { return "never (0/\(runs.count) runs within 5 s)" }
                return "\(formatMS(median(back))) (\(back.count)/\(runs.count) runs)" }),
        ]
        print("| | " + names.map { $0 == "pympress" ? "pympress" : $0 == "extdisplay" ? "`extdisplay present`" : $0 }
            .joined(separator: " | ") + " |")
        print("| --- |" + names.map { _ in " --- |" }.joined())
        for (label, row) in rows {
            print("| \(label) | " + names.map { column($0, row) }.joined(separator: " | ") + " |")
        }
        let flips = names.map { "\($0): \(results[$0]?.flatMap(\.flips).count ?? 0)" }.joined(separator: ", ")
        print("\nflips measured: \(flips); command: present-bench pympress "
              + "--runs \(options.runs) --idle \(options.idleSeconds) --gap \(options.gap) "
              + "--audience \(options.audience.width)x\(options.audience.height)"
              + (options.only.map { " --only \($0.joined(separator: ","))" } ?? "")
              + (options.load > 0 ? " --load \(options.load)" : "") + (options.launchOnly ? " --launch-only" : ""))
    }
}

func median(_ values: [Double]) -> Double? { percentile(values.sorted(), 0.5) }

/// The 1-, 5- and 15-minute load averages.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

extension PympressBench {
    /// The xrandr mode name of the audience output's size.
    var audienceMode: String {
        options.audience == (1280, 720) ? "1280x720" : options.audience == (1920, 1080) ? "1920x1080" : "3840x2160_30"
    }

    /// Puts the audience output in the size asked for, as a desktop's display settings would (4K at 30 Hz, CEA
    /// timings: the dummy driver offers no 4K mode itself, and 30 Hz is what a 4K projector on HDMI 1.4 runs).
    func setAudienceMode() throws {
        guard let server, audienceMode != "1280x720" else { return }
        let env = ["DISPLAY": server.display]
        if audienceMode == "3840x2160_30" {
            try runTool("/usr/bin/xrandr", ["--newmode", audienceMode, "297.00", "3840", "4016", "4104", "4400",
                                            "2160", "2168", "2178", "2250", "+hsync", "+vsync"], environment: env)
            try runTool("/usr/bin/xrandr", ["--addmode", "DUMMY1", audienceMode], environment: env)
        }
        try server.xrandr("--output", "DUMMY1", "--mode", audienceMode, "--right-of", "DUMMY0")
        usleep(500_000)
    }
}

/// The nearest-rank percentile of sorted values.
func percentile(_ sorted: [Double], _ p: Double) -> Double? {
    guard !sorted.isEmpty else { return nil }
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func formatMS(_ v: Double?, digits: Int = 0) -> String {
    v.map { String(format: "%.\(digits)f ms", $0 * 1000) } ?? "—"
}

/// Runs the pympress benchmark with the arguments after `pympress`.
func pympressBench(_ arguments: [String]) {
    do {
        try PympressBench(options: PympressOptions(arguments)).run()
    } catch {
        FileHandle.standardError.write(Data("present-bench pympress: \(error)\n".utf8))
        exit(2)
    }
}
#endif
