#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Replug at 4K on a real X server: the 3840×2160 audience output switched off and on again, several times, the
/// way a desktop's settings (`xrandr --mode`) and a cable (`xrandr --auto`: the output's preferred mode) bring it
/// back, with and without `--mode 3840x2160`. Every time, the audience must show the current page again, read
/// from the screen. Part of the serialized Xorg suite.
extension XorgPresenterTests {
    @Test(arguments: [[], ["--mode", "3840x2160"]])
    func everyReplugAt4KBringsThePageBack(extra: [String]) throws {
        let pdf = try Self.colourDeck(pages: 6, name: "replug.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        try server.setUHD("DUMMY1", rate: 60)
        let presenter = try ChildProcess([try Self.extdisplay, "present", pdf.path] + extra,
                                         environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11",
                                                       "EXTDISPLAY_STATE_DIR": try stateFolder().path])
        #expect(poll(20) { presenter.lines.contains { $0.contains("external: DUMMY1") } }, "stderr: \(presenter.stderr)")
        try server.waitForWindow("extdisplay present: console")
        try server.key("Next")
        let page2 = Self.clickerColour(1)
        #expect(try poll(30) { Self.audience4KShows(try server.captureRoot(), page2) }, "page 2 never on the 4K audience")
        let ways: [[String]] = [["--mode", "3840x2160_60", "--right-of", "DUMMY0"], ["--auto", "--right-of", "DUMMY0"]]
        for cycle in 0..<4 {
            let seen = presenter.lines.count
            try server.xrandr(["--output", "DUMMY1", "--off"])
            #expect(poll(10) { presenter.lines.dropFirst(seen).contains { $0.hasSuffix("external: none") } },
                    "cycle \(cycle): the unplug was not seen; lines: \(presenter.lines.suffix(3))")
            try server.xrandr(["--output", "DUMMY1"] + ways[cycle % 2])
            // Whatever mode the output came back in (4K, or its preferred 1280×720 and then --mode's 4K), the
            // page fills it again.
            let back = try poll(20, every: 0.1) {
                guard let geometry = try server.outputGeometry("DUMMY1") else { return false }
                let image = try server.captureRoot()
                let points = [(0.2, 0.2), (0.5, 0.5), (0.8, 0.8)].map { fx, fy in
                    image.pixel(geometry[0] + Int(Double(geometry[2]) * fx), geometry[1] + Int(Double(geometry[3]) * fy))
                }
                return points.allSatisfy { abs($0.0 - Int(page2.r)) <= 2 && abs($0.1 - Int(page2.g)) <= 2 && abs($0.2 - Int(page2.b)) <= 2 }
            }
            let geometry = String(describing: try? server.outputGeometry("DUMMY1"))
            let way = ways[cycle % 2].joined(separator: " ")
            #expect(back, "cycle \(cycle) (\(way)), \(extra): the page did not come back; DUMMY1 \(geometry); lines: \(presenter.lines.suffix(3)); stderr: \(presenter.stderr.suffix(400))")
            if !back { break }
        }
        try server.key("ctrl+q")
        #expect(presenter.exitStatus(timeout: 10) == 0)
    }
}
#endif
