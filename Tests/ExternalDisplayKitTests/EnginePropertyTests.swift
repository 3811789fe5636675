import ExternalDisplayKit
import Foundation
import ExternalDisplayTesting
import PropertyBased
import Testing

/// Thousands of random event sequences, bad input included, through the engine: after every batch the
/// state obeys the rules, and the independent trace checker finds nothing in the simulator's trace.
@MainActor
struct EnginePropertyTests {
    static let codes = Gen.int(in: 0...100_000).array(of: 1...40)

    @Test func engineStateObeysTheRulesAfterEveryBatch() async {
        await propertyCheck(count: 3000, input: Self.codes) { codes in
            let scenario = RandomScenario.make(codes)
            var engine = DisplayEngine(configuration: scenario.configuration)
            var batcher = EventBatcher<Int>()
            for (index, step) in scenario.steps.enumerated() {
                guard case .event(let event) = step.action else { continue }
                let batch = batcher.submit(event, tag: index).map(\.event)
                guard !batch.isEmpty else { continue }
                let effects = engine.handle(batch)
                for problem in Self.problems(in: engine) {
                    Issue.record("after \(batch.map(\.name)) (step \(index)) in \(codes): \(problem)")
                }
                if engine.phase == .suspended, batch.allSatisfy({ !$0.isLifecycleEvent }) {
                    #expect(effects.isEmpty)
                }
            }
        }
    }

    @Test func simulatorTracesHoldEveryCheckerInvariant() async {
        await propertyCheck(count: 1000, input: Self.codes) { codes in
            let result = ScenarioRunner(scenario: RandomScenario.make(codes)).run()
            if !result.violations.isEmpty {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("edk-failing-trace.ndjson")
                try? result.ndjson.write(to: path, atomically: true, encoding: .utf8)
                Issue.record("\(codes): \(result.violations) — trace in \(path.path)")
            }
        }
    }

    /// Structural rules checked on the state itself (the checker checks the trace independently).
    static func problems(in engine: DisplayEngine) -> [String] {
        var problems: [String] = []
        let launched = engine.phase != .notLaunched
        let shouldHave = Set(launched ? engine.connectionOrder.filter { !engine.mirrorChoices.contains($0) } : [])
        if Set(engine.windows.keys) != shouldHave {
            problems.append("windows \(engine.windows.keys.sorted()) but connected non-mirrored \(shouldHave.sorted())")
        }
        let visible = engine.phase == .active
            || (engine.configuration.background == .keep && [.background, .suspended].contains(engine.phase))
        for (id, window) in engine.windows {
            if window.isVisible != visible { problems.append("\(id) visible \(window.isVisible) in \(engine.phase)") }
            if window.isVisible, (window.content == .app) != engine.isContentReady {
                problems.append("\(id) shows \(window.content) with content ready \(engine.isContentReady)")
            }
            let clockWanted = window.isVisible && window.content == .app && engine.phase == .active
            if (window.frameClock != nil) != clockWanted { problems.append("\(id) frame clock \(window.frameClock as Any)") }
            if let clock = window.frameClock, clock.isPaused == engine.timing.rendersContinuously.contains(id) {
                problems.append("\(id) clock paused \(clock.isPaused) while continuous \(!clock.isPaused)")
            }
            guard let display = engine.displays[id] else { continue }
            if window.layout != DisplayLayout(mode: display.currentMode, overscan: display.overscan,
                                              compensation: engine.configuration.overscanCompensation) {
                problems.append("\(id) layout \(window.layout) does not match mode \(display.currentMode)")
            }
            if !display.modes.contains(display.currentMode) { problems.append("\(id) in a mode it does not offer") }
        }
        if engine.timing.refreshRate != engine.refreshRule.sourceRate {
            problems.append("refresh \(engine.timing.refreshRate as Any) but the rule says \(engine.refreshRule.sourceRate as Any)")
        }
        return problems
    }
}
