import ExternalDisplayTesting
import Foundation
import Testing

/// Issue 13: thousands of random scenarios over the whole grammar, end to end through the simulator and the
/// checker. Zero crashes (a trap ends the test process), zero self-contradictions (the checker rejecting the
/// engine), no scenario past a generous hang guard, and every refusal a clear message naming the step or field.
///
/// `EDK_FUZZ_COUNT=N` runs N scenarios (default 3,000); `EDK_FUZZ_SEED=S` starts at seed S (default: a fixed seed,
/// so CI is reproducible; the seeds of a run are S, S+1, …); `EDK_FUZZ_VERBOSE=1` prints each scenario before it
/// runs (to find the one that traps). A failure prints the seed and the scenario JSON, ready for
/// `extdisplay simulate`.
@MainActor
@Suite struct ScenarioFuzzTests {
    static var count: Int { ProcessInfo.processInfo.environment["EDK_FUZZ_COUNT"].flatMap(Int.init) ?? 3_000 }
    static var firstSeed: UInt64 {
        ProcessInfo.processInfo.environment["EDK_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_123
    }

    @Test func randomScenariosNeverCrashHangOrContradictTheEngine() {
        let verbose = ProcessInfo.processInfo.environment["EDK_FUZZ_VERBOSE"] != nil
        var passed = 0, refused = 0, failures = 0
        for offset in 0..<Self.count {
            let seed = Self.firstSeed &+ UInt64(offset)
            let json = ScenarioFuzzer.scenario(seed: seed)
            if verbose { print("fuzz seed \(seed): \(json)") }
            let start = Date()
            let outcome = ScenarioFuzzer.run(json)
            // A hang detector, not a speed test: no scenario of ≤ 26 steps may take this long.
            let hangGuard = 30.0
            if Date().timeIntervalSince(start) > hangGuard {
                Issue.record("seed \(seed) ran past the \(hangGuard) s hang guard; scenario:\n\(json)")
                failures += 1
            }
            switch outcome {
            case .passed:
                passed += 1
            case .refused(let message):
                refused += 1
                // A refusal must say where: a step or field, or the top level's problem.
                if !(message.contains("step") || message.contains("field") || message.contains("JSON")) {
                    Issue.record("seed \(seed): refusal without a location: \(message)\nscenario:\n\(json)")
                    failures += 1
                }
            case .contradiction(let violations):
                failures += 1
                let shown = violations.prefix(5).joined(separator: "\n  ")
                Issue.record("seed \(seed): the checker rejects the engine's trace:\n  \(shown)\nscenario:\n\(json)")
            }
            if failures >= 5 { break }
        }
        print("fuzz: \(Self.count) scenarios from seed \(Self.firstSeed): \(passed) simulated and accepted, "
              + "\(refused) refused with a message, \(failures) failures")
        // The generator must reach the engine in most scenarios, or the test proves little.
        #expect(passed * 10 >= Self.count * 7, "only \(passed) of \(Self.count) scenarios were simulated")
    }
}
