#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The desktop's mode default on a real X server: a projector the desktop set to 3840×2160@30 (not its
/// preferred 1280×720) keeps that mode through a talk started without `--mode` — read from xrandr while the
/// audience sees the slide and after the talk — and nothing is recorded for restoring; `--mode preferred`
/// still switches, and puts the desktop's mode back at the end. Part of the serialized Xorg suite.
extension XorgPresenterTests {
    @Test func withoutModeAProjectorKeepsTheModeTheDesktopSet() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        try server.setUHD("DUMMY1", rate: 30)
        let before = try server.currentModes()
        #expect(before.contains { $0.hasPrefix("DUMMY1 3840x2160+1920+0 30") }, "the desktop's mode: \(before)")
        let state = try stateFolder()
        let presenter = try ChildProcess(
            [try Self.extdisplay, "present", try Self.writeDeck().path],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11", "EXTDISPLAY_STATE_DIR": state.path])
        #expect(poll(20) { presenter.lines.contains { $0.contains("external: DUMMY1") } }, "stderr: \(presenter.stderr)")
        try server.waitForWindow(XorgServer.audienceWindow)
        // The audience sees the slide across the whole 4K output (a patch in its middle and near its far corner).
        let slide = PresenterTheme().slideBackground
        let shot = try server.screenshot { try Self.scan($0, region: "5400,1900,300,200", slide) > 50_000 }
        defer { try? FileManager.default.removeItem(at: shot) }
        #expect(try Self.scan(shot, region: "5400,1900,300,200", slide) > 50_000, "no slide at the 4K output's far corner")
        #expect(try server.currentModes() == before, "the presenter switched a mode it was not asked to")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty,
                "a mode was recorded for restoring although none was switched")
        try server.key("ctrl+q")
        #expect(presenter.exitStatus(timeout: 10) == 0)
        #expect(try server.currentModes() == before)

        // Asked for, the preferred mode is used, and the desktop's 4K mode comes back at the end.
        let switching = try ChildProcess(
            [try Self.extdisplay, "present", try Self.writeDeck().path, "--mode", "preferred"],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11", "EXTDISPLAY_STATE_DIR": state.path])
        #expect(try waitForMode(server, "DUMMY1", "1280x720"), "--mode preferred did not switch DUMMY1")
        try server.waitForWindow(XorgServer.audienceWindow)
        try server.key("ctrl+q")
        #expect(switching.exitStatus(timeout: 10) == 0)
        #expect(try poll(10) { try server.currentModes() == before }, "\((try? server.currentModes()) ?? [])")
    }
}

extension XorgServer {
    /// Gives `output` a 3840×2160 mode at `rate` Hz (30 or 60, CEA timings) and switches it on right of DUMMY0,
    /// as a desktop's display settings would: the dummy driver does not offer 4K by itself.
    func setUHD(_ output: String, rate: Int) throws {
        let name = "3840x2160_\(rate)"
        let clock = rate == 60 ? "594.00" : "297.00"
        // Another test on this server may have made the mode already.
        if !(try xrandr([])).contains(name) {
            try xrandr(["--newmode", name, clock, "3840", "4016", "4104", "4400", "2160", "2168", "2178", "2250",
                        "+hsync", "+vsync"])
        }
        try xrandr(["--addmode", output, name])
        try xrandr(["--output", output, "--mode", name, "--right-of", "DUMMY0"])
    }
}
#endif
