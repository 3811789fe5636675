import Foundation
import Testing

/// `extdisplay list` and `watch` as a user runs them, against a real Xorg (dummy driver).
@Suite("extdisplay list and watch", .serialized)
struct CLITests {
    @Test("list without an X display: one line on stderr, status 1, no SDL noise")
    func listWithoutDisplay() throws {
        let binary = try Repository.extdisplay()
        for command in ["list", "watch"] {
            let result = try runToEnd(binary.path, [command],
                                      environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("no X display: DISPLAY is not set"))
            #expect(result.stderr.contains("set DISPLAY"))
            #expect(result.stderr.contains("extdisplay simulate"))
            #expect(!result.stderr.contains("SDL"))
        }
    }

    @Test("list reports both outputs, their modes and preferred modes")
    func listReportsOutputs() throws {
        let xorg = try XorgServer.start()
        defer { xorg.stop() }
        let binary = try Repository.extdisplay()
        let result = try runToEnd(binary.path, ["list", "--json"], environment: ["DISPLAY": xorg.display])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["id"] as? String } == ["DUMMY0", "DUMMY1"])
        func mode(_ object: Any?) -> String? {
            guard let m = object as? [String: Any], let w = m["width"] as? Int, let h = m["height"] as? Int,
                  let r = m["refreshRate"] as? Double else { return nil }
            return "\(w)x\(h)@\(Int(r.rounded()))"
        }
        let main = json[0], external = json[1]
        #expect(main["main"] as? Bool == true)
        #expect(external["main"] as? Bool == false)
        #expect(external["connection"] as? String == "virtual")
        #expect(mode(main["currentMode"]) == "1920x1080@60")
        #expect(mode(main["preferredMode"]) == "1920x1080@60")
        #expect(mode(external["currentMode"]) == "1280x720@60")
        #expect(mode(external["preferredMode"]) == "1280x720@60")
        let externalModes = (external["modes"] as? [Any] ?? []).compactMap(mode)
        #expect(externalModes.contains("1024x768@60"))
        #expect(externalModes.contains("1920x1080@60"))
        let position = external["position"] as? [String: Int]
        #expect(position == ["x": 1920, "y": 0])
        // The fields only Wayland reports are there, and null, on X11.
        for key in ["scale", "description", "logicalSize"] {
            #expect(main.keys.contains(key) && main[key] is NSNull, "\(key): \(String(describing: main[key]))")
        }

        let text = try runToEnd(binary.path, ["list"], environment: ["DISPLAY": xorg.display])
        #expect(text.stdout.contains("DUMMY0  main"))
        #expect(text.stdout.contains("DUMMY1  external  virtual  1280×720@60  at (1920,0)"))
        #expect(text.stdout.contains("preferred 1280×720@60"))
    }

    @Test("watch reports an output switched on and off and a mode change")
    func watchReportsChanges() async throws {
        let xorg = try XorgServer.start()
        defer { xorg.stop() }
        let watch = try startWatch(xorg, ["watch"])
        #expect(await watch.waitForLine(stderr: true, timeout: 5) { $0.hasPrefix("watching") } != nil,
                "no header: \(watch.stderr)")

        try xorg.xrandr("--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1")
        #expect(await watch.waitForLine(timeout: hangGuard) { $0.hasPrefix("connect DUMMY2 1280×720@60") } != nil,
                "got: \(watch.stdout)")
        try xorg.xrandr("--output", "DUMMY2", "--off")
        #expect(await watch.waitForLine(timeout: hangGuard) { $0 == "disconnect DUMMY2" } != nil, "got: \(watch.stdout)")
        try xorg.xrandr("--output", "DUMMY1", "--mode", "1024x768")
        #expect(await watch.waitForLine(timeout: hangGuard) { $0.hasPrefix("modeChanged DUMMY1 1280×720@60 -> 1024×768@60") }
                != nil, "got: \(watch.stdout)")
        watch.signal(SIGINT)
        #expect(watch.wait() == 128 + SIGINT)
    }

    @Test("watch --json prints one JSON object per change")
    func watchJSON() async throws {
        let xorg = try XorgServer.start()
        defer { xorg.stop() }
        let out = try startWatch(xorg, ["watch", "--json"])
        #expect(await out.waitForLine(stderr: true, timeout: 5) { $0.hasPrefix("watching") } != nil)
        try xorg.xrandr("--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1")
        let line = try #require(await out.waitForLine(timeout: hangGuard) { $0.contains("\"event\":\"connect\"") })
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let display = object["display"] as? [String: Any]
        #expect(display?["id"] as? String == "DUMMY2")
        #expect(object["time"] is String)
    }

    @Test("the modes in force at start are restored after SIGTERM and SIGINT")
    func modesRestoredAfterSignals() async throws {
        let xorg = try XorgServer.start()
        defer { xorg.stop() }
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            #expect(try xorg.currentMode("DUMMY1") == "1280x720")
            let watch = try startWatch(xorg, ["watch", "--set-mode", "DUMMY1=1024x768"])
            #expect(await watch.waitForLine(stderr: true, timeout: 5) { $0.hasPrefix("watching") } != nil,
                    "\(watch.stderr)")
            #expect(try xorg.currentMode("DUMMY1") == "1024x768")
            watch.signal(signal)
            #expect(watch.wait() == status)
            #expect(try xorg.currentMode("DUMMY1") == "1280x720", "not restored after signal \(signal)")
        }
    }

    /// How long to wait for a line before calling the run hung: a hang guard, not a speed requirement.
    private let hangGuard = 30.0

    private func startWatch(_ xorg: XorgServer, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(try Repository.extdisplay().path, arguments, environment: ["DISPLAY": xorg.display])
    }
}

/// `extdisplay doctor` against a real Xorg (dummy driver): the display server and the outputs `list` reads.
@Suite("extdisplay doctor on Xorg-dummy")
struct DoctorXorgTests {
    @Test("doctor names X11 on the server's display and both dummy outputs, main first")
    func doctorListsDummyOutputs() throws {
        let xorg = try XorgServer.start()
        defer { xorg.stop() }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-xorg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let result = try runToEnd(try Repository.extdisplay().path, ["doctor"],
                                  environment: ["DISPLAY": xorg.display, "WAYLAND_DISPLAY": nil,
                                                "EXTDISPLAY_STATE_DIR": state.path])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "ok       display       X11 on \(xorg.display)"
                + (ProcessInfo.processInfo.environment["XDG_CURRENT_DESKTOP"].map { ", desktop \($0)" } ?? ""),
                "\(result.stdout)")
        #expect(lines.dropFirst().first == "ok       outputs       2: DUMMY0 1920×1080@60 (main), DUMMY1 1280×720@60",
                "\(result.stdout)")
        // The essentials are there (sound and codecs are optional): status 0, no mode record made.
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state.path))
    }
}
