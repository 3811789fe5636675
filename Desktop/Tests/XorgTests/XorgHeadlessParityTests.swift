import ExtDisplayTestSupport
import Foundation
import Testing

/// A headless snapshot is drawn by the code a live window uses: slide 2 of the same deck, drawn headless on the
/// simulator (`--simulate laptop,hdmi-monitor-1080p --mode 1280x720`, the sizes of DUMMY0 and DUMMY1) and shown live
/// on Xorg-dummy, compared pixel by pixel on a 16×9 grid by scripts/present-pngscan.py (its own PNG and XWD
/// readers). The audience view must be identical; on the console only the cells of what differs between a
/// simulated and a real run may differ: the timer and the wall clock (the headless step is 1/60 s of virtual time,
/// the live talk a few real seconds) and the lines that name the displays (simulated presets against RandR outputs).
extension XorgPresenterTests {
    @Test func aHeadlessSnapshotEqualsTheLiveWindowsOnXorg() throws {
        let deck = try Self.writeDeck()
        let folder = deck.deletingLastPathComponent().appendingPathComponent("snapshots")
        let headless = try Shell.run([try Repository.extdisplay().path, "present", deck.path, "--simulate", "laptop,hdmi-monitor-1080p",
                                      "--mode", "1280x720", "--snapshot", folder.path, "--keys", "right"],
                                     environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        try #require(headless.status == 0, "headless present failed: \(headless.output)")
        let audienceReference = folder.appendingPathComponent("001-next-hdmi-monitor-1080p.png")
        let consoleReference = folder.appendingPathComponent("001-next-console.png")

        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess([try Repository.extdisplay().path, "present", deck.path],
                                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("external: DUMMY1") } != nil,
                "lines: \(presenter.lines)")
        try server.waitForWindow(XorgServer.audienceWindow)
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
        let audience = "1920,0,1280,720", console = "0,0,1920,1080"
        // Only what a simulated run and a real one say differently may differ on the console: the wall clock (cell
        // 15,0), the timer (row 6, columns 0–2: 0:00 after a headless step, a second or two live) and the lines that
        // name the displays (rows 7–8, columns 0–8: "laptop" and "Full HD monitor" against "DUMMY0" and "DUMMY1").
        // Everything else — the current and next slides, the notes, the slide number, the key help — must be
        // pixel-identical.
        let allowed: Set<String> = Set(["15,0"] + (0...2).map { "\($0),6" } + (0...8).flatMap { ["\($0),7", "\($0),8"] })
        func unexpectedConsoleCells(_ shot: URL) throws -> [String] {
            let cells = try Self.compare(shot, console, consoleReference)
            return (cells == "same" ? [] : cells.split(separator: " ").map(String.init))
                .filter { !allowed.contains(String($0.split(separator: ":")[0])) }
        }
        // Both windows show slide 2 a frame or two after the status line, the room first and the console after it:
        // the screen is read until both agree with their snapshots (a hang guard of 30 s), and the last reading is
        // judged either way.
        let shot = try server.screenshot {
            try Self.compare($0, audience, audienceReference) == "same" && unexpectedConsoleCells($0).isEmpty
        }
        let audienceCells = try Self.compare(shot, audience, audienceReference)
        #expect(audienceCells == "same", "the audience view differs from the headless snapshot in cells \(audienceCells)")
        let consoleCells = try Self.compare(shot, console, consoleReference)
        print("console against its headless snapshot: \(consoleCells)")
        let unexpected = try unexpectedConsoleCells(shot)
        #expect(unexpected.isEmpty, "console cells that differ outside the clock, the timer and the display names: \(unexpected)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    /// scripts/present-pngscan.py --compare: "same", or the differing cells.
    static func compare(_ shot: URL, _ region: String, _ reference: URL) throws -> String {
        let result = try Shell.run(["python3", Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                    "--compare", region, shot.path, reference.path])
        guard result.status == 0 else {
            throw XorgTestError("present-pngscan.py --compare \(region) failed (status \(result.status)): \(result.output)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
