#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Hostile PDFs and misbehaving tools (issue #24), through `extdisplay present` run headless: tools that hang,
/// print without end, are missing or fail; a tiny PDF whose pages take pdftoppm minutes; SIGTERM, SIGINT, SIGHUP,
/// SIGQUIT and quitting while such pages render. Each run is bounded by a generous hang guard, and afterwards no
/// process of ours runs on: every run carries a ``ProcessMark`` in its environment, inherited by `extdisplay`,
/// the tools it starts and their children, and the check reads `/proc/*/environ` for it (whatever a leftover's
/// command line says).
///
/// Stub tools are shell scripts in a folder put first on the PATH of the `extdisplay` run; they sleep with a
/// copy of `sleep` named `edk-sleep` (nothing of the test's folder in its command line).
@Suite("Hostile PDFs and misbehaving tools", .serialized)
struct HostileToolTests {
    /// A run's exit status, output, errors, wall-clock seconds, the mark its processes carried and, when
    /// measured, the CPU seconds (user and system) it and the tools it waited for used.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var seconds: Double
        var mark: ProcessMark
        var cpuSeconds: Double?
    }

    /// A fresh folder with `talk.pdf` (three small pages, or `pdf`) and a `stubs` folder holding a copy of
    /// `sleep` named `edk-sleep`.
    static func folder(pdf: Data? = nil) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-tools-\(UUID().uuidString)")
        let stubs = dir.appendingPathComponent("stubs")
        try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
        let pages = [MiniPDF.quadrants(), MiniPDF.solid(200, 30, 30, width: 800, height: 600),
                     MiniPDF.solid(30, 30, 200, width: 800, height: 600)]
        try (pdf ?? MiniPDF.data(pages: pages, width: 800, height: 600)).write(to: dir.appendingPathComponent("talk.pdf"))
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: stubs.appendingPathComponent("edk-sleep").path)
        return dir
    }

    /// Writes the stub tool `name` (a shell script) into `dir/stubs`.
    static func stub(_ name: String, in dir: URL, _ body: String) throws {
        let url = dir.appendingPathComponent("stubs").appendingPathComponent(name)
        try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
    }

    /// Runs `extdisplay ARGUMENTS` in `dir` under a hang guard of `guardSeconds` (killed after it: status 137),
    /// with `dir/stubs` first on the PATH (or `path` as the whole PATH), `environment` added and a fresh
    /// ``ProcessMark`` (or `mark`) in its environment. With `measuringCPU`, `/usr/bin/time` measures the CPU
    /// seconds it used (a bound on them holds on a loaded machine, where wall-clock seconds stretch).
    static func run(_ arguments: [String], in dir: URL, path: String? = nil, environment: [String: String] = [:],
                    mark: ProcessMark = ProcessMark(), guardSeconds: Int = 120, measuringCPU: Bool = false) throws -> Run {
        let out = dir.appendingPathComponent("stdout"), err = dir.appendingPathComponent("stderr")
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let searchPath = path ?? dir.appendingPathComponent("stubs").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let variables = (["PATH": searchPath, "DISPLAY": ""].merging(environment) { $1 }.merging(mark.environment) { $1 })
            .map { quote("\($0.key)=\($0.value)") }.sorted()
        let command = ([try Repository.extdisplay().path] + arguments).map(quote)
        let cpu = dir.appendingPathComponent("cpu")
        let time = measuringCPU ? "/usr/bin/time -f '%U %S' -o \(quote(cpu.path)) " : ""
        let script = "cd \(quote(dir.path)) && exec timeout -s KILL \(guardSeconds) \(time)env \(variables.joined(separator: " ")) "
            + "\(command.joined(separator: " ")) >\(quote(out.path)) 2>\(quote(err.path))"
        let start = Date()
        let status = try Shell.run(["sh", "-c", script]).status
        // The last line is the figures (a line before it says when the command exited non-zero).
        let figures = ((try? String(contentsOf: cpu, encoding: .utf8)) ?? "").split(separator: "\n").last?
            .split(separator: " ").compactMap { Double($0) } ?? []
        return Run(status: status, output: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                   errors: (try? String(contentsOf: err, encoding: .utf8)) ?? "", seconds: Date().timeIntervalSince(start),
                   mark: mark, cpuSeconds: figures.count == 2 ? figures[0] + figures[1] : nil)
    }

    /// Fails the test when a process carrying `mark` (the run, a tool, a tool's child) still runs once killed
    /// ones have had a moment to go; kills what it finds. Throws when `/proc` cannot be read.
    static func expectNothingLeft(_ mark: ProcessMark, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let left = try mark.leftovers()
        #expect(left.isEmpty, "left running: \(left)", sourceLocation: sourceLocation)
    }

    static let talk = ["present", "talk.pdf", "--simulate", "laptop,hdmi-tv-1080p"]

    @Test func aPdfinfoThatHangsIsGivenUpWithinItsTimeoutNamingTheDeck() throws {
        let dir = try Self.folder()
        try Self.stub("pdfinfo", in: dir, "edk-sleep 1000")
        let run = try Self.run(Self.talk + ["--keys", "next"], in: dir, environment: ["EXTDISPLAY_PDFINFO_TIMEOUT": "2"])
        #expect(run.status == 1 || run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("talk.pdf") && run.errors.contains("pdfinfo could not read within 2 s"), "\(run.errors)")
        #expect(run.seconds < 60, "took \(run.seconds) s")
        try Self.expectNothingLeft(run.mark)
    }

    /// Page labels are optional: a mutool that hangs (killed at its 1 s timeout) or prints without end (stopped
    /// at the 4 MiB cap) leaves the talk without labels, and it starts.
    @Test(arguments: [("edk-sleep 1000", "page labels were not read: mutool took over 1 s"),
                      ("exec yes 'trailer/Root/PageLabels <</Nums [0 <</S /D>>]>>'",
                       "page labels were not read: mutool printed over 4096 KiB")])
    func aMutoolThatHangsOrPrintsWithoutEndLeavesTheTalkWithoutLabels(stub: String, expected: String) throws {
        let dir = try Self.folder()
        try Self.stub("mutool", in: dir, stub)
        let run = try Self.run(Self.talk + ["--keys", "next"], in: dir, environment: ["EXTDISPLAY_MUTOOL_TIMEOUT": "1"])
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        #expect(run.output.contains("001 next: slide 2 of 3"), "\(run.output)")
        #expect(run.errors.contains(expected), "\(run.errors)")
        try Self.expectNothingLeft(run.mark)
    }

    @Test func aMissingPdftoppmIsSaidOnceWithWhatToInstall() throws {
        let dir = try Self.folder()
        // A PATH with pdfinfo and mutool but no pdftoppm.
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for tool in ["pdfinfo", "mutool"] {
            try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent(tool).path, withDestinationPath: "/usr/bin/\(tool)")
        }
        let run = try Self.run(Self.talk + ["--keys", "next,next"], in: dir, path: bin.path)
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        let said = run.errors.components(separatedBy: "pdftoppm is missing; install poppler-utils").count - 1
        #expect(said == 1, "said \(said) times: \(run.errors)")
        #expect(run.errors.contains("talk.pdf: pages are not shown"), "\(run.errors)")
        try Self.expectNothingLeft(run.mark)
    }

    @Test func aFailingPdftoppmIsSaidWithItsMessageOncePerPage() throws {
        let dir = try Self.folder()
        try Self.stub("pdftoppm", in: dir, "echo 'Syntax Error: edk broken stream' >&2\nexit 1")
        let run = try Self.run(Self.talk + ["--keys", "next,previous,next"], in: dir)
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("talk.pdf: page 1 is not shown: pdftoppm failed (Syntax Error: edk broken stream)"), "\(run.errors)")
        let said = run.errors.components(separatedBy: "page 1 is not shown").count - 1
        #expect(said == 1, "page 1 reported \(said) times: \(run.errors)")
        try Self.expectNothingLeft(run.mark)
    }

    @Test func aTinyPDFWhosePagesTakeMinutesStartsAndEachRenderIsKilledAtItsTimeout() throws {
        let data = MiniPDF.nestedForms()
        #expect(data.count < 5_000)
        let dir = try Self.folder(pdf: data)
        let run = try Self.run(Self.talk + ["--keys", "next"], in: dir, environment: ["EXTDISPLAY_PDFTOPPM_TIMEOUT": "2"])
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        #expect(run.output.contains("001 next: slide 2 of 3"), "\(run.output)")
        #expect(run.errors.contains("page 1 is not shown: pdftoppm took over 2 s rendering it and was stopped"), "\(run.errors)")
        #expect(run.seconds < 90, "took \(run.seconds) s")
        try Self.expectNothingLeft(run.mark)
    }

    /// A pdftoppm on the PATH for pages rendered ahead: pages 1 and 2 (the ones the snapshots of slide 1 show,
    /// which the run waits for) fail at once; later pages (rendered ahead, in the background) run poppler's,
    /// logging to `dir/renders` when it starts (`start PID`), ends (`end PID`) or is stopped with SIGTERM
    /// (`term PID`, the timeout's first signal). A start with neither is a render that was killed outright
    /// (SIGKILL): what the cleanup at exit does to a render still running.
    static func renderAheadPdftoppm(in dir: URL) throws {
        let log = dir.appendingPathComponent("renders").path
        try stub("pdftoppm", in: dir, """
            first=; previous=
            for argument in "$@"; do [ "$previous" = -f ] && first=$argument; previous=$argument; done
            if [ -n "$first" ] && [ "$first" -le 2 ]; then
              echo 'edk: pages 1 and 2 are not rendered' >&2
              exit 1
            fi
            echo "start $$" >> '\(log)'
            trap 'echo "term $$" >> "\(log)"; exit 143' TERM
            /usr/bin/pdftoppm "$@" &
            wait $!
            status=$?
            echo "end $$" >> '\(log)'
            exit $status
            """)
    }

    /// The renders (by the wrapper's pid) `renderAheadPdftoppm` saw start but neither end nor stop at SIGTERM.
    static func rendersKilledOutright(in dir: URL) -> [String] {
        let lines = ((try? String(contentsOf: dir.appendingPathComponent("renders"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let started = lines.filter { $0.first == "start" }.compactMap { $0.last }
        let finished = Set(lines.filter { $0.first == "end" || $0.first == "term" }.compactMap { $0.last })
        return started.filter { !finished.contains($0) }
    }

    /// Quitting (Ctrl-Q; Q Q is tested live, in XorgHostileRenderTests, and quits headless too, a step taking 1/60 s)
    /// while pages render ahead in the background, each taking pdftoppm minutes: the run ends, and no
    /// pdftoppm is left. The precondition is checked: a render was running when it quit.
    @Test func quittingWhilePagesRenderAheadLeavesNoPdftoppmRunning() throws {
        let dir = try Self.folder(pdf: MiniPDF.nestedForms(pages: 6))
        try Self.renderAheadPdftoppm(in: dir)
        // Two steps before the quit give the renders ahead time to start (each step draws and writes snapshots).
        let run = try Self.run(Self.talk + ["--keys", "p,p,quit", "--snapshot", dir.appendingPathComponent("shots").path],
                               in: dir, environment: ["EXTDISPLAY_PDFTOPPM_TIMEOUT": "600"])
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        #expect(run.output.contains("quit after step 3"), "\(run.output)")
        // A pdftoppm of ours was running when it quit: killed at exit, neither finished nor stopped at a timeout.
        let renders = (try? String(contentsOf: dir.appendingPathComponent("renders"), encoding: .utf8)) ?? ""
        #expect(!Self.rendersKilledOutright(in: dir).isEmpty, "no render was running at the quit: \(renders)")
        try Self.expectNothingLeft(run.mark)
    }

    /// The overview of a 100,000-page PDF: 422 columns of 1-pixel tiles, each rendered by pdftoppm, took
    /// 231 s in a debug build; tiles too small to show a page are drawn plain (2.3 s). Not a speed test (the
    /// figures are in the README): the issue's bound, 60 s, holds for the CPU seconds the run and its tools use
    /// (17 s of wall-clock time were 3.6 s of CPU on a 2-core machine loaded 7 times over), and a 120 s
    /// wall-clock guard catches a hang. The console's snapshot shows the grid.
    @Test func theOverviewOfAHundredThousandPagePDFOpensWithinTheGuard() throws {
        let dir = try Self.folder(pdf: MiniPDF.manyPages(100_000))
        let shots = dir.appendingPathComponent("shots")
        let run = try Self.run(Self.talk + ["--keys", "tab", "--snapshot", shots.path], in: dir, measuringCPU: true)
        #expect(run.status == 0, "status \(run.status) (137: killed by the 120 s guard): \(run.errors.suffix(500))")
        #expect(run.cpuSeconds.map { $0 < 60 } == true, "CPU seconds: \(String(describing: run.cpuSeconds)) (bound: 60)")
        #expect(run.output.contains("001 overview"), "\(run.output.suffix(500))")
        try Self.expectOverview(before: shots.appendingPathComponent("000-start-console.png"),
                                after: shots.appendingPathComponent("001-overview-console.png"))
        try Self.expectNothingLeft(run.mark)
    }

    /// Pixels of each colour (`"RRGGBB"`) inside `region` (`"X,Y,W,H"`) of a PNG, counted by
    /// scripts/present-pngscan.py (independent of the presenter's drawing code); throws when it fails.
    static func count(_ colours: [String], in region: String, of png: URL) throws -> [Int] {
        let result = try Shell.run(["python3", Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                    "--region", region, png.path] + colours)
        let counts = result.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard result.status == 0, counts.count == colours.count else {
            throw XorgTestError("present-pngscan.py --region \(region) \(png.path) failed (status \(result.status)): \(result.output)")
        }
        return counts
    }

    /// The console of `after` shows the overview of the many-page PDF, `before` its slides: before, the pages
    /// (0.2, 0.4, 0.8 blue) fill the slide boxes and the grid area has no letterbox black; after, no page is
    /// drawn, the grid's plain 1-pixel tiles (letterbox black) fill the area and the chosen tile is marked in the
    /// accent colour.
    static func expectOverview(before: URL, after: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let theme = PresenterTheme()
        let colours = ["3366cc", String(theme.letterbox.description.dropFirst()), String(theme.accent.description.dropFirst())]
        // The console's body: under the title, above the display lines and the key help.
        let grid = "0,80,1920,820"
        let start = try count(colours, in: grid, of: before), overview = try count(colours, in: grid, of: after)
        #expect(start[0] > 100_000 && start[1] < 100, "no slides before the overview: \(start)", sourceLocation: sourceLocation)
        #expect(overview[0] == 0, "pages drawn in the overview: \(overview)", sourceLocation: sourceLocation)
        #expect(overview[1] > 1_000, "no grid of tiles in the overview: \(overview)", sourceLocation: sourceLocation)
        #expect(overview[2] > 0, "the chosen tile is not marked: \(overview)", sourceLocation: sourceLocation)
    }

    /// SIGTERM, SIGINT, SIGHUP and SIGQUIT while pdftoppm renders a page that takes it minutes: the presenter
    /// ends by the signal and no tool of it is left.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
    func aSignalWhileAPageRendersLeavesNoPdftoppmRunning(signal: Int32) throws {
        let dir = try Self.folder(pdf: MiniPDF.nestedForms())
        let mark = ProcessMark()
        let talk = Self.talk.map { $0 == "talk.pdf" ? dir.appendingPathComponent("talk.pdf").path : $0 }
        let process = try SignalledProcess([try Repository.extdisplay().path] + talk
                                           + ["--keys", "next", "--snapshot", dir.appendingPathComponent("snapshots").path],
                                           environment: ["DISPLAY": "", "EXTDISPLAY_PDFTOPPM_TIMEOUT": "600"]
                                               .merging(mark.environment) { $1 })
        let render = try mark.waitFor(timeout: 60) { $0.name == "pdftoppm" }
        #expect(render != nil, "no render started: \(process.standardError)")
        process.send(signal)
        let status = process.exitStatus(timeout: 30)
        #expect(status == 128 + signal, "signal \(signal): status \(String(describing: status)): \(process.standardError)")
        try Self.expectNothingLeft(mark)
    }

    /// A pdftoppm that ignores SIGTERM (and whose child does too) is killed with SIGKILL after the grace: the
    /// page is reported as stopped at its timeout, and nothing of the tool is left.
    @Test func aPdftoppmIgnoringSIGTERMIsKilledAtItsTimeoutWithItsChild() throws {
        let dir = try Self.folder()
        try Self.stub("pdftoppm", in: dir, "trap '' TERM\nedk-sleep 1000 &\nedk-sleep 1000")
        let run = try Self.run(Self.talk + ["--keys", "next"], in: dir, environment: ["EXTDISPLAY_PDFTOPPM_TIMEOUT": "1"])
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("page 1 is not shown: pdftoppm took over 1 s rendering it and was stopped"), "\(run.errors)")
        try Self.expectNothingLeft(run.mark)
    }

    /// The check all the tests above rely on can fail: a `sleep` left behind with the mark (its command line
    /// naming no folder of the test) is found, and one without it is not.
    @Test func theLeftoverCheckFindsAMarkedSleepLeftBehind() throws {
        let mark = ProcessMark(), other = ProcessMark()
        // The shell exits at once; its sleep is left to run on (reparented).
        let started = try Shell.run(["sh", "-c", "sleep 1000 >/dev/null 2>&1 &"], environment: mark.environment)
        #expect(started.status == 0)
        // The shell has forked the sleep, which may still be inside execve: its environment reads as gone then
        // (seen once in CI), so wait until it runs as `sleep`.
        #expect(try mark.waitFor(timeout: 10) { $0.name == "sleep" } != nil, "the marked sleep never showed")
        let found = try mark.leftovers(timeout: 1)
        #expect(found.count == 1 && found.first?.name == "sleep" && found.first?.commandLine == "sleep 1000", "found: \(found)")
        #expect(try other.processes().isEmpty)
        // leftovers(timeout:) killed what it found.
        #expect(try mark.leftovers().isEmpty, "the leftover was not killed")
    }
}
#endif

#if canImport(CSDL2)
/// Arguments and records a careless user or a crash leaves: `--cache-mb abc` exits 2 (not ArgumentParser's 64),
/// and `restore` with a truncated record reports it and keeps it.
@Suite("Hostile arguments and records")
struct HostileArgumentTests {
    @Test(arguments: ["abc", "1.5", "1e3", "", "99999999999999999999999"])
    func aCacheSizeThatIsNotAWholeNumberExits2WithTheRange(value: String) throws {
        let dir = try HostileToolTests.folder()
        let run = try HostileToolTests.run(HostileToolTests.talk + ["--cache-mb", value, "--keys", "next"], in: dir)
        #expect(run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("--cache-mb '\(value)' is not a whole number of megabytes; accepted: 16…16384"), "\(run.errors)")
        #expect(PageCacheSize.bytes(argument: "512") == .success(512 << 20))
    }

    @Test func restoreWithATruncatedRecordReportsItAndKeepsIt() throws {
        let dir = try HostileToolTests.folder()
        let state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let record = state.appendingPathComponent("modes-_97.json")
        let truncated = #"{"display":":97","entries":[{"height":768,"mode":71,"output":"DUMMY1","outputID":"#
        try Data(truncated.utf8).write(to: record)
        let run = try HostileToolTests.run(["restore", "--display", ":97", "--backend", "x11"], in: dir,
                                           environment: ["EXTDISPLAY_STATE_DIR": state.path])
        #expect(run.status == 1, "status \(run.status): \(run.output) \(run.errors)")
        let said = run.output + run.errors
        #expect(said.contains("the mode record \(record.path) is damaged"), "\(said)")
        #expect(!said.contains("nothing to restore"), "\(said)")
        #expect(FileManager.default.fileExists(atPath: record.path), "the damaged record was removed")
    }
}
#endif
