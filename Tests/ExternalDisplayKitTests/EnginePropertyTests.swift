import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import PropertyBased
import Testing

/// Thousands of random scenarios (``RandomScenario``), bad input included, through the engine batch by batch,
/// judged against ``EngineOracle`` — a model of the documented rules written for these tests, sharing no code
/// with the engine — and through the simulator and its independent trace checker.
///
/// Each case has a seed; a failure prints it with the command that replays it (`EDK_SEED=… EDK_CASES=1`).
/// `EDK_CASES=N` runs more cases.
@MainActor
struct EnginePropertyTests {
    /// Random input for property tests that draw a list of numbers (``RandomScenario/make(_:)``).
    static let codes = Gen.int(in: 0...100_000).array(of: 1...40)

    @Test func engineStateObeysTheDocumentedRulesAfterEveryBatch() {
        let run = RandomRun(defaultCases: 3000)
        var launched = 0, multiEventBatches = 0
        for index in 0..<run.cases {
            let seed = run.seed(ofCase: index)
            let scenario = RandomScenario.make(seed: seed)
            RandomRun.noteInFlight(seed, filter: "engineStateObeysTheDocumentedRulesAfterEveryBatch", scenario)
            var engine = DisplayEngine(configuration: scenario.configuration)
            var oracle = EngineOracle(configuration: scenario.configuration)
            var problems: [String] = []
            for (number, batch) in RandomScenario.batches(of: scenario).enumerated() {
                if batch.count > 1 { multiEventBatches += 1 }
                let effects = engine.handle(batch)
                let expected = oracle.apply(batch)
                problems += oracle.problems(engine: engine, effects: effects, expected: expected)
                    .map { "batch \(number) \(batch.map(\.name)): \($0)" }
                if !problems.isEmpty { break }
            }
            if oracle.phase != .notLaunched { launched += 1 }
            if !problems.isEmpty {
                Issue.record("""
                    case \(index), seed \(seed): \(problems.joined(separator: "; "))
                    replay: \(RandomRun.replay(seed, filter: "engineStateObeysTheDocumentedRulesAfterEveryBatch"))
                    scenario:
                    \(RandomScenario.describe(scenario))
                    """)
                return
            }
        }
        // The generator's promises: most sequences launch, and batches hold several events.
        if run.cases >= 100 {
            #expect(Double(launched) / Double(run.cases) > 0.8, "only \(launched) of \(run.cases) sequences launched")
            #expect(multiEventBatches > run.cases, "only \(multiEventBatches) multi-event batches")
        }
    }

    @Test func simulatorTracesHoldEveryCheckerInvariant() {
        let run = RandomRun(defaultCases: 1000)
        for index in 0..<run.cases {
            let seed = run.seed(ofCase: index)
            var scenario = RandomScenario.make(seed: seed)
            // Measured frame costs are the simulator's own output (scenarios spell the cost model, `renderCost`).
            scenario.steps.removeAll { if case .event(.frameCost) = $0.action { true } else { false } }
            RandomRun.noteInFlight(seed, filter: "simulatorTracesHoldEveryCheckerInvariant", scenario)
            let result = ScenarioRunner(scenario: scenario).run()
            guard !result.violations.isEmpty else { continue }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("edk-failing-trace-\(seed).ndjson")
            try? result.ndjson.write(to: path, atomically: true, encoding: .utf8)
            let report = """
                case \(index), seed \(seed): \(result.violations)
                trace in \(path.path)
                replay: \(RandomRun.replay(seed, filter: "simulatorTracesHoldEveryCheckerInvariant"))
                scenario:
                \(RandomScenario.describe(scenario))
                """
            Issue.record(Comment(rawValue: report))
            return
        }
    }

    /// Found by `simulatorTracesHoldEveryCheckerInvariant` (seed 9055528704269341372): the governor had halved a
    /// 75 Hz display's frame clock to 37.5 fps; a `modesChanged` then left it at 24 Hz and the clock restarted at
    /// the old governed rate, above the new refresh. A change of refresh now drops the governed rate (engine) and
    /// the checker forgets it too.
    @Test func aRefreshChangeDropsTheGovernedFrameRate() {
        var scenario = RandomScenario.make(seed: 9_055_528_704_269_341_372)
        scenario.steps.removeAll { if case .event(.frameCost) = $0.action { true } else { false } }
        let result = ScenarioRunner(scenario: scenario).run()
        #expect(result.violations.isEmpty, "\(result.violations)")
        #expect(result.ndjson.contains("\"name\":\"modesChanged\""), "the case still has its modesChanged")
    }

