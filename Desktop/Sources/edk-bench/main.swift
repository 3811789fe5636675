// Benchmarks for ExternalDisplayKit. Run: swift run -c release edk-bench
// The long fuzz run (issue 13): swift run -c release edk-bench fuzz 100000 [first-seed]
// Every figure is a median over repeated runs, and comparisons are measured side by side in the same run.
import ExternalDisplayKit
import ExternalDisplaySimulator
import ExternalDisplayTesting
import Foundation

/// Median of `runs` timings of `body`, in nanoseconds per `operations`.
func measure(runs: Int = 9, operations: Int, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let end = DispatchTime.now().uptimeNanoseconds
        samples.append(Double(end - start) / Double(operations))
    }
    samples.sort()
    return samples[samples.count / 2]
}

func randomEvents(_ count: Int) -> [DisplayEvent] {
    var rng = SeededRandom(state: 42)
    let ids: [DisplayID] = ["a", "b", "c", "d"]
    let presets = DisplayCatalog.presets
    return (0..<count).map { _ in
        let id = ids.randomElement(using: &rng)!
        switch Int.random(in: 0..<10, using: &rng) {
        case 0, 1: return .connect(DisplayCatalog.display(named: presets.randomElement(using: &rng)!.name, id: id)!)
        case 2, 3: return .disconnect(id)
        case 4: return .modeChanged(id, DisplayMode(width: 1280, height: 720))
        case 5: return Bool.random(using: &rng) ? .background : .foreground
        case 6: return .modelRunning(Bool.random(using: &rng))
        case 7: return .renderContinuously(id, Bool.random(using: &rng))
        case 8: return Bool.random(using: &rng) ? .mirror(id) : .extend(id)
        default: return .deviceViewVisible(Bool.random(using: &rng))
        }
    }
}

/// A frame clock ticked by hand, to time the refresh coordinator's own work.
@MainActor
final class ManualClock: FrameClock {
    let maximumFramesPerSecond: Double = 60
    private(set) var framesPerSecond: Double = 0
    private(set) var isRunning = false
    private(set) var isPaused = false
    private var onTick: (@MainActor (FrameTick) -> Void)?
    func start(preferredFramesPerSecond: Double, paused: Bool, onTick: @escaping @MainActor (FrameTick) -> Void) {
        framesPerSecond = effectiveRate(for: preferredFramesPerSecond)
        isRunning = true
        isPaused = paused
        self.onTick = onTick
    }
    func pause() { isPaused = true }
    func resume() { isPaused = false }
    func stop() { isRunning = false }
    func fire(_ n: Int) {
        for i in 0..<n { onTick?(FrameTick(timestamp: Double(i), targetTimestamp: Double(i + 1), duration: 1 / 60)) }
    }
}

@MainActor
func benchmarkEngine() {
    print("## Engine")
    let events = randomEvents(100_000)
    let perEvent = measure(operations: events.count) {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        for event in events { _ = engine.handle([event]) }
    }
    print(String(format: "events handled per second (one event per batch, random mix): %.0f  (%.0f ns/event)",
                 1e9 / perEvent, perEvent))
    let tv = DisplayCatalog.display(named: "hdmi-tv-1080p", id: "tv")!
    let cycles = 20_000
    let perCycle = measure(operations: cycles) {
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        for _ in 0..<cycles {
            _ = engine.handle([.connect(tv)])
            _ = engine.handle([.disconnect("tv")])
        }
    }
    print(String(format: "connect → attached → disconnect cycle (two batches, 1080p TV): %.0f ns", perCycle))
}

@MainActor
func benchmarkRefresh() {
    print("\n## Shared refresh tick")
    for consumers in [1, 2, 4] {
        let clock = ManualClock()
        let refresh = RefreshCoordinator(source: clock)
        let ids = (0..<consumers - 1).map { DisplayID("d\($0)") }
        var sink = 0
        refresh.setHandler(for: .device) { _ in sink &+= 1 }
        for id in ids { refresh.setHandler(for: .display(id)) { _ in sink &+= 1 } }
        refresh.apply(RefreshRule(isModelRunning: true, isAppActive: true, isDeviceViewVisible: true,
                                  displaysShowingContent: ids, rates: [:],
                                  displayRefresh: Dictionary(uniqueKeysWithValues: ids.map { ($0, 60.0) })))
        let ticks = 200_000
        let perTick = measure(operations: ticks) { clock.fire(ticks) }
        print(String(format: "%d consumer%@: %.0f ns per tick", consumers, consumers == 1 ? "" : "s", perTick))
        precondition(sink > 0)
    }
}

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }

let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Scenarios")

