import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Foundation

/// A seedable random number generator (`SeededRandom`, SplitMix64): the same seed always gives the same cases,
/// on every machine, so a failing seed is a runnable input.
struct SeededGenerator: RandomNumberGenerator {
    private var source: SeededRandom

    init(seed: UInt64) { source = SeededRandom(state: seed) }

    mutating func next() -> UInt64 { source.next() }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// One of `values`, uniformly.
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
}

/// How many random cases a property test runs and from which seed.
///
/// - `EDK_SEED=N` fixes the first case's seed (a failing case prints its own seed: run it alone with
///   `EDK_SEED=<seed> EDK_CASES=1`);
/// - `EDK_CASES=N` runs N cases instead of the test's default (a long fuzz run is `EDK_CASES=100000`).
struct RandomRun {
    let seed: UInt64
    let cases: Int

    init(defaultCases: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        seed = environment["EDK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        cases = environment["EDK_CASES"].flatMap { Int($0) }.map { max($0, 1) } ?? defaultCases
    }

    /// The seed of case `index`: case 0's seed is the run's seed, so `EDK_SEED=<case seed> EDK_CASES=1` runs
    /// exactly that case again.
    func seed(ofCase index: Int) -> UInt64 { seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03 }

    /// Notes the case in flight in a file (`$TMPDIR/edk-case-in-flight-<test>.txt`: the replay command and the scenario), overwritten per case, so that
    /// a trap — which takes the test process down before any message — still leaves its replay command behind.
    static func noteInFlight(_ caseSeed: UInt64, filter: String, _ scenario: Scenario) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("edk-case-in-flight-\(filter).txt")
        let text = replay(caseSeed, filter: filter) + "\n" + RandomScenario.describe(scenario) + "\n"
        try? text.write(to: url, atomically: false, encoding: .utf8)
    }

    /// The command that replays one case.
    static func replay(_ caseSeed: UInt64, filter: String) -> String {
        "EDK_SEED=\(caseSeed) EDK_CASES=1 swift test --skip-build --filter \(filter)"
    }
}

/// Random scenarios over the whole input space of the engine: a few displays (catalog presets and reported
/// ones with typical, boundary, out-of-range and non-finite numbers) coming and going, mode changes and
/// requests (offered or not), every lifecycle transition (legal or not, before launch and while suspended),
/// content readiness, mirroring, timing and presentation events.
///
/// Most sequences launch early (so they test a running app); about one in ten never launches, on purpose.
/// Steps share their time with the step before about half the time, so batches hold several events.
enum RandomScenario {
    static let ids: [DisplayID] = ["a", "b", "c"]

    // Typical values most of the time; boundaries, out-of-range, invalid and non-finite ones the rest.
    static let typicalSizes = [PixelSize(width: 640, height: 480), PixelSize(width: 720, height: 480),
                               PixelSize(width: 1280, height: 720), PixelSize(width: 1920, height: 1080),
                               PixelSize(width: 1024, height: 768), PixelSize(width: 3840, height: 2160)]
    static let extremeDimensions = [1, 2, 3, 16_384, 0, -1, -1_920, 16_385, 100_000, 1 << 30]
    static let typicalAspects = [1.0, 1.0, 8.0 / 9.0, 32.0 / 27.0, 4.0 / 3.0]
    static let extremeAspects: [Double] = [0.25, 4.0, 0, -1, 1e-300, 0.2499, 4.0001, 1e6, .nan, .infinity, -.infinity,
                                           .leastNonzeroMagnitude, 1e16, 1e300, .greatestFiniteMagnitude]
    static let typicalRefresh = [60.0, 59.94, 50, 30, 24, 75, 120]
    static let extremeRefresh: [Double] = [1, 1_000, 0, -1, 0.5, 1_000.5, 1e6, .nan, 1e19, 1e300, .infinity, -.infinity]
    static let overscans = [0.0, 0, 0, 0.025, 0.05, 0.25, -0.1, 0.2501, 0.5, 1, 1e300, .nan, .infinity, -.infinity]
    static let consumerRates = [0.0, 1, 24, 30, 50, 60, 120, 1_000, -1, .nan, .infinity, -.infinity]
    static let frameCosts = [0.0, 1, 4, 8, 16, 25, 40, 100, -1, .nan, .infinity]

    /// A scenario from a seed.
    static func make(seed: UInt64) -> Scenario {
        var rng = SeededGenerator(seed: seed)
        return make(using: &rng)
    }

