import Foundation
import Testing

/// `extdisplay watch` on a real headless Mutter: a monitor switched off in the layout (as GNOME's display settings
/// do: its `wl_output` goes away) is a disconnect, switched on again a connect; `--set-mode` with a mode Mutter
/// does not offer is refused with the reason and the mode stays. Mutter's own account (`busctl`) is read first.
@Suite("extdisplay watch on GNOME (headless Mutter)", .serialized)
struct MutterWatchTests {
    private func startWatch(_ mutter: MutterCompositor, _ arguments: [String]) throws -> ChildProcess {
        let watch = try ChildProcess(try Repository.extdisplay().path, ["watch"] + arguments, environment: mutter.environment)
        let started = poll { watch.stderr.contains("Ctrl-C to stop") || watch.hasEnded }
        guard started, !watch.hasEnded else {
            throw SupportError("watch did not start: \(watch.stderr)")
        }
        return watch
    }

    @Test("watch --json: Meta-1 switched off is a disconnect, switched on again a connect at its place")
    func offAndOn() throws {
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        let watch = try startWatch(mutter, ["--json"])
        defer { watch.signal(SIGTERM); _ = watch.wait() }

        try mutter.arrange(primary: "Meta-0", disabled: ["Meta-1"])
        #expect(try poll { try mutter.displayState().map(\.connector) == ["Meta-0"] })
        #expect(watch.awaitWatchEvent("disconnect", output: "Meta-1"), "\(watch.stdout) \(watch.stderr)")

        try mutter.arrange(primary: "Meta-0", place: ["Meta-1": (1920, 0)], enabled: ["Meta-1"])
        #expect(try poll { try mutter.displayState().count == 2 })
        #expect(watch.awaitWatchEvent("connect", output: "Meta-1"), "\(watch.stdout) \(watch.stderr)")
        let connect = watch.watchEvents.last { $0["event"] as? String == "connect" }
        let display = connect?["display"] as? [String: Any]
        #expect(display?["position"] as? [String: Int] == ["x": 1920, "y": 0], "\(String(describing: connect))")
        #expect((display?["currentMode"] as? [String: Any])?["width"] as? Int == 1280)
        #expect(!watch.hasEnded, "stderr: \(watch.stderr)")
    }

    @Test("watch --set-mode with a mode Meta-1 does not offer: refused with the reason (exit 1), the mode stays")
    func setModeNotOffered() throws {
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        let result = try runToEnd(try Repository.extdisplay().path, ["watch", "--set-mode", "Meta-1=1024x768"],
                                  environment: mutter.environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Meta-1 does not offer 1024×768"), "stderr: \(result.stderr)")
        #expect(try mutter.displayState().first { $0.connector == "Meta-1" }?.width == 1280)
    }
}
