import Foundation
import Testing

/// `extdisplay list` on a real headless Mutter, checked against Mutter's own account of its monitors
/// (`org.gnome.Mutter.DisplayConfig GetCurrentState` read with `busctl --json`): names, modes, scale, logical
/// geometry, and the main display — Mutter's primary monitor, wherever it is.
@Suite("extdisplay list on GNOME (headless Mutter)", .serialized)
struct MutterListTests {
    private func check(_ listed: [String: [String: Any]], against mutter: MutterCompositor) throws {
        let truth = try mutter.displayState()
        #expect(Set(listed.keys) == Set(truth.map(\.connector)), "listed \(listed.keys.sorted())")
        for monitor in truth {
            let object = try #require(listed[monitor.connector], "\(monitor.connector) missing from list --json")
            let current = object["currentMode"] as? [String: Any]
            #expect(current?["width"] as? Int == monitor.width, "\(monitor.connector)")
            #expect(current?["height"] as? Int == monitor.height, "\(monitor.connector)")
            #expect(object["position"] as? [String: Int] == ["x": monitor.x, "y": monitor.y], "\(monitor.connector)")
            // In Mutter's physical layout mode sizes stay in device pixels; in the logical one a scale divides them.
            let divisor = monitor.layoutMode == 2 ? 1 : monitor.scale
            let logical = ["width": Int((Double(monitor.width) / divisor).rounded()),
                           "height": Int((Double(monitor.height) / divisor).rounded())]
            #expect(object["logicalSize"] as? [String: Int] == logical, "\(monitor.connector)")
            #expect(object["scale"] as? Double == monitor.scale, "\(monitor.connector)")
            #expect(object["main"] as? Bool == monitor.isPrimary, "\(monitor.connector): main is Mutter's primary")
            let modes = (object["modes"] as? [[String: Any]] ?? []).map { "\($0["width"] ?? 0)x\($0["height"] ?? 0)" }
            #expect(Set(modes) == Set(monitor.modes.map { String($0.prefix { $0 != "@" }) }), "\(monitor.connector)")
        }
    }

    @Test("list --json: Meta-0 and Meta-1 with their modes, scale and logical geometry; Meta-0 (primary) is main")
    func listMatchesMutter() throws {
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        let (byID, order) = try listed(mutter)
        try check(byID, against: mutter)
        #expect(order == ["Meta-0", "Meta-1"])
        #expect(byID["Meta-1"]?["connection"] as? String == "virtual")
        let text = try runToEnd(try Repository.extdisplay().path, ["list"], environment: mutter.environment)
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout.contains("Meta-1  external  virtual  1280×720@60  at (1920,0)"), "\(text.stdout)")
        #expect(text.stdout.contains("Meta-0  main      virtual  1920×1080@60  at (0,0)"), "\(text.stdout)")
    }

    @Test("the main display follows Mutter's primary monitor, not the origin; a scale of 2 is listed")
    func mainIsMuttersPrimary() throws {
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        try mutter.arrange(primary: "Meta-1", scale: ["Meta-0": 2])
        #expect(try poll { try mutter.displayState().first { $0.isPrimary }?.connector == "Meta-1" })
        #expect(try mutter.displayState().first { $0.connector == "Meta-0" }?.scale == 2)
        let (byID, order) = try listed(mutter)
        try check(byID, against: mutter)
        #expect(byID["Meta-1"]?["main"] as? Bool == true, "Meta-1 is primary but not main: \(byID)")
        #expect(byID["Meta-0"]?["main"] as? Bool == false)
        #expect(order.first == "Meta-1", "the main display is listed first: \(order)")
        #expect(byID["Meta-0"]?["scale"] as? Double == 2)
    }
}
