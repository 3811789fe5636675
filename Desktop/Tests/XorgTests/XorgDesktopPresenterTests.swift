#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// `extdisplay present` on the RandR desktop platform under Xorg-dummy: unplug and replug keep the talk, modes
/// changed for the talk are restored. Part of the
/// same serialized suite: one X server at a time.
extension XorgPresenterTests {
    @Test func unplugAndReplugKeepSlideIndexTimerAndShowTheSlideAgain() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try launch(server)
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.contains("external: DUMMY1") } != nil)
        try server.waitForWindow("extdisplay present: console")
        try server.key("Right")
        try server.key("p")
        let paused = try #require(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") && $0.contains("(paused)") })
        let timer = paused.components(separatedBy: ", ")[1]
        try server.xrandr(["--output", "DUMMY1", "--off"])
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3, \(timer)") && $0.hasSuffix("external: none") } != nil,
                "lines: \(presenter.lines)")
        usleep(1_200_000)  // time passes while unplugged: a paused timer must not move
        try server.xrandr(["--output", "DUMMY1", "--mode", "1280x720", "--right-of", "DUMMY0"])
        #expect(presenter.waitForLine { $0 == "slide 2 of 3, \(timer), external: DUMMY1" } != nil,
                "lines: \(presenter.lines)")
        let slide = PresenterTheme().slideBackground
        let shot = try server.screenshot { try XorgPresenterTests.scan($0, region: "1920,0,1280,720", slide) > 100_000 }
        #expect(try XorgPresenterTests.scan(shot, region: "1920,0,1280,720", slide) > 100_000)
        #expect(try XorgPresenterTests.scan(shot, region: "1920,0,1280,720", PresenterTheme().notes) == 0)
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    @Test func modesSetForTheTalkAreRestoredOnQuitAndOnSIGTERM() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let before = try server.currentModes()
        for ending in ["q", "SIGTERM"] {
            let presenter = try launch(server, ["--mode", "1024x768"])
            defer { presenter.terminate() }
            #expect(presenter.waitForLine { $0.contains("external: DUMMY1") } != nil)
            try server.waitForWindow(XorgServer.audienceWindow)
            #expect(try server.currentModes().contains { $0.hasPrefix("DUMMY1 1024x768") }, "mode not switched")
            if ending == "q" { try server.key("ctrl+q") } else { presenter.terminate() }
            #expect(presenter.waitForExit(timeout: 30))
            // Poll (hang guard) for the modes to be back rather than sleeping a fixed time.
            let modes = try pollReading(30, every: 0.1, { try server.currentModes() }, until: { $0 == before })
            #expect(modes == before, "after \(ending)")
        }
    }
}
#endif
