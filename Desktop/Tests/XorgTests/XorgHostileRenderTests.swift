#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A PDF whose page takes pdftoppm minutes, presented live on Xorg-dummy with a projector (DUMMY1): the console
/// still answers keys while the page renders, SIGTERM during the render brings the projector's mode back (read
/// from xrandr), and Q Q during the render quits; no tool is left either way (found by the run's ``ProcessMark``
/// in `/proc/*/environ`). Part of the serialized Xorg suite: one X server at a time.
extension XorgPresenterTests {
    @Test func whilePdftoppmTakesMinutesTheConsoleAnswersKeysAndSIGTERMBringsTheModeBack() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let before = try server.currentModes()
        #expect(before.contains { $0.hasPrefix("DUMMY1 1280x720") }, "modes at start: \(before)")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let pdf = try MiniPDF.write(MiniPDF.nestedForms(), name: "slow.pdf")
        let mark = ProcessMark()
        // The watchdog off: only the presenter's own restoring is observed; a render never stopped by its timeout.
        let presenter = try SignalledProcess(
            [try Repository.extdisplay().path, "present", pdf.path, "--mode", "1024x768"],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11", "EXTDISPLAY_STATE_DIR": state.path,
                          "EXTDISPLAY_WATCHDOG": "0", "EXTDISPLAY_PDFTOPPM_TIMEOUT": "600"].merging(mark.environment) { $1 })
        defer { _ = try? mark.leftovers(timeout: 0) }
        #expect(presenter.waitForLine(timeout: 30) { $0.contains("external: DUMMY1") }, "stderr: \(presenter.standardError)")
        #expect(try poll(15) { try server.currentModes().contains { $0.hasPrefix("DUMMY1 1024x768") } },
                "the presenter did not switch DUMMY1: \((try? server.currentModes()) ?? [])")
        try server.waitForWindow("extdisplay present: console")
        let render = try mark.waitFor(timeout: 60) { $0.name == "pdftoppm" }
        #expect(render != nil, "no pdftoppm of the presenter's is running; stderr: \(presenter.standardError)")

        // B blanks the projector: the status line says so within 10 s, and the projector turns black.
        try server.key("b")
        #expect(presenter.waitForLine(timeout: 10) { $0.contains(", blackout") },
                "B was not answered within 10 s; output: \(presenter.standardOutput.suffix(500))")
        let projector = "1920,0,1024,768", black = RGBA(0, 0, 0)
        let shot = try server.screenshot(timeout: 10) { try Self.scan($0, region: projector, black) > 1024 * 768 * 9 / 10 }
        #expect(try Self.scan(shot, region: projector, black) > 1024 * 768 * 9 / 10, "the projector is not blanked")
        // The page is still being rendered: the SIGTERM below comes during the render.
        let rendering = try mark.processes().filter { $0.name == "pdftoppm" }
        #expect(!rendering.isEmpty, "the render ended before SIGTERM")

        presenter.send(SIGTERM)
        let status = presenter.exitStatus(timeout: 30)
        // SIGTERM ends the talk like Q (status 0), render or not.
        #expect(status == 0, "status \(String(describing: status)); stderr: \(presenter.standardError)")
        #expect(try poll(10) { try server.currentModes() == before },
                "the mode did not come back after SIGTERM: \((try? server.currentModes()) ?? []) (before: \(before))")
        let left = try mark.leftovers()
        #expect(left.isEmpty, "left running: \(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty, "mode record left behind")
    }

    @Test func qQWhilePdftoppmRendersAPageQuitsAndLeavesNoTool() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let pdf = try MiniPDF.write(MiniPDF.nestedForms(), name: "slow.pdf")
        let mark = ProcessMark()
        let presenter = try SignalledProcess(
            [try Repository.extdisplay().path, "present", pdf.path],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11", "EXTDISPLAY_PDFTOPPM_TIMEOUT": "600"]
                .merging(mark.environment) { $1 })
        defer { _ = try? mark.leftovers(timeout: 0) }
        try server.waitForWindow("extdisplay present: console")
        #expect(presenter.waitForLine(timeout: 30) { $0.hasPrefix("slide 1 of 3") }, "stderr: \(presenter.standardError)")
        // The precondition: a pdftoppm of ours is rendering (a page that takes it minutes, its timeout 600 s)
        // when Q Q is pressed.
        let render = try mark.waitFor(timeout: 60) { $0.name == "pdftoppm" }
        #expect(render != nil, "no pdftoppm of the presenter's is running; stderr: \(presenter.standardError)")
        try server.keys("q", "q")
        let status = presenter.exitStatus(timeout: 30)
        #expect(status == 0, "Q Q: status \(String(describing: status)); stderr: \(presenter.standardError)")
        let left = try mark.leftovers()
        #expect(left.isEmpty, "left running: \(left)")
    }
}
#endif
