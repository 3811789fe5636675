// Benchmarks for ExternalDisplayKit. Run: swift run -c release edk-bench
// Every figure is a median over repeated runs, and comparisons are measured side by side in the same run.
import ExternalDisplayKit
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

/// A deterministic generator (SplitMix64) so every run handles the same events.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func randomEvents(_ count: Int) -> [DisplayEvent] {
    var rng = SplitMix(state: 42)
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
    .deletingLastPathComponent().appendingPathComponent("Examples/Scenarios")

@MainActor
func run(_ name: String, governed: Bool = true) -> (SimulationResult, minutes: Double) {
    var scenario = try! ScenarioParser.parse(contentsOf: examples.appendingPathComponent(name + ".json"))
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

@MainActor
func main() {
    #if DEBUG
    print("warning: a debug build; run `swift run -c release edk-bench` for real figures\n")
    #endif
    benchmarkEngine()
    benchmarkRefresh()
    benchmarkWakeups()
    benchmarkGovernor()
}

MainActor.assumeIsolated { main() }