    /// A scenario from a list of numbers (kept for property tests that draw their input with PropertyBased).
    static func make(_ codes: [Int]) -> Scenario {
        let seed = codes.reduce(UInt64(codes.count)) { ($0 &* 0x100_0000_01B3) ^ UInt64(bitPattern: Int64($1)) }
        return make(seed: seed)
    }

    static func make(using rng: inout SeededGenerator) -> Scenario {
        let policies: [(ModeSelection, JSONValue)] = [
            (.preferred, "preferred"), (.highest, "highest"), (.lowest, "lowest"),
            (.pixelBudget(1_000_000), .object([("maxPixels", 1_000_000)])),
            (.pixelBudget(0), .object([("maxPixels", 0)])),
            (.size(PixelSize(width: 1280, height: 720)), .object([("size", [1280, 720])])),
        ]
        let policy = rng.pick(policies)
        let configuration = DisplayConfiguration(
            modeSelection: policy.0,
            overscanCompensation: rng.pick(OverscanCompensation.allCases),
            background: rng.chance(0.5) ? .hide : .keep,
            contentReadyAtLaunch: rng.chance(0.6))
        let count = Int.random(in: 1...40, using: &rng)
        // 80 %: launch among the first four steps; 10 %: anywhere; 10 %: never (the not-launched state).
        let launchAt: Int? = switch Double.random(in: 0..<1, using: &rng) {
        case ..<0.8: Int.random(in: 0..<min(4, count), using: &rng)
        case ..<0.9: Int.random(in: 0..<count, using: &rng)
        default: nil
        }
        var t = 0.0
        var steps: [ScenarioStep] = []
        for index in 0..<count {
            // About half the steps arrive together with the one before: real multi-event batches.
            if index > 0, !rng.chance(0.5) { t += rng.pick([0.25, 0.5, 1, 2.5]) }
            let action: ScenarioAction = index == launchAt ? .event(.launch)
                : self.action(using: &rng, launchIsScheduled: launchAt != nil)
            steps.append(ScenarioStep(at: t, action))
        }
        return Scenario(configuration: configuration, modeSelectionJSON: policy.1, steps: steps)
    }

    static func action(using rng: inout SeededGenerator, launchIsScheduled: Bool) -> ScenarioAction {
        let id = rng.pick(ids)
        let weights: [(Int, String)] = [
            (6, "connect"), (4, "disconnect"), (2, "modeChanged"), (2, "modesChanged"), (2, "requestMode"), (2, "background"),
            (2, "foreground"), (1, "suspend"), (1, "resume"), (launchIsScheduled ? 0 : 1, "launch"),
            (2, "contentReady"), (1, "mirror"), (1, "extend"), (2, "modelRunning"), (2, "deviceViewVisible"),
            (2, "renderContinuously"), (2, "consumerRate"), (1, "frameCost"), (1, "renderCost"), (1, "show"),
            (1, "dismiss"), (1, "capture"), (1, "rotate"), (1, "deviceContent"),
        ]
        var roll = Int.random(in: 0..<weights.map(\.0).reduce(0, +), using: &rng)
        var kind = weights[0].1
        for (weight, name) in weights {
            if roll < weight { kind = name; break }
            roll -= weight
        }
        let consumer: RefreshConsumer = rng.chance(0.4) ? .device : .display(id)
        switch kind {
        case "connect": return .event(.connect(display(id, using: &rng)))
        case "disconnect": return .event(.disconnect(id))
        case "modeChanged": return .event(.modeChanged(id, mode(using: &rng)))
        case "modesChanged":
            let modes = (0..<Int.random(in: 0...3, using: &rng)).map { _ in mode(using: &rng) }
            let current = rng.chance(0.8) && !modes.isEmpty ? rng.pick(modes) : mode(using: &rng)
            return .event(.modesChanged(id, modes: modes, preferred: rng.chance(0.5) ? modes.first : nil, current: current))
        case "requestMode": return .event(.requestMode(id, size(using: &rng)))
        case "background": return .event(.background)
        case "foreground": return .event(.foreground)
        case "suspend": return .event(.suspend)
        case "resume": return .event(.resume)
        case "launch": return .event(.launch)
        case "contentReady": return .event(.contentReady)
        case "mirror": return .event(.mirror(id))
        case "extend": return .event(.extend(id))
        case "modelRunning": return .event(.modelRunning(rng.chance(0.6)))
        case "deviceViewVisible": return .event(.deviceViewVisible(rng.chance(0.5)))
        case "renderContinuously": return .event(.renderContinuously(id, rng.chance(0.5)))
        case "consumerRate": return .event(.consumerRate(consumer, rng.pick(consumerRates)))
        case "frameCost": return .event(.frameCost([consumer: rng.pick(frameCosts)]))
        case "renderCost": return .renderCost(consumer, rng.pick(frameCosts.filter { $0.isFinite && $0 >= 0 }))
        case "show":
            return .event(.show(item: "item\(Int.random(in: 0..<4, using: &rng))", isPrivate: rng.chance(0.2),
                                display: rng.chance(0.2) ? id : nil))
        case "dismiss": return .event(.dismiss(item: "item\(Int.random(in: 0..<4, using: &rng))"))
        case "capture": return .event(.capture(rng.chance(0.5)))
        case "rotate": return .event(.rotate(rng.pick(DeviceOrientation.allCases)))
        default: return .event(.deviceContent(empty: rng.chance(0.5)))
        }
    }

