#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Hostile PDFs and misbehaving tools (issue #24), through `extdisplay present` run headless: tools that hang,
/// print without end, are missing or fail; a tiny PDF whose pages take pdftoppm minutes; SIGTERM and quitting
/// while such pages render. Each run is bounded by a generous hang guard, and afterwards no process of ours
/// (found by the test folder in its command line) runs on.
///
/// Stub tools are shell scripts in a folder put first on the PATH of the `extdisplay` run; they sleep with a
/// copy of `sleep` in that folder, so that every process they leave is found by its path.
@Suite("Hostile PDFs and misbehaving tools", .serialized)
struct HostileToolTests {
    /// A run's exit status, output, errors and wall-clock seconds.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var seconds: Double
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

    /// Runs `extdisplay ARGUMENTS` in `dir` under a 120 s hang guard, with `dir/stubs` first on the PATH (or
    /// `path` as the whole PATH) and `environment` added.
    static func run(_ arguments: [String], in dir: URL, path: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let out = dir.appendingPathComponent("stdout"), err = dir.appendingPathComponent("stderr")
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let searchPath = path ?? dir.appendingPathComponent("stubs").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let variables = (["PATH": searchPath, "DISPLAY": ""].merging(environment) { $1 })
            .map { quote("\($0.key)=\($0.value)") }.sorted()
        let command = ([try Shell.extdisplay()] + arguments).map(quote)
        let script = "cd \(quote(dir.path)) && exec timeout -s KILL 120 env \(variables.joined(separator: " ")) "
            + "\(command.joined(separator: " ")) >\(quote(out.path)) 2>\(quote(err.path))"
        let start = Date()
        let status = try Shell.run(["sh", "-c", script]).status
        return Run(status: status, output: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                   errors: (try? String(contentsOf: err, encoding: .utf8)) ?? "", seconds: Date().timeIntervalSince(start))
    }

    /// The processes whose command line mentions `dir` (stub tools, their sleeps, pdftoppm on the folder's PDF),
    /// after giving killed ones a moment to go.
    static func leftovers(_ dir: URL) -> [String] {
        var found: [String] = []
        _ = poll(5) {
            found = (try? Shell.run(["pgrep", "-a", "-f", dir.path]).output)?
                .split(separator: "\n").map(String.init).filter { !$0.contains("pgrep") } ?? []
            return found.isEmpty
        }
        return found
    }

    static let talk = ["present", "talk.pdf", "--simulate", "laptop,hdmi-tv-1080p"]

    @Test func aPdfinfoThatHangsIsGivenUpWithinItsTimeoutNamingTheDeck() throws {
        let dir = try Self.folder()
        try Self.stub("pdfinfo", in: dir, "edk-sleep 1000")
        let run = try Self.run(Self.talk + ["--keys", "next"], in: dir, environment: ["EXTDISPLAY_PDFINFO_TIMEOUT": "2"])
        #expect(run.status == 1 || run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("talk.pdf") && run.errors.contains("pdfinfo could not read within 2 s"), "\(run.errors)")
        #expect(run.seconds < 60, "took \(run.seconds) s")
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
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
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
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
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
    }

    @Test func aFailingPdftoppmIsSaidWithItsMessageOncePerPage() throws {
        let dir = try Self.folder()
        try Self.stub("pdftoppm", in: dir, "echo 'Syntax Error: edk broken stream' >&2\nexit 1")
        let run = try Self.run(Self.talk + ["--keys", "next,previous,next"], in: dir)
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("talk.pdf: page 1 is not shown: pdftoppm failed (Syntax Error: edk broken stream)"), "\(run.errors)")
        let said = run.errors.components(separatedBy: "page 1 is not shown").count - 1
        #expect(said == 1, "page 1 reported \(said) times: \(run.errors)")
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
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
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
    }

    @Test func quittingWhilePagesRenderAheadLeavesNoPdftoppmRunning() throws {
        // The console's page is given up after 2 s; the pages rendered ahead in the background are still
        // rendering when the keys end (q q) and the process exits.
        let dir = try Self.folder(pdf: MiniPDF.nestedForms(pages: 6))
        let run = try Self.run(Self.talk + ["--keys", "q,q"], in: dir, environment: ["EXTDISPLAY_PDFTOPPM_TIMEOUT": "2"])
        #expect(run.status == 0, "status \(run.status): \(run.errors)")
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
    }

    /// The overview of a 100,000-page PDF: 422 columns of 1-pixel tiles, each rendered by pdftoppm, took
    /// 231 s in a debug build; tiles too small to show a page are drawn plain (2.3 s). A hang guard, not a
    /// speed test: the figures are in the README.
    @Test func theOverviewOfAHundredThousandPagePDFOpensWithinTheGuard() throws {
        let dir = try Self.folder(pdf: MiniPDF.manyPages(100_000))
        let run = try Self.run(Self.talk + ["--keys", "tab"], in: dir)
        #expect(run.status == 0, "status \(run.status) (137: killed by the 120 s guard): \(run.errors.suffix(500))")
        #expect(run.output.contains("001 overview"), "\(run.output.suffix(500))")
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
    }

    @Test func sigtermWhileAPageRendersLeavesNoPdftoppmRunning() throws {
        let dir = try Self.folder(pdf: MiniPDF.nestedForms())
        let talk = Self.talk.map { $0 == "talk.pdf" ? dir.appendingPathComponent("talk.pdf").path : $0 }
        let process = try SignalledProcess([try Shell.extdisplay()] + talk
                                           + ["--keys", "next", "--snapshot", dir.appendingPathComponent("snapshots").path],
                                           environment: ["DISPLAY": "", "EXTDISPLAY_PDFTOPPM_TIMEOUT": "600"])
        #expect(poll(30) { (try? Shell.run(["pgrep", "-f", "pdftoppm.*\(dir.path)"]).status) == 0 }, "no render started")
        process.send(SIGTERM)
        let status = process.exitStatus(timeout: 30)
        #expect(status == 128 + SIGTERM, "status \(String(describing: status)): \(process.standardError)")
        #expect(Self.leftovers(dir).isEmpty, "left running: \(Self.leftovers(dir))")
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
