#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Headless runs (issue #24 rows whose fix belongs to the headless runtime, `Session/HeadlessPresenter.swift`,
/// rewritten by the runtime work): each is a real test of the fixed behaviour, wrapped in `withKnownIssue` until
/// that rewrite lands. Remove the wrapper then: the test must pass without it.
@Suite("Headless runs: known issues", .serialized)
struct HeadlessKnownIssueTests {
    /// Runs `extdisplay present deck.md ARGUMENTS` headless in a fresh folder under a 120 s hang guard; returns
    /// the status, the snapshot files written and the peak resident memory in kilobytes (`/usr/bin/time`).
    static func present(_ arguments: [String]) throws -> (status: Int32, files: [String], peakKB: Int) {
        let dir = try HostileToolTests.folder()
        try "# One\n- a\n---\n# Two\n".write(to: dir.appendingPathComponent("deck.md"), atomically: true, encoding: .utf8)
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let rss = dir.appendingPathComponent("rss")
        let command = ([try Shell.extdisplay(), "present", "deck.md", "--snapshot", "shots"] + arguments).map(quote)
        let script = "cd \(quote(dir.path)) && DISPLAY= exec timeout -s KILL 120 /usr/bin/time -f %M -o \(quote(rss.path)) "
            + "\(command.joined(separator: " ")) >/dev/null 2>&1"
        let status = try Shell.run(["sh", "-c", script]).status
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("shots").path)) ?? []
        let peak = Int(((try? String(contentsOf: rss, encoding: .utf8)) ?? "").split(separator: "\n").last ?? "") ?? 0
        return (status, files.sorted(), peak)
    }

    /// `--keys` with 120 steps keeps every snapshot's canvas (a full-size picture each) until the run ends:
    /// 266 MB peak for 10 steps, 2.2 GB for 120 (laptop and TV). Fixed when the headless runtime writes each
    /// snapshot and lets its canvas go (keeping the PNG's path, not the pixels).
    @Test func memoryDoesNotGrowWithTheNumberOfSteps() throws {
        let short = try Self.present(["--simulate", "laptop", "--keys", Array(repeating: "next,previous", count: 5).joined(separator: ",")])
        #expect(short.status == 0 && short.peakKB > 0)
        withKnownIssue("HeadlessPresenter keeps every Snapshot with its canvas (runtime rewrite)") {
            let long = try Self.present(["--simulate", "laptop", "--keys", Array(repeating: "next,previous", count: 60).joined(separator: ",")])
            #expect(long.status == 0)
            #expect(long.peakKB < short.peakKB + 150_000, "peak \(long.peakKB) KB after 120 steps, \(short.peakKB) KB after 10")
        }
    }

    /// `plug:hdmi-tv-1080p:console` names a display `console`, the name the main display's snapshots use: both
    /// are written to `001-plug-console-console.png`, the second over the first. Fixed when the headless runtime
    /// names snapshots so that no display id can collide with the console's (e.g. `main` reserved, or ids
    /// prefixed).
    @Test func aDisplayNamedConsoleKeepsBothSnapshotsOfItsStep() throws {
        let run = try Self.present(["--simulate", "laptop", "--keys", "plug:hdmi-tv-1080p:console"])
        #expect(run.status == 0)
        withKnownIssue("the console's snapshot name collides with a display id 'console' (runtime rewrite)") {
            let step = run.files.filter { $0.hasPrefix("001-") }
            #expect(step.count == 2, "snapshots of step 1: \(step)")
        }
    }
}
#endif
