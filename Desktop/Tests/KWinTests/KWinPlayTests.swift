import Foundation
import Testing

/// `extdisplay play` on a real headless KWin (KDE's compositor), one smoke case: the film (a clip the test makes,
/// one colour a second) fullscreen on Virtual-1 by KWin's own account, its seconds in order at the output's
/// centre in KWin's screenshots; the controls fullscreen on Virtual-0 with the focus; Q Q typed through KDE's
/// fake-input protocol quits with status 0. Unplugging is tested under sway (`SwayTests.PlayWaylandTests`).
@Suite("extdisplay play on KDE (headless KWin)", .serialized)
struct KWinPlayTests {
    @Test func theFilmPlaysFullscreenOnVirtual1AndTheControlsOnVirtual0() throws {
        let clip = try TestClip.make(fps: 30)
        let kwin = try KWinCompositor(outputs: 2, size: "1280x720")
        defer { kwin.stop() }
        let player = try ChildProcess(try Repository.extdisplay().path, ["play", clip.url.path, "--display", "Virtual-1"],
                                      environment: kwin.environment)
        defer {
            player.signal(SIGKILL)
            _ = player.exitStatus(timeout: 10)
        }
        var seen: [Int] = []
        // KWinCompositor returns once org.kde.KWin.ScreenShot2 is on the bus: every capture must work.
        try poll(40, every: 0, stop: { player.hasEnded }) {
            let (r, g, b) = try PNGPixel.at(try kwin.screenshot("Virtual-1"), x: 640, y: 360)
            if let index = TestClip.palette.firstIndex(where: { TestClip.matches(r, g, b, $0) }), seen.last != index {
                seen.append(index)
            }
            return seen.count >= 2
        }
        #expect(seen.count >= 2, "colours seen on Virtual-1: \(seen); \(player.stdout) \(player.stderr)")
        #expect(seen == seen.sorted(), "the seconds in order: \(seen)")
        let windows = try kwin.windows()
        let film = windows.filter { $0.caption.contains("Virtual-1") }
        let controls = windows.filter { $0.caption.contains("extdisplay play: clip") }
        #expect(film.map { [$0.x, $0.y, $0.width, $0.height] } == [[1280, 0, 1280, 720]] && film.first?.fullScreen == true,
                "the film is not fullscreen on Virtual-1: \(windows)")
        #expect(controls.map { [$0.x, $0.y, $0.width, $0.height] } == [[0, 0, 1280, 720]] && controls.first?.active == true,
                "the controls are not on Virtual-0 with the focus: \(windows)")

        // Q twice (one Q only asks), typed in one call: as in `present`.
        try kwin.type(.q, .q)
        #expect(player.exitStatus(timeout: 20) == 0, "\(player.stderr)")
    }
}