    /// A display as a platform might report it: half the time a catalog preset, else a list of modes with a
    /// preferred and a current mode (offered or not) and an overscan, any of them out of range.
    static func display(_ id: DisplayID, using rng: inout SeededGenerator) -> Display {
        if rng.chance(0.5) {
            let preset = rng.pick(DisplayCatalog.presets).name
            return DisplayCatalog.display(named: preset, id: id)!
        }
        let modes = (0..<Int.random(in: 0...4, using: &rng)).map { _ in mode(using: &rng) }
        let preferred: DisplayMode? = rng.chance(0.4) ? nil : rng.chance(0.8) && !modes.isEmpty
            ? rng.pick(modes) : mode(using: &rng)
        let current: DisplayMode? = rng.chance(0.6) ? nil : rng.chance(0.7) && !modes.isEmpty
            ? rng.pick(modes) : mode(using: &rng)
        return Display(id: id, modes: modes, preferredMode: preferred, currentMode: current,
                       overscan: rng.pick(overscans))
    }

    static func size(using rng: inout SeededGenerator) -> PixelSize {
        if rng.chance(0.8) { return rng.pick(typicalSizes) }
        let typical = rng.pick(typicalSizes)
        return PixelSize(width: rng.chance(0.6) ? rng.pick(extremeDimensions) : typical.width,
                         height: rng.chance(0.6) ? rng.pick(extremeDimensions) : typical.height)
    }

    static func mode(using rng: inout SeededGenerator) -> DisplayMode {
        DisplayMode(size: size(using: &rng),
                    pixelAspectRatio: rng.chance(0.8) ? rng.pick(typicalAspects) : rng.pick(extremeAspects),
                    refreshRate: rng.chance(0.8) ? rng.pick(typicalRefresh) : rng.pick(extremeRefresh))
    }

    /// The scenario's events grouped by time: steps with the same `at` form one batch (as on a platform,
    /// where they arrive together). Simulator-only steps (`renderCost`, `end`) are left out.
    static func batches(of scenario: Scenario) -> [[DisplayEvent]] {
        var batches: [[DisplayEvent]] = []
        var lastTime: Double?
        for step in scenario.steps {
            guard case .event(let event) = step.action else { continue }
            if step.at == lastTime { batches[batches.count - 1].append(event) } else { batches.append([event]) }
            lastTime = step.at
        }
        return batches
    }

    /// The scenario as readable lines, one batch per line: `t=0.5: launch, connect(a 1920×1080@60 …), …`.
    static func describe(_ scenario: Scenario) -> String {
        var lines = ["configuration: \(scenario.configuration.modeSelection), "
                     + "\(scenario.configuration.overscanCompensation), \(scenario.configuration.background), "
                     + "contentReadyAtLaunch \(scenario.configuration.contentReadyAtLaunch)"]
        var lastTime: Double?
        for step in scenario.steps {
            let text: String = switch step.action {
            case .event(let event): describe(event)
            case .renderCost(let consumer, let ms): "renderCost(\(consumer), \(ms))"
            case .end: "end"
            }
            if step.at == lastTime { lines[lines.count - 1] += ", " + text } else { lines.append("t=\(step.at): \(text)") }
            lastTime = step.at
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ event: DisplayEvent) -> String {
        guard case .connect(let d) = event else { return "\(event)" }
        func spell(_ m: DisplayMode) -> String { "\(m.size.width)×\(m.size.height)@\(m.refreshRate) par \(m.pixelAspectRatio)" }
        return "connect(\(d.id) modes [\(d.modes.map(spell).joined(separator: ", "))] preferred "
            + "\(d.preferredMode.map(spell) ?? "none") current \(spell(d.currentMode)) overscan \(d.overscan))"
    }
}
