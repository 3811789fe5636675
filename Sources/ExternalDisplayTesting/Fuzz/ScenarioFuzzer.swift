import ExternalDisplayKit
import ExternalDisplaySimulator
import Foundation

/// Random scenarios over the whole scenario grammar, run end to end through the simulator and the trace checker:
/// the fuzz test and `edk-bench fuzz` use it, and so can anyone testing their own build of the engine.
///
/// Every preset and device, explicit mode lists with extreme values (sizes of 0, negative or past 16,384; pixel
/// aspect ratios of 1e16 and 1e-300; refresh rates of 0 and 1e19; overscan of −1 and 0.9), every configuration,
/// several steps per batch, traffic before launch and while suspended, events for unknown displays, and in some
/// scenarios one invalid step (a misspelt field, a time out of range, a step after `end`). The same seed always
/// gives the same scenario, as JSON text that `extdisplay simulate` runs.
///
/// ```swift
/// let json = ScenarioFuzzer.scenario(seed: 42)
/// let outcome = ScenarioFuzzer.run(json)   // .passed, .refused(why) or .contradiction(violations)
/// ```
public enum ScenarioFuzzer {
    /// What became of one random scenario.
    public enum Outcome: Sendable, Equatable {
        /// Simulated, and the checker accepted the engine's trace.
        case passed
        /// The parser refused it with a clear message (it contained an invalid step): exit status 2.
        case refused(String)
        /// The checker rejected the engine's trace: the tool contradicts itself.
        case contradiction([String])
    }

    /// The scenario JSON for a seed.
    public static func scenario(seed: UInt64) -> String {
        var generator = Generator(seed: seed)
        return generator.scenario()
    }

    /// Parses and simulates scenario JSON, then checks the trace.
    @MainActor
    public static func run(_ json: String) -> Outcome {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(Data(json.utf8))
        } catch {
            return .refused(error.description)
        }
        let result = ScenarioRunner(scenario: scenario).run()
        // Check the trace once more from its NDJSON text, exactly as a user's golden test would.
        let violations = result.violations + TraceChecker().check(ndjson: result.ndjson)
            .filter { $0.rule != .summaryMismatch }.map(\.description)
        return violations.isEmpty ? .passed : .contradiction(violations)
    }
}

/// A seeded random number generator (SplitMix64): small, fast, and the same sequence on every platform, for
/// reproducible random tests and benchmarks.
///
/// ```swift
/// var random = SeededRandom(state: 42)
/// let roll = Int.random(in: 1...6, using: &random)
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's state; the seed.
    public var state: UInt64

    /// Creates a generator from a seed.
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Builds one scenario as JSON text.
struct Generator {
    var random: SeededRandom
    var ids = ["tv", "projector", "monitor", "ghost"]
    var items = ["photo", "note", "slide"]

    init(seed: UInt64) { random = SeededRandom(state: seed) }

