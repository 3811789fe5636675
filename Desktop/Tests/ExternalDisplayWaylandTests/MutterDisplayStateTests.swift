import ExternalDisplayKit
@testable import ExternalDisplayWayland
import Foundation
import Testing

/// Mutter's `GetCurrentState` decoded, and the `ApplyMonitorsConfig` arguments built from it, against replies and
/// arguments written out by hand from the interface's documentation (org.gnome.Mutter.DisplayConfig.xml); and
/// random malformed replies, which must be refused with a reason and never trap.
@Suite("Mutter display configuration")
struct MutterDisplayStateTests {
    /// A monitor as Mutter sends it: `((ssss)a(siiddada{sv})a{sv})`.
    private func monitor(_ connector: String, _ modes: [(String, Int32, Int32, Double, Bool)],
                         builtin: Bool = false) -> DBusValue {
        .structure([
            .structure([.string(connector), .string("Vendor"), .string("Product"), .string("0x01")]),
            .array(element: "(siiddada{sv})", modes.map { mode in
                .structure([.string(mode.0), .int32(mode.1), .int32(mode.2), .double(mode.3), .double(1),
                            .array(element: "d", [.double(1), .double(2)]),
                            .properties([("is-current", .boolean(mode.4)), ("is-preferred", .boolean(true))])])
            }),
            .properties([("is-builtin", .boolean(builtin)), ("display-name", .string("Screen \(connector)"))]),
        ])
    }

    /// A logical monitor: `(iiduba(ssss)a{sv})`.
    private func logical(_ x: Int32, _ y: Int32, scale: Double = 1, primary: Bool, _ connector: String) -> DBusValue {
        .structure([.int32(x), .int32(y), .double(scale), .uint32(0), .boolean(primary),
                    .array(element: "(ssss)", [.structure([.string(connector), .string("Vendor"), .string("Product"),
                                                            .string("0x01")])]),
                    .properties([])])
    }

    /// eDP-1 1920×1080 (also 1280×720) at (0,0); HDMI-1 1280×720 (also 1920×1080@50) at (1920,0), primary.
    private var reply: [DBusValue] {
        [.uint32(7),
         .array(element: "((ssss)a(siiddada{sv})a{sv})", [
            monitor("eDP-1", [("1920x1080@60.000", 1920, 1080, 60, true), ("1280x720@59.940", 1280, 720, 59.94, false)],
                    builtin: true),
            monitor("HDMI-1", [("1920x1080@50.000", 1920, 1080, 50, false), ("1280x720@60.000", 1280, 720, 60, true)]),
         ]),
         .array(element: "(iiduba(ssss)a{sv})", [logical(0, 0, primary: false, "eDP-1"),
                                                  logical(1920, 0, primary: true, "HDMI-1")]),
         .properties([("layout-mode", .uint32(1))])]
    }

    @Test("GetCurrentState: connectors, modes with ids and flags, places, the primary monitor")
    func decode() throws {
        let state = try MutterDisplayState.decode(reply)
        #expect(state.serial == 7)
        #expect(state.monitors.map(\.connector) == ["eDP-1", "HDMI-1"])
        #expect(state.monitors[0].isBuiltin && !state.monitors[1].isBuiltin)
        #expect(state.monitors[0].currentMode?.id == "1920x1080@60.000")
        #expect(state.monitors[1].currentMode?.displayMode == DisplayMode(width: 1280, height: 720, refreshRate: 60))
        #expect(state.monitors[0].modes[1].displayMode.refreshRate == 59.94)
        #expect(state.primaryConnector == "HDMI-1")
        #expect(state.logicalMonitors.map(\.x) == [0, 1920])
        #expect(state.layoutMode == 1)
    }

    @Test("a mode switch keeps the layout adjacent: monitors right of the switched one move by its change of width")
    func applyArgumentsMoveNeighbours() throws {
        let state = try MutterDisplayState.decode(reply)
        let mode = try #require(state.mode(DisplayMode(width: 1280, height: 720, refreshRate: 60), on: "eDP-1"))
        #expect(mode.id == "1280x720@59.940")  // the closest rate offered
        let arguments = try #require(state.applyArguments(setting: "eDP-1", to: mode.id, method: 1))
        let expected: [DBusValue] = [
            .uint32(7), .uint32(1),
            .array(element: "(iiduba(ssa{sv}))", [
                .structure([.int32(0), .int32(0), .double(1), .uint32(0), .boolean(false),
                            .array(element: "(ssa{sv})", [.structure([.string("eDP-1"), .string("1280x720@59.940"),
                                                                       .array(element: "{sv}", [])])])]),
                // 1920 - (1920 - 1280) = 1280: still touching eDP-1's right edge.
                .structure([.int32(1280), .int32(0), .double(1), .uint32(0), .boolean(true),
                            .array(element: "(ssa{sv})", [.structure([.string("HDMI-1"), .string("1280x720@60.000"),
                                                                       .array(element: "{sv}", [])])])]),
            ]),
            .array(element: "{sv}", []),
        ]
        #expect(arguments == expected)
        #expect(arguments.map(\.signature).joined() == "uua(iiduba(ssa{sv}))a{sv}")
    }