    @Test func theOracleAgreesWithHandWorkedLayouts() {
        // Worked by hand from ChoosingAModeAndOverscan.md, independently of both the engine and the oracle.
        let tv = DisplayMode(width: 1280, height: 720)
        #expect(EngineOracle.layout(tv, overscan: 0.025, .none) == [[0, 0, 1280, 720], [32, 18, 1216, 684]])
        #expect(EngineOracle.layout(tv, overscan: 0.025, .insetBounds) == [[0, 0, 1216, 684], [0, 0, 1216, 684]])
        #expect(EngineOracle.layout(tv, overscan: 0.025, .scale) == [[0, 0, 1280, 720], [0, 0, 1280, 720]])
        let ntsc = DisplayMode(width: 720, height: 480, pixelAspectRatio: 8.0 / 9.0, refreshRate: 59.94)
        #expect(EngineOracle.layout(ntsc, overscan: 0, .none) == [[0, 0, 640, 480], [0, 0, 640, 480]])
        #expect(EngineOracle.layout(ntsc, overscan: 0.05, .insetBounds) == [[0, 0, 576, 432], [0, 0, 576, 432]])
        #expect(EngineOracle.layout(tv, overscan: 0.9, .none) == [[0, 0, 1280, 720], [320, 180, 640, 360]])
        #expect(EngineOracle.layout(tv, overscan: .nan, .insetBounds) == [[0, 0, 1280, 720], [0, 0, 1280, 720]])
    }
}

/// The engine's documented rules as a model of its own (TheEngineRules.md, ChoosingAModeAndOverscan.md,
/// FrameTiming.md, the README's decisions and the numeric ranges): which displays are connected and usable,
/// the app's phase, mirroring, content readiness and the refresh inputs, tracked from the events alone. It
/// never calls the engine's layout or refresh code; it reads the engine's state only to judge it.
struct EngineOracle {
    let configuration: DisplayConfiguration
    var phase: AppPhase = .notLaunched
    var queued: [DisplayEvent] = []
    /// Connected usable displays: their usable modes and overscan after the documented clamping.
    var connected: [DisplayID: (modes: [DisplayMode], overscan: Double)] = [:]
    var order: [DisplayID] = []
    var mirrored: Set<DisplayID> = []
    var contentReady: Bool
    var modelRunning = false
    var deviceViewVisible = true
    var continuous: Set<DisplayID> = []
    var rates: [RefreshConsumer: Double] = [:]

    init(configuration: DisplayConfiguration) {
        self.configuration = configuration
        contentReady = configuration.contentReadyAtLaunch
    }

    /// What one batch must produce, beyond the state: events (by index in the batch) that are bad input and
    /// need a diagnostic, and whether the batch may emit nothing at all (queued while suspended).
    struct Expectation {
        var refused: [Int] = []
        var silent = false
        var commandsAllowed = true
    }

    // MARK: Rules on input

    /// A usable mode: inside the documented ranges (AcceptedValues.md: 1…16,384 px; pixel aspect ratio 0.25…4;
    /// refresh 1…1,000 Hz — 0, "unknown", is refused).
    func isUsable(_ m: DisplayMode) -> Bool {
        let (w, h, par, hz) = (m.size.width, m.size.height, m.pixelAspectRatio, m.refreshRate)
        return (1...16_384).contains(w) && (1...16_384).contains(h) && par.isFinite && (0.25...4).contains(par)
            && hz.isFinite && (1...1_000).contains(hz)
    }

    /// Overscan per edge: finite in 0…0.25; above → 0.25; negative or non-finite → 0.
    static func clampedOverscan(_ f: Double) -> Double { f.isFinite ? min(max(f, 0), 0.25) : 0 }

    /// The lifecycle's legal transitions (TheEngineRules.md, "The app's lifecycle").
    static func phase(after event: DisplayEvent, from phase: AppPhase) -> AppPhase? {
        switch (event, phase) {
        case (.launch, .notLaunched): .active
        case (.background, .active): .background
        case (.foreground, .background): .active
        case (.suspend, .background): .suspended
        case (.resume, .suspended): .background
        default: nil
        }
    }

    /// Applies a batch; returns what it must produce beyond the state.
    mutating func apply(_ batch: [DisplayEvent]) -> Expectation {
        var expectation = Expectation()
        expectation.silent = phase == .suspended && batch.allSatisfy { !$0.isLifecycleEvent }
        for (index, event) in batch.enumerated() {
            if phase == .suspended, !event.isLifecycleEvent {
                queued.append(event)
                continue
            }
            if !apply(event) { expectation.refused.append(index) }
            if case .resume = event, phase == .background {
                let late = queued
                queued = []
                for event in late { _ = apply(event) }  // their diagnostics carry the resume's index
            }
        }
        expectation.commandsAllowed = phase != .notLaunched
        return expectation
    }

