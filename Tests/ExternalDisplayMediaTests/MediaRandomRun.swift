import ExternalDisplayTesting
import Foundation

/// How many random cases a media property test runs and from which seed, with the engine tests' conventions:
/// `EDK_SEED=N` fixes the first case's seed (a failing case prints its own seed, replayed alone with
/// `EDK_SEED=<seed> EDK_CASES=1`), `EDK_CASES=N` runs N cases instead of the default.
struct MediaRandomRun {
    let seed: UInt64
    let cases: Int

    init(defaultCases: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        seed = environment["EDK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        cases = environment["EDK_CASES"].flatMap { Int($0) }.map { max($0, 1) } ?? defaultCases
    }

    /// The seed of case `index`; case 0's is the run's seed.
    func seed(ofCase index: Int) -> UInt64 { seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03 }

    /// The command that replays one case.
    static func replay(_ caseSeed: UInt64, test: String) -> String {
        "EDK_SEED=\(caseSeed) EDK_CASES=1 swift test --skip-build --filter 'ExternalDisplayMediaTests.*\(test)'"
    }
}

extension SeededRandom {
    /// One of `values`, uniformly.
    mutating func pick<T>(from values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}