    @Test("a restore moves only the restored monitor to its recorded place; unknown monitors and modes give nil")
    func applyArgumentsRestorePlace() throws {
        let state = try MutterDisplayState.decode(reply)
        let arguments = try #require(state.applyArguments(setting: "HDMI-1", to: "1920x1080@50.000", method: 1,
                                                          position: (0, 1080)))
        let places = arguments[2].items?.compactMap { $0.items.map { ($0[0].integer ?? -1, $0[1].integer ?? -1) } }
        #expect(places?.map(\.0) == [0, 0])
        #expect(places?.map(\.1) == [0, 1080])
        #expect(state.applyArguments(setting: "DP-9", to: "1920x1080@50.000", method: 1) == nil)
        #expect(state.applyArguments(setting: "HDMI-1", to: "640x480@60.000", method: 1) == nil)
        #expect(state.mode(DisplayMode(width: 800, height: 600), on: "HDMI-1") == nil)
    }

    @Test("random malformed replies are refused with a reason, never trapped on (seeded; EDK_MUTTER_SEED=N replays)")
    func malformedReplies() {
        let fixed = ProcessInfo.processInfo.environment["EDK_MUTTER_SEED"].flatMap(UInt64.init)
        var accepted = 0
        for seed in fixed.map({ [$0] }) ?? (0..<1_500).map({ UInt64($0) }) {
            var generator = WaylandTopologyFuzzTests.Generator(state: seed &* 2_654_435_761 &+ 1)
            let mangled = Self.mangle(reply, &generator, depth: 0)
            do {
                let state = try MutterDisplayState.decode(mangled)
                accepted += 1
                // What is accepted is usable: every argument list built from it has the interface's signature.
                for monitor in state.monitors {
                    for mode in monitor.modes {
                        if let arguments = state.applyArguments(setting: monitor.connector, to: mode.id, method: 1) {
                            #expect(arguments.map(\.signature).joined() == "uua(iiduba(ssa{sv}))a{sv}",
                                    "replay with EDK_MUTTER_SEED=\(seed)")
                        }
                    }
                }
            } catch {
                #expect(!error.description.isEmpty, "replay with EDK_MUTTER_SEED=\(seed)")
            }
        }
        if fixed == nil { #expect(accepted > 0 && accepted < 1_500, "accepted \(accepted) of 1500") }
    }

    /// `values` with random damage: members dropped, swapped for other types, numbers made extreme or not finite.
    static func mangle(_ values: [DBusValue], _ g: inout WaylandTopologyFuzzTests.Generator, depth: Int) -> [DBusValue] {
        var result: [DBusValue] = []
        for value in values {
            switch Int.random(in: 0..<40, using: &g) {
            case 0: continue
            case 1: result.append(.string("\u{0}\u{FFFF}"))
            case 2: result.append(.double(.nan))
            case 3: result.append(.int32(.min))
            case 4: result.append(.double(-.infinity))
            case 5: result.append(.uint32(.max))
            case 6: result.append(.array(element: "v", []))
            default: result.append(mangle(value, &g, depth: depth + 1))
            }
        }
        return result
    }

    static func mangle(_ value: DBusValue, _ g: inout WaylandTopologyFuzzTests.Generator, depth: Int) -> DBusValue {
        switch value {
        case .array(let element, let items): return .array(element: element, mangle(items, &g, depth: depth))
        case .structure(let members): return .structure(mangle(members, &g, depth: depth))
        case .dictEntry(let key, let item):
            return Bool.random(using: &g) ? .dictEntry(key, mangle(item, &g, depth: depth)) : .dictEntry(.int32(1), item)
        case .variant(let inner): return .variant(mangle(inner, &g, depth: depth))
        case .int32: return Bool.random(using: &g) ? value : .int32(Int32.random(in: .min ... .max, using: &g))
        case .double: return [value, .double(.nan), .double(1e308), .double(-0.0)][Int.random(in: 0..<4, using: &g)]
        default: return value
        }
    }
}
