import Foundation
import Testing

/// `extdisplay list --json` on a real compositor (headless sway), checked against sway's own IPC
/// (`swaymsg -t get_outputs -r`) and `wayland-info` — sources that share nothing with the code under test.
@Suite("extdisplay list on Wayland", .serialized)
struct WaylandListTests {
    /// `list --json` objects by id.
    private func list(_ sway: SwayCompositor, _ extra: [String] = []) throws -> [String: [String: Any]] {
        let result = try runToEnd(try Repository.extdisplay().path, ["list", "--json"] + extra, environment: sway.environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let array = try #require(try parseJSON(result.stdout) as? [[String: Any]])
        return Dictionary(array.map { ($0["id"] as? String ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The description `wayland-info` shows for each wl_output (`name: X` then `description: Y`).
    private func descriptions(_ sway: SwayCompositor) throws -> [String: String] {
        let info = try runToEnd("/usr/bin/wayland-info", [], environment: sway.environment)
        guard info.status == 0 else { throw WaylandTestFailure("wayland-info failed: \(info.stderr)") }
        var result: [String: String] = [:]
        var name: String?
        for line in info.stdout.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("name: ") { name = String(line.dropFirst(6)) }
            if line.hasPrefix("description: "), let current = name, !current.contains("'") {
                result[current] = String(line.dropFirst(13))
                name = nil
            }
        }
        return result
    }

    private func check(_ listed: [String: [String: Any]], against sway: SwayCompositor) throws {
        let truth = try sway.outputs().filter(\.active)
        #expect(Set(listed.keys) == Set(truth.map(\.name)))
        let described = try descriptions(sway)
        for output in truth {
            let object = try #require(listed[output.name], "\(output.name) missing from list --json")
            let current = object["currentMode"] as? [String: Any]
            #expect(current?["width"] as? Int == output.currentWidth, "\(output.name)")
            #expect(current?["height"] as? Int == output.currentHeight, "\(output.name)")
            let hz = (current?["refreshRate"] as? Double).map { Int(($0 * 1000).rounded()) }
            #expect(hz == output.currentRefreshMilliHertz, "\(output.name)")
            #expect(object["position"] as? [String: Int] == ["x": output.x, "y": output.y], "\(output.name)")
            #expect(object["logicalSize"] as? [String: Int] == ["width": output.width, "height": output.height],
                    "\(output.name)")
            #expect(object["scale"] as? Double == output.scale, "\(output.name)")
            #expect(object["description"] as? String == described[output.name], "\(output.name)")
            #expect(object["connection"] as? String == "virtual")
            let modes = (object["modes"] as? [[String: Any]] ?? []).map { "\($0["width"] ?? 0)x\($0["height"] ?? 0)" }
            #expect(modes.contains("\(output.currentWidth ?? 0)x\(output.currentHeight ?? 0)"), "\(output.name)")
        }
    }

    @Test("list --json reports every output: name, mode, position, logical size, scale, description; HEADLESS-1 is main")
    func listMatchesSway() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let listed = try list(sway)
        try check(listed, against: sway)
        #expect(listed["HEADLESS-1"]?["main"] as? Bool == true)
        #expect(listed["HEADLESS-2"]?["main"] as? Bool == false)
        #expect(listed["HEADLESS-2"]?["description"] as? String == "Headless output 2")
        #expect(listed["HEADLESS-2"]?["name"] as? String == "Headless output 2")
        // The same through --backend wayland, and in text form.
        let forced = try list(sway, ["--backend", "wayland"])
        #expect(Set(forced.keys) == Set(listed.keys))
        let text = try runToEnd(try Repository.extdisplay().path, ["list"], environment: sway.environment)
        #expect(text.stdout.contains("HEADLESS-2  external  virtual  1280×720@60  at (1920,0)"), "\(text.stdout)")
        #expect(text.stdout.contains("scale     1.0  logical 1280×720  \"Headless output 2\""), "\(text.stdout)")
    }

    @Test("a scaled and resized output: logical size is mode ÷ scale, as sway reports it")
    func scaledOutput() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        try sway.swaymsg("--", "output", "HEADLESS-2", "scale", "2")
        try sway.setMode("HEADLESS-2", width: 1600, height: 900, x: 1920, y: 0)
        let added = try sway.addOutput()
        try sway.setMode(added, width: 1024, height: 768, x: 0, y: 1080)
        let listed = try list(sway)
        try check(listed, against: sway)
        #expect(listed["HEADLESS-2"]?["logicalSize"] as? [String: Int] == ["width": 800, "height": 450])
        #expect(listed["HEADLESS-2"]?["scale"] as? Double == 2)
        #expect(listed[added]?["position"] as? [String: Int] == ["x": 0, "y": 1080])
    }
}