    /// Applies one event; false when it is bad input the engine must diagnose and ignore.
    mutating func apply(_ event: DisplayEvent) -> Bool {
        switch event {
        case .launch, .background, .foreground, .suspend, .resume:
            guard let next = Self.phase(after: event, from: phase) else { return false }
            phase = next
        case .connect(let display):
            let usable = display.modes.filter(isUsable)
            guard connected[display.id] == nil, !usable.isEmpty else { return false }
            connected[display.id] = (usable, Self.clampedOverscan(display.overscan))
            order.append(display.id)
        case .disconnect(let id):
            guard connected[id] != nil else { return false }
            connected[id] = nil
            order.removeAll { $0 == id }
        case .modeChanged(let id, let mode):
            guard let display = connected[id], display.modes.contains(where: { $0.size == mode.size }) else { return false }
        case .modesChanged(let id, let modes, _, _):
            let usable = modes.filter(isUsable)
            guard let display = connected[id], !usable.isEmpty else { return false }
            connected[id] = (usable, display.overscan)
        case .requestMode(let id, let size):
            guard phase != .notLaunched, let display = connected[id], display.modes.contains(where: { $0.size == size }),
                  !mirrored.contains(id) else { return false }
        case .contentReady:
            contentReady = true
        case .mirror(let id):
            mirrored.insert(id)
        case .extend(let id):
            guard mirrored.remove(id) != nil else { return false }
        case .modelRunning(let running):
            modelRunning = running
        case .deviceViewVisible(let visible):
            deviceViewVisible = visible
        case .renderContinuously(let id, let on):
            if on { continuous.insert(id) } else { continuous.remove(id) }
        case .consumerRate(let consumer, let fps):
            guard fps.isFinite, (0...1_000).contains(fps) else { return false }   // AcceptedValues.md
            rates[consumer] = fps
        case .frameCost(let costs):
            return costs.values.allSatisfy { $0.isFinite && $0 >= 0 }
        case .show, .dismiss, .capture, .rotate, .deviceContent:
            break
        }
        return true
    }

    // MARK: What the state must be

    /// Displays that must have the app's window: connected, usable, not mirrored, once launched.
    var windowed: [DisplayID] { phase == .notLaunched ? [] : order.filter { !mirrored.contains($0) } }

    var windowsVisible: Bool {
        phase == .active || (configuration.background == .keep && (phase == .background || phase == .suspended))
    }

    /// A window's frame and safe frame, `[[x, y, w, h], [x, y, w, h]]`, from ChoosingAModeAndOverscan.md:
    /// `W = round(width × pixel aspect ratio)`, `H = height`, `h = round(f × W)`, `v = round(f × H)`;
    /// scale: both `[0, 0, W, H]`; insetBounds: both `[0, 0, W − 2h, H − 2v]`; none: frame `[0, 0, W, H]`,
    /// safe frame `[h, v, W − 2h, H − 2v]`. In Double, so that no input can trap the oracle itself.
    static func layout(_ mode: DisplayMode, overscan: Double, _ compensation: OverscanCompensation) -> [[Double]] {
        let w = max(1, (Double(mode.size.width) * mode.pixelAspectRatio).rounded()), h = Double(mode.size.height)
        let f = clampedOverscan(overscan)
        // Never more than ⌊(W − 1) / 2⌋ per edge, so a frame keeps at least one point.
        let dx = min((f * w).rounded(), ((w - 1) / 2).rounded(.down))
        let dy = min((f * h).rounded(), ((h - 1) / 2).rounded(.down))
        let full = [0, 0, w, h], inset = [0, 0, w - 2 * dx, h - 2 * dy]
        switch compensation {
        case .scale: return [full, full]
        case .insetBounds: return [inset, inset]
        case .none: return [full, [dx, dy, w - 2 * dx, h - 2 * dy]]
        }
    }

    static func components(_ layout: DisplayLayout) -> [[Double]] {
        [layout.frame.components.map(Double.init), layout.safeFrame.components.map(Double.init)]
    }

    /// The shared refresh tick's rate (FrameTiming.md, "One refresh tick"; RefreshRule's documentation): it
    /// runs while the model runs, the app is active and a visible consumer — the device view, or a display
    /// showing app content — wants ticks; at the highest rate a visible consumer asks for. The device asks 60
    /// unless it set a rate; a display its refresh rate (or the governor's lower rate), and a rate it sets is
    /// capped there (none: the refresh rate; 0: no ticks). `nil`: stopped. `refresh` gives each showing display's rate.
    func refreshRate(showing: [DisplayID], refresh: [DisplayID: Double]) -> Double? {
        guard modelRunning, phase == .active else { return nil }
        var wanted: [Double] = []
        if deviceViewVisible { wanted.append(rates[.device] ?? 60) }
        for id in showing {
            let limit = refresh[id] ?? 60
            let asked = rates[.display(id)] ?? limit
            wanted.append(min(asked, limit))   // a rate of 0 asks for no ticks
        }
        guard wanted.contains(where: { $0 > 0 }) else { return nil }
        return wanted.max()
    }

