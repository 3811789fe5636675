import Foundation
import Testing

/// `extdisplay watch` on a real headless KWin: an output switched off through `kde_output_management_v2` (as
/// Plasma's display settings do: its `wl_output` goes away) is a disconnect, switched on again a connect at its
/// place; `wayland-info` (libwayland's own client) is read first to know KWin has done it.
@Suite("extdisplay watch on KDE (headless KWin)", .serialized)
struct KWinWatchTests {
    @Test("watch --json: Virtual-1 switched off is a disconnect, switched on again a connect at (1024,0)")
    func offAndOn() throws {
        let kwin = try KWinCompositor(outputs: 2)
        defer { kwin.stop() }
        let watch = try ChildProcess(try Repository.extdisplay().path, ["watch", "--json"], environment: kwin.environment)
        defer { watch.signal(SIGTERM); _ = watch.wait() }
        #expect(poll { watch.stderr.contains("Ctrl-C to stop") || watch.hasEnded }, "stderr: \(watch.stderr)")
        #expect(!watch.hasEnded, "stderr: \(watch.stderr)")

        try kwin.setOutput("Virtual-1", enabled: false)
        #expect(try poll { try kwin.outputs().map(\.name) == ["Virtual-0"] })
        #expect(watch.awaitWatchEvent("disconnect", output: "Virtual-1"), "\(watch.stdout) \(watch.stderr)")
        #expect(!watch.watchEvents.contains { $0["event"] as? String == "disconnect"
            && ($0["display"] as? [String: Any])?["id"] as? String == "Virtual-0" }, "\(watch.stdout)")

        try kwin.setOutput("Virtual-1", enabled: true)
        #expect(try poll { try kwin.outputs().count == 2 })
        #expect(watch.awaitWatchEvent("connect", output: "Virtual-1"), "\(watch.stdout) \(watch.stderr)")
        let connect = watch.watchEvents.last { $0["event"] as? String == "connect" }
        let display = connect?["display"] as? [String: Any]
        #expect(display?["position"] as? [String: Int] == ["x": 1024, "y": 0], "\(String(describing: connect))")
        #expect((display?["currentMode"] as? [String: Any])?["width"] as? Int == 1024)
        #expect(!watch.hasEnded, "stderr: \(watch.stderr)")
    }
}