    mutating func scenario() -> String {
        var top: [String] = []
        if random.chance(70) { top.append(#""device":"\#(random.pick(DisplayCatalog.devices.map(\.name)))""#) }
        if random.chance(80) { top.append(#""configuration":\#(configuration())"#) }
        var steps: [String] = []
        var at = 0.0
        let launchAt = random.below(8)  // launch after 0…7 steps: traffic before launch in most scenarios
        let count = 4 + random.below(20)
        for index in 0..<count {
            if index > 0, !random.chance(35) { at += gap() }  // about a third of steps share a batch
            if index == launchAt { steps.append(step(at, #""event":"launch""#)) }
            steps.append(step(at, event()))
        }
        if launchAt >= count { steps.append(step(at, #""event":"launch""#)) }
        if random.chance(70) { steps.append(step(at + gap(), #""event":"end""#)) }
        if random.chance(8) { corrupt(&steps) }
        top.append(#""steps":[\#(steps.joined(separator: ","))]"#)
        return "{" + top.joined(separator: ",") + "}"
    }

    func step(_ at: Double, _ body: String) -> String { #"{"at":\#(JSONValue.format(at)),\#(body)}"# }

    mutating func gap() -> Double {
        switch random.below(10) {
        case 0: return 0.001
        case 1: return Double(random.below(600))  // long idle stretches
        case 2: return 0.25
        default: return Double(1 + random.below(40)) / 10
        }
    }

    mutating func configuration() -> String {
        var fields: [String] = []
        let selection = [#""preferred""#, #""highest""#, #""lowest""#,
                         #"{"maxPixels":\#(random.pick([0, 307_200, 921_600, 2_073_600, 999_999_999]))}"#,
                         #"{"size":\#(size())}"#]
        if random.chance(80) { fields.append(#""modeSelection":\#(random.pick(selection))"#) }
        if random.chance(70) { fields.append(#""overscanCompensation":"\#(random.pick(["scale", "insetBounds", "none"]))""#) }
        if random.chance(60) { fields.append(#""background":"\#(random.pick(["hide", "keep"]))""#) }
        if random.chance(60) { fields.append(#""contentReadyAtLaunch":\#(random.chance(50))"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    mutating func id() -> String { random.pick(ids) }

    /// Mostly real sizes, sometimes ones outside 1…16,384.
    mutating func size() -> String {
        if random.chance(85) {
            return random.pick(["[640,480]", "[720,480]", "[720,576]", "[1280,720]", "[1920,1080]", "[3840,2160]",
                                "[1024,768]", "[800,600]"])
        }
        return random.pick(["[0,720]", "[1280,0]", "[-1,480]", "[16384,16384]", "[16385,1]", "[1,1]",
                            "[999999999,999999999]", "[-999999999,5]"])
    }

    mutating func number(normal: [String], extreme: [String]) -> String {
        random.chance(80) ? random.pick(normal) : random.pick(extreme)
    }

    mutating func mode() -> String {
        if random.chance(20) { return size() }
        var fields = [#""size":\#(size())"#]
        if random.chance(80) {
            fields.append(#""refresh":\#(number(normal: ["60", "50", "59.94", "30", "24", "120", "1"], extreme: ["0", "-60", "1e19", "1000", "1000.5", "1e-300", "1e308"]))"#)
        }
        if random.chance(50) {
            fields.append(#""pixelAspectRatio":\#(number(normal: ["1", "0.8888888888888888", "1.0666666666666667", "0.25", "4"], extreme: ["1e16", "1e-300", "0", "-1", "4.0001", "0.2499", "1e308"]))"#)
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    mutating func connect() -> String {
        var fields = [#""event":"connect""#, #""display":"\#(id())""#]
        if random.chance(50) {
            let preset = random.pick(DisplayCatalog.presets)
            fields.append(#""preset":"\#(preset.name)""#)
            if random.chance(30), !preset.modes.isEmpty, case let mode = random.pick(preset.modes) {
                fields.append(#""current":[\#(mode.size.width),\#(mode.size.height)]"#)
            }
        } else {
            let modes = (0..<random.below(6)).map { _ in mode() }
            fields.append(#""modes":[\#(modes.joined(separator: ","))]"#)
            if random.chance(50) { fields.append(#""preferred":\#(size())"#) }
            if random.chance(40) { fields.append(#""current":\#(size())"#) }
        }
        if random.chance(40) {
            fields.append(#""overscan":\#(number(normal: ["0", "0.025", "0.05", "0.25"], extreme: ["-1", "0.9", "1e308", "0.2500001", "-1e-300", "1e999"]))"#)
        }
        if random.chance(20) { fields.append(#""connection":"\#(random.pick(ConnectionKind.allCases.map(\.rawValue)))""#) }
        if random.chance(10) { fields.append(#""name":"Display \#(random.below(9))""#) }
        return fields.joined(separator: ",")
    }

    /// A new mode list for a display (a browser page resized), sometimes unusable.
    mutating func modesChanged() -> String {
        let modes = (0..<random.below(4)).map { _ in mode() }
        let preferred = random.chance(50) ? #","preferred":\#(size())"# : ""
        return #""event":"modesChanged","display":"\#(id())","modes":[\#(modes.joined(separator: ","))],"#
            + #""current":\#(size())\#(preferred)"#
    }

        mutating func consumer() -> String { random.chance(40) ? "device" : id() }

    mutating func event() -> String {
        switch random.below(26) {
        case 0, 1, 2, 3: return connect()
        case 4, 5: return #""event":"disconnect","display":"\#(id())""#
        case 6:
            guard random.chance(50) else { return modesChanged() }
            return #""event":"modeChanged","display":"\#(id())","mode":\#(size())"#
        case 7: return #""event":"requestMode","display":"\#(id())","mode":\#(size())"#
        case 8: return #""event":"background""#
        case 9: return #""event":"foreground""#
        case 10: return #""event":"suspend""#
        case 11: return #""event":"resume""#
        case 12: return #""event":"contentReady""#
        case 13: return #""event":"mirror","display":"\#(id())""#
        case 14: return #""event":"extend","display":"\#(id())""#
        case 15: return #""event":"modelRunning","running":\#(random.chance(70))"#
        case 16: return #""event":"deviceViewVisible","visible":\#(random.chance(60))"#
        case 17: return #""event":"renderContinuously","display":"\#(id())","on":\#(random.chance(60))"#
        case 18:
            return #""event":"consumerRate","consumer":"\#(consumer())","fps":\#(random.pick(["0", "1", "24", "30", "60", "120", "1000", "0.5"]))"#
        case 19:
            return #""event":"renderCost","consumer":"\#(consumer())","ms":\#(random.pick(["0", "2", "8", "16", "25", "40", "10000", "0.01"]))"#
        case 20:
            let pinned = random.chance(30) ? #","display":"\#(id())""# : ""
            return #""event":"show","item":"\#(random.pick(items))","private":\#(random.chance(30))\#(pinned)"#
        case 21: return #""event":"dismiss","item":"\#(random.pick(items))""#
        case 22: return #""event":"capture","on":\#(random.chance(50))"#
        case 23: return #""event":"rotate","orientation":"\#(random.pick(DeviceOrientation.allCases.map(\.rawValue)))""#
        case 24: return #""event":"deviceContent","empty":\#(random.chance(50))"#
        default:
            // Bursts: the app's common pair, handed in together.
            return #""event":"modelRunning","running":true"#
        }
    }

    /// Makes one step invalid in a way the parser must name: a misspelt field, an out-of-range number, a step
    /// after `end`, an unknown event.
    mutating func corrupt(_ steps: inout [String]) {
        guard !steps.isEmpty else { return }
        let index = random.below(steps.count)
        switch random.below(6) {
        case 0: steps[index] = steps[index].replacingOccurrences(of: #""display""#, with: #""dispaly""#)
        case 1: steps[index] = steps[index].replacingOccurrences(of: #"{"at":"#, with: #"{"at":1e10,"x":"#)
        case 2: steps.insert(#"{"at":0,"event":"end"}"#, at: 0)
        case 3: steps[index] = #"{"at":0,"event":"consumerRate","consumer":"device","fps":1e308}"#
        case 4: steps[index] = #"{"at":0,"event":"renderCost","consumer":"device","ms":-1}"#
        default: steps[index] = #"{"at":0,"event":"teleport"}"#
        }
    }
}
