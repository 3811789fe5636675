import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing

/// The example timing scenarios: refresh runs exactly when it should, ticks and wakeups add up, and the
/// governor removes dropped frames within a second of every load change.
@MainActor
struct TimingScenarioTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Scenarios")

    func run(_ name: String) throws -> SimulationResult {
        let scenario = try ScenarioParser.parse(contentsOf: Self.root.appendingPathComponent(name + ".json"))
        return ScenarioRunner(scenario: scenario).run()
    }

    func commands(_ result: SimulationResult) -> [(Double, String)] {
        result.records.compactMap { record in
            if case .command(let t, let command) = record { (t, command.name) } else { nil }
        }
    }

    func summary(_ result: SimulationResult, _ key: String) -> JSONValue? {
        result.summary.extra.first { $0.0 == key }?.1
    }

    func refreshCommands(_ result: SimulationResult) -> [String] {
        commands(result).filter { $0.1.hasSuffix("Refresh") }.map { "\($0.1)@\(JSONValue.format($0.0))" }
    }

    @Test func sheetOverTheDeviceViewWithNoDisplayStopsTheRefresh() throws {
        let result = try run("timer-sheet-covers-device-no-display")
        #expect(refreshCommands(result) == ["startRefresh@1", "stopRefresh@10", "startRefresh@20"])
        // 60 Hz from 1 s to 10 s and from 20 s to 30 s: 539 + 599 ticks (the tick at the boundary belongs to the next stretch).
        #expect(summary(result, "refreshTicks") == .number(1138))
        #expect(result.violations.isEmpty)
    }

    @Test func displayAttachedWhileCoveredStartsTheRefreshAndUnplugStopsIt() throws {
        let result = try run("timer-display-attached-while-covered")
        #expect(refreshCommands(result) == ["startRefresh@1", "stopRefresh@2", "startRefresh@5", "stopRefresh@15",
                                            "startRefresh@20"])
        #expect(summary(result, "ticksDelivered") == .object([("device", 358), ("projector", 599)]))
    }

    @Test func modelStartedFromAWidgetWhileADisplayIsAttachedStartsTheRefresh() throws {
        let result = try run("timer-started-from-widget")
        #expect(refreshCommands(result) == ["startRefresh@5", "stopRefresh@15", "startRefresh@20", "stopRefresh@25"])
    }

    @Test func oneHertzConsumersSkipTicksInsteadOfStartingTimers() throws {
        let result = try run("timer-one-hertz-label")
        #expect(commands(result).filter { $0.1 == "startRefresh" }.count == 2)
        // One minute at 1 Hz (59 ticks, the 60th falls at the boundary), then 10 s at 60 Hz while the TV keeps 1 Hz:
        // 599 source ticks, of which the TV gets every 60th (9; the 600th falls at the end).
        #expect(summary(result, "ticksDelivered") == .object([("device", 658), ("tv", 68)]))
        #expect(summary(result, "wakeups") == .number(658))
    }

    @Test func aStaticSlideWithAOneHertzClockWakesOncePerSecond() throws {
        let result = try run("static-slide-idle")
        // 59 refresh ticks in a minute, plus 5 s of continuous rendering (300 frame-clock ticks, one on the boundary).
        #expect(summary(result, "wakeups") == .number(358))
    }

    @Test(arguments: ["game-over-budget-one-display", "game-over-budget-two-displays"])
    func governorReachesZeroDroppedFramesWithinASecondOfEveryLoadChange(name: String) throws {
        let result = try run(name)
        let changes = result.records.compactMap { record -> Double? in
            if case .event(let t, _, _, let action) = record, case .renderCost = action { return t }
            if case .event(let t, _, _, .event(.disconnect)) = record { return t }
            return nil
        }
        for record in result.records {
            guard case .interval(let stats) = record, !stats.droppedFrames.isEmpty else { continue }
            let since = changes.filter { $0 <= stats.from + 1e-9 }.max() ?? 0
            #expect(stats.to - since <= 1.0, "frames dropped in [\(stats.from), \(stats.to)) long after the change at \(since)")
        }
        #expect(result.violations.isEmpty)
    }
}
