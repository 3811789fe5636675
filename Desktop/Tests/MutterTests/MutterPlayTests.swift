import Foundation
import Testing

/// `extdisplay play` on a real headless Mutter (GNOME's compositor), one smoke case: the film (a clip the test
/// makes, one colour a second) plays on Meta-1, read from Mutter's own screenshots at the output's centre, its
/// seconds in order; the controls on Meta-0 (the primary monitor) do not show it; Q typed through Mutter's
/// RemoteDesktop API quits with status 0. Unplugging is tested under sway (`SwayTests.PlayWaylandTests`).
@Suite("extdisplay play on GNOME (headless Mutter)", .serialized)
struct MutterPlayTests {
    @Test func theFilmPlaysOnMeta1AndTheControlsOnMeta0() throws {
        let clip = try TestClip.make(fps: 30)
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        let keyboard = try MutterRemoteKeyboard(busAddress: mutter.busAddress)
        defer { keyboard.close() }
        let player = try ChildProcess(try Repository.extdisplay().path, ["play", clip.url.path, "--display", "Meta-1"],
                                      environment: mutter.environment)
        defer {
            player.signal(SIGKILL)
            _ = player.exitStatus(timeout: 10)
        }
        var seen: [Int] = []
        try poll(40, every: 0, stop: { player.hasEnded }) {
            let (r, g, b) = try PNGPixel.at(try mutter.screenshot("Meta-1"), x: 640, y: 360)
            if let index = TestClip.palette.firstIndex(where: { TestClip.matches(r, g, b, $0) }), seen.last != index {
                seen.append(index)
            }
            return seen.count >= 2
        }
        #expect(seen.count >= 2, "colours seen on Meta-1: \(seen); \(player.stdout) \(player.stderr)")
        #expect(seen == seen.sorted(), "the seconds in order: \(seen)")
        // The controls window's video area (1920×1080: margin h/30, area 6/10 of the height) shows no film.
        let (r, g, b) = try PNGPixel.at(try mutter.screenshot("Meta-0"), x: 960, y: 1080 / 30 + 1080 * 3 / 10)
        #expect(!TestClip.palette.contains { TestClip.matches(r, g, b, $0) }, "the film on Meta-0: \(r),\(g),\(b)")
        #expect(player.stdout.contains("outputs: main Meta-0, external Meta-1"), "\(player.stdout)")

        // Q twice within 2 s quits (one Q only asks), as in `present`.
        try keyboard.type(.q)
        try keyboard.type(.q)
        #expect(player.exitStatus(timeout: 20) == 0, "\(player.stderr)")
    }
}