@MainActor
func run(_ name: String, governed: Bool = true) -> (SimulationResult, minutes: Double) {
    let file = examples.appendingPathComponent(name + ".json")
    var scenario: Scenario
    do { scenario = try ScenarioParser.parse(contentsOf: file) } catch {
        // A missing or damaged example is a message, not a trap.
        let message = Array("edk-bench: \(file.path): \(error)\n".utf8)
        _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(1)
    }
    scenario.configuration.governsFrameBudget = governed
    let minutes = (scenario.steps.last?.at ?? 60) / 60
    return (ScenarioRunner(scenario: scenario).run(), minutes)
}

@MainActor
func benchmarkWakeups() {
    print("\n## Wakeups per minute (this package vs. a display link per external display that always runs)")
    print("scenario                                   package    naive   ratio")
    for name in ["static-slide-idle", "timer-one-hertz-label", "timer-sheet-covers-device-no-display",
                 "timer-display-attached-while-covered", "timer-started-from-widget", "launch-with-tv-attached",
                 "plug-and-unplug-during-a-talk"] {
        let (result, minutes) = run(name)
        let ours = Double(result.wakeups) / minutes, naive = Double(result.naiveWakeups) / minutes
        print(pad(name, 40) + String(format: " %9.0f %8.0f   ", ours, naive)
              + (ours > 0 ? String(format: "%.1f×", naive / ours) : "∞ (0 wakeups)"))
    }
}

@MainActor
func benchmarkGovernor() {
    print("\n## Dropped frames per minute (governor vs. fixed full quality)")
    print("scenario                                 governor    fixed")
    for name in ["game-over-budget-one-display", "game-over-budget-two-displays"] {
        let (governed, minutes) = run(name)
        let (fixed, _) = run(name, governed: false)
        print(pad(name, 40) + String(format: " %8.1f %8.1f", Double(governed.droppedFrames) / minutes,
                                     Double(fixed.droppedFrames) / minutes))
    }
}

/// Issue 13: simulator cost grows with events and informative intervals, not with virtual time.
@MainActor
func benchmarkIdleTime() {
    print("\n## Simulator cost of idle virtual time (launch, then end at t)")
    print("virtual seconds      wall time")
    for seconds in [1e3, 1e5, 1e6, 1e9] {
        let scenario = Scenario(steps: [ScenarioStep(at: 0, .event(.launch)), ScenarioStep(at: seconds, .end)])
        let perRun = measure(operations: 1) { _ = ScenarioRunner(scenario: scenario).run() }
        print(pad(String(format: "%.0e", seconds), 20) + String(format: " %8.3f ms", perRun / 1e6))
    }
    let tv = Scenario(steps: [
        ScenarioStep(at: 0, .event(.launch)),
        ScenarioStep(at: 0, .event(.connect(DisplayCatalog.display(named: "hdmi-tv-1080p", id: "tv")!))),
        ScenarioStep(at: 1e6, .end),
    ])
    let perRun = measure(runs: 3, operations: 1) { _ = ScenarioRunner(scenario: tv).run() }
    print(pad("1e+06 with a TV", 20) + String(format: " %8.3f ms  (window shown, clock paused, model stopped)",
                                               perRun / 1e6))
}

/// The long fuzz run: `swift run -c release edk-bench fuzz [count] [first-seed]`.
@MainActor
func fuzz(count: Int, firstSeed: UInt64) -> Int32 {
    let start = DispatchTime.now().uptimeNanoseconds
    var passed = 0, refused = 0, failures = 0
    for offset in 0..<count {
        let seed = firstSeed &+ UInt64(offset)
        let json = ScenarioFuzzer.scenario(seed: seed)
        switch ScenarioFuzzer.run(json) {
        case .passed: passed += 1
        case .refused: refused += 1
        case .contradiction(let violations):
            failures += 1
            print("seed \(seed): \(violations.first ?? "")\n\(json)")
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("fuzz: \(count) scenarios from seed \(firstSeed) in \(String(format: "%.0f", seconds)) s: \(passed) simulated "
          + "and accepted by the checker, \(refused) refused with a message (exit 2), \(failures) contradictions, "
          + "0 crashes (the process is still running)")
    return failures == 0 ? 0 : 1
}

@MainActor
func main() -> Int32 {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.first == "fuzz" {
        let count = arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
        let seed = arguments.dropFirst(2).first.flatMap { UInt64($0) } ?? 1
        return fuzz(count: count, firstSeed: seed)
    }
    #if DEBUG
    print("warning: a debug build; run `swift run -c release edk-bench` for real figures\n")
    #endif
    benchmarkEngine()
    benchmarkRefresh()
    benchmarkWakeups()
    benchmarkGovernor()
    benchmarkIdleTime()
    return 0
}

exit(MainActor.assumeIsolated { main() })
