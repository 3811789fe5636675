import ExternalDisplayKit
@testable import ExternalDisplayWayland
import Foundation
import Testing

/// Random compositor reports — extreme, zero, negative and missing values, heads with and without usable modes,
/// incomplete records — never trap the translation, and what it lists always follows its rules. A failing case
/// prints its seed; `EDK_WAYLAND_SEED=N` replays one seed.
@Suite("Wayland topology fuzz")
struct WaylandTopologyFuzzTests {
    /// SplitMix64: small, seedable, the same on every platform.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func number(_ g: inout Generator) -> Int {
        let extremes = [0, -1, 1, 16_384, 16_385, Int(Int32.max), Int(Int32.min), 59_940, 60_000, 1280, 720]
        return Bool.random(using: &g) ? extremes.randomElement(using: &g)! : Int.random(in: -5_000...100_000, using: &g)
    }

    static func report(_ seed: UInt64) -> ([OutputRecord], [HeadRecord], [UInt: RawMode]) {
        var g = Generator(state: seed)
        var modes: [UInt: RawMode] = [:]
        for id in UInt(1)...UInt(8) {
            modes[id] = RawMode(width: number(&g), height: number(&g), milliHertz: number(&g),
                                preferred: Bool.random(using: &g))
        }
        let names = ["DP-1", "HDMI-A-1", "eDP-1", "HEADLESS-1", "", "WL-1"]
        var records: [OutputRecord] = []
        for global in UInt32(1)...UInt32.random(in: 1...6, using: &g) {
            var r = OutputRecord(global: global)
            r.name = Bool.random(using: &g) ? names.randomElement(using: &g) : nil
            r.xdgName = Bool.random(using: &g) ? names.randomElement(using: &g) : nil
            r.description = Bool.random(using: &g) ? "d\u{0}\u{7F}\"(\(r.name ?? ""))" : nil
            r.integerScale = [0, -2, 1, 2, Int(Int32.max)].randomElement(using: &g)!
            r.modes = (0..<Int.random(in: 0...3, using: &g)).map { _ in
                RawMode(width: number(&g), height: number(&g), milliHertz: number(&g), current: Bool.random(using: &g))
            }
            if Bool.random(using: &g) {
                r.logicalPosition = (number(&g), number(&g))
                r.logicalSize = (number(&g), number(&g))
            }
            r.done = Int.random(in: 0..<4, using: &g) > 0
            records.append(r)
        }
        var heads: [HeadRecord] = []
        for _ in 0..<Int.random(in: 0...4, using: &g) {
            var h = HeadRecord()
            h.name = names.randomElement(using: &g)
            h.modes = (0..<Int.random(in: 0...3, using: &g)).map { _ in UInt.random(in: 1...9, using: &g) }
            h.currentMode = Bool.random(using: &g) ? UInt.random(in: 1...9, using: &g) : nil
            h.enabled = Bool.random(using: &g)
            h.scale = [0, -1, 0.00390625, 1, 1.5, 256].randomElement(using: &g)!
            heads.append(h)
        }
        return (records, heads, modes)
    }

    @Test("random reports: no trap; only complete, named outputs; one main; unique modes with a real size")
    func randomReports() {
        let fixed = ProcessInfo.processInfo.environment["EDK_WAYLAND_SEED"].flatMap(UInt64.init)
        let seeds: [UInt64] = fixed.map { [$0] } ?? (0..<2_000).map { UInt64($0) &* 7_919 &+ 11 }
        for seed in seeds {
            let (records, heads, modes) = Self.report(seed)
            let outputs = WaylandTopology.outputs(records, heads: heads, modes: modes)
            let replay = "replay with EDK_WAYLAND_SEED=\(seed)"
            let complete = Set(records.filter(\.done).compactMap { $0.name ?? $0.xdgName }.filter { !$0.isEmpty })
            #expect(outputs.allSatisfy { complete.contains($0.outputName) }, "\(replay)")
            #expect(outputs.isEmpty || outputs.filter(\.isMain).count == 1, "\(replay)")
            for output in outputs {
                #expect(Set(output.display.modes).count == output.display.modes.count, "\(replay)")
                #expect(output.display.modes.allSatisfy { $0.size.width > 0 && $0.size.height > 0 }
                        || output.display.modes == [output.display.currentMode], "\(replay)")
                #expect(!output.description.contains("\u{0}") && !output.display.name.contains("\""), "\(replay)")
            }
        }
    }
}
