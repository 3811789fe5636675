import Foundation
import Testing

/// `extdisplay watch` on a real compositor: outputs plugged in, switched to another mode, unplugged and plugged
/// in again, each seen by sway's own IPC first and then expected on watch's output.
@Suite("extdisplay watch on Wayland", .serialized)
struct WaylandWatchTests {
    /// Starts `extdisplay watch ARGS` against `sway` and waits for its header.
    private func startWatch(_ sway: SwayCompositor, _ arguments: [String]) throws -> ChildProcess {
        let watch = try ChildProcess(try Repository.extdisplay().path, ["watch"] + arguments, environment: sway.environment)
        let started = poll { watch.stderr.contains("Ctrl-C to stop") || watch.hasEnded }
        guard started, !watch.hasEnded else {
            throw WaylandTestFailure("watch did not start: \(watch.stderr)")
        }
        return watch
    }

    /// The JSON lines so far.
    private func events(_ watch: ChildProcess) -> [[String: Any]] {
        watch.lines.compactMap { try? parseJSON($0) as? [String: Any] }
    }

    private func has(_ watch: ChildProcess, _ event: String, _ output: String,
                     where extra: ([String: Any]) -> Bool = { _ in true }) -> Bool {
        poll {
            events(watch).contains { e in
                e["event"] as? String == event && (e["display"] as? [String: Any])?["id"] as? String == output
                    && extra(e)
            }
        }
    }

    private func size(_ object: Any?) -> String {
        guard let m = object as? [String: Any] else { return "none" }
        return "\(m["width"] ?? 0)x\(m["height"] ?? 0)"
    }

    @Test("watch --json reports connect, mode change, unplug (disconnect) and a new plug (connect)")
    func hotplugAndModes() throws {
        let sway = try SwayCompositor(nested: true)
        defer { sway.stop() }
        let watch = try startWatch(sway, ["--json"])
        defer { watch.signal(SIGTERM); watch.wait() }

        let added = try sway.addOutput()
        #expect(added == "WL-2")
        #expect(has(watch, "connect", added), "\(watch.stdout)")

        try sway.setMode(added, width: 1024, height: 768)
        #expect(try sway.outputs().first { $0.name == added }?.currentWidth == 1024)
        #expect(has(watch, "modeChanged", added) { size(($0["display"] as? [String: Any])?["currentMode"]) == "1024x768" },
                "\(watch.stdout)")
        let change = events(watch).last { $0["event"] as? String == "modeChanged" }
        #expect(size(change?["from"]) == "1280x720")

        try sway.unplug(added)
        #expect(poll { (try? sway.outputs().contains { $0.name == added }) == false })
        #expect(has(watch, "disconnect", added), "\(watch.stdout)")

        let replugged = try sway.addOutput()
        #expect(has(watch, "connect", replugged), "\(watch.stdout)")
        #expect(!watch.hasEnded, "stderr: \(watch.stderr)")
        // Every line is a complete object with the list --json keys.
        for event in events(watch) {
            let display = event["display"] as? [String: Any] ?? [:]
            for key in ["id", "name", "main", "connection", "position", "bounds", "currentMode", "modes", "scale",
                        "description", "logicalSize"] {
                #expect(display.keys.contains(key), "\(key) missing in \(event)")
            }
        }
    }

    @Test("watch (text) prints the X11 backend's lines")
    func textLines() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let watch = try startWatch(sway, [])
        defer { watch.signal(SIGTERM); watch.wait() }
        try sway.setMode("HEADLESS-2", width: 1024, height: 768, x: 1920, y: 0)
        #expect(poll { watch.stdout.contains("modeChanged HEADLESS-2 1280×720@60 -> 1024×768@60 at (1920,0)") },
                "\(watch.stdout)")
        let added = try sway.addOutput()
        #expect(poll { watch.lines.contains { $0.hasPrefix("connect \(added) ") } }, "\(watch.stdout)")
    }

    @Test("watch --set-mode switches through wlr-output-management and restores the mode on SIGTERM")
    func setModeAndRestore() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let watch = try startWatch(sway, ["--set-mode", "HEADLESS-2=1024x768@60"])
        #expect(poll { (try? sway.outputs().first { $0.name == "HEADLESS-2" }?.currentWidth) == 1024 },
                "stderr: \(watch.stderr)")
        let during = try #require(try sway.outputs().first { $0.name == "HEADLESS-2" })
        #expect([during.currentWidth, during.currentHeight, during.x, during.y] == [1024, 768, 1920, 0])
        watch.signal(SIGTERM)
        #expect(watch.wait() == 128 + SIGTERM)
        let after = try #require(try sway.outputs().first { $0.name == "HEADLESS-2" })
        #expect([after.currentWidth, after.currentHeight, after.x, after.y] == [1280, 720, 1920, 0])
        // The other output was left as it was.
        let first = try #require(try sway.outputs().first { $0.name == "HEADLESS-1" })
        #expect([first.currentWidth, first.currentHeight, first.x, first.y] == [1920, 1080, 0, 0])
    }

    @Test("the compositor going away ends watch with a clear message and status 1")
    func compositorGone() throws {
        let sway = try SwayCompositor()
        let watch = try startWatch(sway, [])
        sway.stop()
        #expect(poll { watch.hasEnded })
        #expect(watch.wait() == 1)
        #expect(watch.stderr.contains("the Wayland connection was lost"), "stderr: \(watch.stderr)")
    }
}
