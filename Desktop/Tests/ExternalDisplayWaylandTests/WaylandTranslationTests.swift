import ExternalDisplayKit
@testable import ExternalDisplayWayland
import Testing

/// The pure parts: the core's naming and main-display decisions, the translation of what a compositor reported
/// into outputs, and the changes between two readings. Expected values are written out by hand.
@Suite("Wayland translation")
struct WaylandTranslationTests {
    @Test("connection kinds from Wayland output names")
    func connections() {
        let expected: [(String, ConnectionKind)] = [
            ("HDMI-A-1", .hdmi), ("DP-3", .displayPort), ("eDP-1", .builtIn), ("DSI-1", .builtIn),
            ("HEADLESS-2", .virtual), ("WL-1", .virtual), ("X11-1", .virtual), ("Meta-0", .virtual), ("DVI-D-1", .dvi),
            ("VGA-1", .vga),
            ("Unknown-1", .hdmi),
        ]
        for (name, kind) in expected { #expect(DesktopNaming.connection(forOutput: name) == kind, "\(name)") }
    }

    @Test("display names: the description without its (OUTPUT) suffix, else the model, else the output name")
    func names() {
        #expect(DesktopNaming.displayName(description: "Dell Inc. DELL U2415 CFV9N7B (DP-1)", model: "DELL U2415",
                                          outputName: "DP-1") == "Dell Inc. DELL U2415 CFV9N7B")
        #expect(DesktopNaming.displayName(description: "", model: "LG TV", outputName: "HDMI-A-1") == "LG TV")
        #expect(DesktopNaming.displayName(description: nil, model: nil, outputName: "HDMI-A-1") == "HDMI-A-1")
        #expect(DesktopNaming.displayName(description: "Bad\u{07}\"name\"\n (X)", model: nil, outputName: "X") == "Badname")
        #expect(DesktopNaming.displayName(description: " (DP-1)", model: "", outputName: "DP-1") == "DP-1")
    }

    private func record(_ global: UInt32, _ name: String, modes: [RawMode], done: Bool = true,
                        logical: (Int, Int, Int, Int)? = nil, scale: Int = 1) -> OutputRecord {
        var r = OutputRecord(global: global)
        r.name = name
        r.description = "Monitor \(global) (\(name))"
        r.modes = modes
        r.integerScale = scale
        r.done = done
        if let logical {
            r.logicalPosition = (logical.0, logical.1)
            r.logicalSize = (logical.2, logical.3)
        }
        return r
    }

    @Test("the main output: the compositor's ranking (Mutter's primary, KWin's order) over the built-in panel and the origin")
    func mainFromTheCompositorsRanking() {
        let mode = [RawMode(width: 1920, height: 1080, milliHertz: 60_000, current: true)]
        let records = [record(1, "eDP-1", modes: mode, logical: (0, 0, 1920, 1080)),
                       record(2, "HDMI-A-1", modes: mode, logical: (1920, 0, 1920, 1080)),
                       record(3, "DP-2", modes: mode, logical: (3840, 0, 1920, 1080))]
        func main(_ priorities: [String: Int]) -> [String] {
            WaylandTopology.outputs(records, heads: [], modes: [:], priorities: priorities).filter(\.isMain).map(\.outputName)
        }
        #expect(main([:]) == ["eDP-1"])
        #expect(main(["HDMI-A-1": 1]) == ["HDMI-A-1"])
        #expect(main(["eDP-1": 3, "HDMI-A-1": 2, "DP-2": 1]) == ["DP-2"])
        #expect(main(["Gone-9": 1]) == ["eDP-1"])
    }

    @Test("outputs: incomplete records wait, a disabled head hides its output, sway 1.7's 0×0 heads are ignored")
    func topology() throws {
        let records = [
            record(40, "DP-1", modes: [RawMode(width: 1920, height: 1080, milliHertz: 59_940, current: true)],
                   logical: (0, 0, 1920, 1080)),
            record(41, "HDMI-A-1", modes: [RawMode(width: 1280, height: 720, milliHertz: 60_000, current: true)],
                   logical: (1920, 0, 1280, 720)),
            record(42, "HEADLESS-3", modes: [RawMode(width: 800, height: 600, milliHertz: 60_000, current: true)]),
            record(43, "DP-2", modes: [RawMode(width: 1024, height: 768, milliHertz: 60_000, current: true)],
                   done: false),
        ]
        let modes: [UInt: RawMode] = [
            1: RawMode(width: 3840, height: 2160, milliHertz: 60_000, preferred: true),
            2: RawMode(width: 1280, height: 720, milliHertz: 60_000),
            3: RawMode(width: 0, height: 0, milliHertz: 0),
            4: RawMode(width: 1920, height: 1080, milliHertz: 59_940),
        ]
        var hdmi = HeadRecord()
        hdmi.name = "HDMI-A-1"
        hdmi.modes = [1, 2]
        hdmi.currentMode = 2
        hdmi.enabled = true
        hdmi.scale = 1.5
        var headless = HeadRecord()  // sway 1.7: "disabled", one 0×0 mode, while it scans out
        headless.name = "HEADLESS-3"
        headless.modes = [3]
        var dp = HeadRecord()  // really disabled
        dp.name = "DP-1"
        dp.modes = [4]
        let outputs = WaylandTopology.outputs(records, heads: [hdmi, headless, dp], modes: modes)
        #expect(outputs.map(\.outputName) == ["HDMI-A-1", "HEADLESS-3"])
        let tv = try #require(outputs.first)
        #expect(tv.display.modes == [DisplayMode(width: 1280, height: 720, refreshRate: 60),
                                     DisplayMode(width: 3840, height: 2160, refreshRate: 60)])
        #expect(tv.display.preferredMode == DisplayMode(width: 3840, height: 2160, refreshRate: 60))
        #expect(tv.display.currentMode == DisplayMode(width: 1280, height: 720, refreshRate: 60))
        #expect(tv.scale == 1.5)
        #expect(tv.bounds == Rect(x: 1920, y: 0, width: 1280, height: 720))
        #expect(tv.description == "Monitor 41 (HDMI-A-1)")
        #expect(tv.display.name == "Monitor 41")
        #expect(tv.display.connection == .hdmi)
        let virtual = outputs[1]
        #expect(virtual.display.currentMode == DisplayMode(width: 800, height: 600, refreshRate: 60))
        #expect(virtual.bounds == Rect(x: 0, y: 0, width: 800, height: 600))  // no xdg-output: mode ÷ scale
        #expect(virtual.isMain && !tv.isMain)  // at the origin; no built-in panel
        // 59.94 Hz survives the mHz conversion.
        let dpShown = WaylandTopology.outputs([records[0]], heads: [], modes: [:])
        #expect(dpShown.first?.display.currentMode.refreshRate == 59.94)
    }

    private func output(_ name: String, _ w: Int, _ h: Int, x: Int = 0) -> WaylandOutput {
        let mode = DisplayMode(width: w, height: h)
        return WaylandOutput(display: Display(id: DisplayID(name), modes: [mode], currentMode: mode), outputName: name,
                             description: "", bounds: Rect(x: x, y: 0, width: w, height: h), scale: 1)
    }

    @Test("changes: disconnects first, then connects and mode changes; a move alone is no event")
    func changes() {
        let before = [output("A", 1920, 1080), output("B", 1280, 720, x: 1920)]
        let after = [output("A", 1920, 1080, x: 100), output("C", 800, 600), output("B", 1024, 768, x: 1920)]
        let events = WaylandOutputEvent.changes(from: before, to: after)
        #expect(events.map(\.description) == ["connect C 800×600@60 at (0,0)",
                                              "modeChanged B 1280×720@60 -> 1024×768@60 at (1920,0)"])
        let gone = WaylandOutputEvent.changes(from: after, to: [after[0]])
        #expect(gone.map(\.name) == ["disconnect", "disconnect"])
        #expect(WaylandOutputEvent.changes(from: before, to: before).isEmpty)
    }
}