    /// Everything about the engine's state and the batch's effects that contradicts the rules.
    func problems(engine: DisplayEngine, effects: [EngineEffect], expected: Expectation) -> [String] {
        var problems: [String] = []
        let commands = effects.compactMap { if case .command(let c) = $0 { c } else { nil } }
        let diagnostics = effects.compactMap { if case .diagnostic(let d) = $0 { d } else { nil } }
        if engine.phase != phase { problems.append("phase \(engine.phase), the rules say \(phase)") }
        if expected.silent, !effects.isEmpty { problems.append("acted while suspended: \(effects.map(spell))") }
        if !expected.commandsAllowed, !commands.isEmpty { problems.append("commands before launch: \(commands)") }
        for index in expected.refused where !diagnostics.contains(where: { $0.eventIndex == index }) {
            problems.append("bad input at index \(index) got no diagnostic")
        }
        if Set(engine.windows.keys) != Set(windowed) {
            problems.append("windows \(engine.windows.keys.sorted()), the rules say \(windowed.sorted())")
        }
        // Commands and notifications agree with each other.
        let created = Set(commands.compactMap { if case .createWindow(let id, _) = $0 { id } else { nil } })
        let destroyed = Set(commands.compactMap { if case .destroyWindow(let id) = $0 { id } else { nil } })
        let attached = Set(effects.compactMap { if case .notification(.didAttach(let a)) = $0 { a.display.id } else { nil } })
        let detached = Set(effects.compactMap { if case .notification(.didDetach(let id, _)) = $0 { id } else { nil } })
        if created != attached { problems.append("created \(created.sorted()) but didAttach \(attached.sorted())") }
        if destroyed != detached { problems.append("destroyed \(destroyed.sorted()) but didDetach \(detached.sorted())") }

        var showing: [DisplayID] = []
        var refresh: [DisplayID: Double] = [:]
        for id in windowed {
            guard let window = engine.windows[id], let reported = connected[id] else { continue }
            problems += windowProblems(id, window, reported, commands)
            if window.isVisible, contentReady, phase == .active {
                showing.append(id)
                refresh[id] = window.governedFrameRate ?? window.display.currentMode.refreshRate
            }
        }
        // A display of unknown refresh (0, accepted by the ranges) has no documented tick rate yet: not judged.
        if !refresh.values.contains(0) {
            let want = refreshRate(showing: showing, refresh: refresh)
            if engine.timing.refreshRate != want {
                problems.append("refresh \(String(describing: engine.timing.refreshRate)), rules \(String(describing: want))")
            }
        }
        return problems
    }

    /// One window against the rules: its mode, its layout (and the batch's create/layout commands for it),
    /// visibility, content and frame clock.
    func windowProblems(_ id: DisplayID, _ window: WindowState, _ reported: (modes: [DisplayMode], overscan: Double),
                        _ commands: [DisplayCommand]) -> [String] {
        var problems: [String] = []
        let mode = window.display.currentMode
        if !reported.modes.contains(mode) {
            problems.append("\(id) is in \(mode), not one of its usable modes \(reported.modes)")
        }
        let want = Self.layout(mode, overscan: reported.overscan, configuration.overscanCompensation)
        let got = Self.components(window.layout)
        if got != want { problems.append("\(id) in \(mode) overscan \(reported.overscan): layout \(got), rules \(want)") }
        if got.joined().contains(where: { $0 < 0 }) { problems.append("\(id): negative frame \(got)") }
        for case let .createWindow(cid, layout) in commands where cid == id && Self.components(layout) != want {
            problems.append("createWindow \(id) \(Self.components(layout)), rules \(want)")
        }
        for case let .layoutWindow(cid, layout) in commands where cid == id && Self.components(layout) != want {
            problems.append("layoutWindow \(id) \(Self.components(layout)), rules \(want)")
        }
        if window.isVisible != windowsVisible { problems.append("\(id) visible \(window.isVisible) in \(phase)") }
        let content: SurfaceContent = contentReady ? .app : .placeholder
        if window.isVisible, window.content != content {
            problems.append("\(id) shows \(window.content), content ready \(contentReady)")
        }
        let clockWanted = window.isVisible && content == .app && phase == .active
        if (window.frameClock != nil) != clockWanted { problems.append("\(id) frame clock \(String(describing: window.frameClock))") }
        if let clock = window.frameClock, clock.isPaused == continuous.contains(id) {
            problems.append("\(id) clock paused \(clock.isPaused), renders continuously \(continuous.contains(id))")
        }
        return problems
    }
}
