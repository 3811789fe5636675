#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Headless runs of the command line: memory does not grow with the number of steps, and no display name
/// overwrites the console's snapshots. Both failed before the headless runtime ran on the one loop (it kept
/// every snapshot's canvas, and named an external display `console` like the main display).
@Suite("Headless runs: memory and snapshot names", .serialized)
struct HeadlessRunLimitsTests {
    /// Runs `extdisplay present deck.md ARGUMENTS` headless in a fresh folder under a 120 s hang guard; returns
    /// the status, the snapshot files written and the peak resident memory in kilobytes (`/usr/bin/time`).
    static func present(_ arguments: [String]) throws -> (status: Int32, files: [String], peakKB: Int) {
        let dir = try HostileToolTests.folder()
        try "# One\n- a\n---\n# Two\n".write(to: dir.appendingPathComponent("deck.md"), atomically: true, encoding: .utf8)
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let rss = dir.appendingPathComponent("rss")
        let command = ([try Repository.extdisplay().path, "present", "deck.md", "--snapshot", "shots"] + arguments).map(quote)
        let script = "cd \(quote(dir.path)) && DISPLAY= exec timeout -s KILL 120 /usr/bin/time -f %M -o \(quote(rss.path)) "
            + "\(command.joined(separator: " ")) >/dev/null 2>&1"
        let status = try Shell.run(["sh", "-c", script]).status
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("shots").path)) ?? []
        let peak = Int(((try? String(contentsOf: rss, encoding: .utf8)) ?? "").split(separator: "\n").last ?? "") ?? 0
        return (status, files.sorted(), peak)
    }

    /// `--keys` with 120 steps kept every snapshot's canvas (a full-size picture each) until the run ended:
    /// 266 MB peak for 10 steps, 2.2 GB for 120 (laptop and TV). The command line's run keeps the PNG files,
    /// not the pixels.
    @Test func memoryDoesNotGrowWithTheNumberOfSteps() throws {
        let short = try Self.present(["--simulate", "laptop", "--keys", Array(repeating: "next,previous", count: 5).joined(separator: ",")])
        #expect(short.status == 0 && short.peakKB > 0)
        let long = try Self.present(["--simulate", "laptop", "--keys", Array(repeating: "next,previous", count: 60).joined(separator: ",")])
        #expect(long.status == 0)
        #expect(long.peakKB < short.peakKB + 150_000, "peak \(long.peakKB) KB after 120 steps, \(short.peakKB) KB after 10")
    }

    /// `plug:hdmi-tv-1080p:console` names a display `console`, the name the main display's snapshots use: both
    /// were written to `001-plug-console-console.png`, the second over the first. The display's snapshots are
    /// now `…-console-external.png`.
    @Test func aDisplayNamedConsoleKeepsBothSnapshotsOfItsStep() throws {
        let run = try Self.present(["--simulate", "laptop", "--keys", "plug:hdmi-tv-1080p:console"])
        #expect(run.status == 0)
        let step = run.files.filter { $0.hasPrefix("001-") }
        #expect(step.count == 2, "snapshots of step 1: \(step)")
    }
}
#endif
