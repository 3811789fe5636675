import DesktopModeState
import ExternalDisplayTesting
import Foundation
import Testing

/// The one decision between the presenter's clean stop and the mode-restore exit hooks on SIGINT, SIGTERM,
/// SIGHUP and SIGQUIT (``ExitSignalPolicy``): expected actions written out by hand, and 2,000 random event orders
/// checked against rules stated independently of the code (one exit at most, nothing after it, one stop asked).
struct ExitSignalPolicyTests {
    typealias Action = ExitSignalPolicy.Action
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    @Test func withoutACleanStopEverySignalRestoresAndExitsWithItsStatusOnce() {
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)] {
            var policy = ExitSignalPolicy()
            #expect(policy.signal(signal) == [.restoreAndExit(status: status)])
            #expect(policy.isExiting && policy.pending == nil)
            #expect(policy.signal(signal) == [], "a second exit while the first restores")
            #expect(policy.deadlinePassed(signal) == [])
        }
    }

    @Test func aSignalGoesToTheReadyCleanStopAndASecondOneRestoresAndExits() {
        var policy = ExitSignalPolicy()
        policy.captureForCleanStop(Self.stopSignals)
        #expect(policy.cleanStopReady() == [])
        #expect(policy.signal(SIGTERM) == [.askCleanStop(SIGTERM), .armDeadline(SIGTERM)])
        #expect(!policy.isExiting && policy.pending == SIGTERM)
        #expect(policy.signal(SIGINT) == [.restoreAndExit(status: 130)])
        #expect(policy.isExiting)
        #expect(policy.deadlinePassed(SIGTERM) == [], "the deadline after the exit began")
    }

    @Test func aSignalBeforeTheCleanStopIsReadyAsksItOnceItIs() {
        var policy = ExitSignalPolicy()
        policy.captureForCleanStop(Self.stopSignals)
        #expect(policy.signal(SIGHUP) == [.armDeadline(SIGHUP)])
        #expect(policy.cleanStopReady() == [.askCleanStop(SIGHUP)])
        #expect(!policy.isExiting)
    }

    @Test func aCleanStopThatDoesNotEndTheProcessInTimeIsOverriddenByTheHooks() {
        var policy = ExitSignalPolicy()
        policy.captureForCleanStop(Self.stopSignals)
        _ = policy.cleanStopReady()
        _ = policy.signal(SIGINT)
        #expect(policy.deadlinePassed(SIGTERM) == [], "a deadline nobody armed")
        #expect(policy.deadlinePassed(SIGINT) == [.restoreAndExit(status: 130)])
        // The talk ended and the process is exiting: a late deadline does nothing.
        var ended = ExitSignalPolicy()
        ended.captureForCleanStop(Self.stopSignals)
        _ = ended.cleanStopReady()
        _ = ended.signal(SIGTERM)
        ended.cleanStopGone()
        ended.exitStarted()
        #expect(ended.deadlinePassed(SIGTERM) == [])
        #expect(ended.signal(SIGTERM) == [])
    }

    @Test func sigquitAndSignalsAfterTheTalkEndedRestoreAndExitAtOnce() {
        var policy = ExitSignalPolicy()
        policy.captureForCleanStop(Self.stopSignals)
        _ = policy.cleanStopReady()
        #expect(policy.signal(SIGQUIT) == [.restoreAndExit(status: 131)])
        var after = ExitSignalPolicy()
        after.captureForCleanStop(Self.stopSignals)
        _ = after.cleanStopReady()
        after.cleanStopGone()
        #expect(after.signal(SIGTERM) == [.restoreAndExit(status: 143)])
    }

    /// Random orders of every event, including signal numbers outside the handled ones (0, negative, 64).
    @Test func randomEventOrdersNeverExitTwiceNorActAfterTheExit() {
        let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, 0, -1, 64]
        for seed in UInt64(1)...2_000 {
            var random = SeededRandom(state: seed)
            var policy = ExitSignalPolicy()
            var log: [String] = []
            var exits = 0, asks = 0, exited = false, ready = false, captured = Set<Int32>(), stopAsked = false
            for _ in 0..<12 {
                let number = numbers[Int(random.next() % UInt64(numbers.count))]
                var actions: [Action] = []
                let before = (exited: exited || exits > 0, stopAsked: stopAsked)
                var event = ""
                switch random.next() % 6 {
                case 0:
                    policy.captureForCleanStop(Self.stopSignals)
                    captured = Set(Self.stopSignals)
                    event = "capture"
                case 1: actions = policy.cleanStopReady(); ready = true; event = "ready"
                case 2: policy.cleanStopGone(); ready = false; captured = []; event = "gone"
                case 3: policy.exitStarted(); exited = true; event = "exit"
                case 4: actions = policy.deadlinePassed(number); event = "deadline"
                default: actions = policy.signal(number); event = "signal"
                }
                log.append(event == "signal" || event == "deadline" ? "\(event) \(number)" : event)
                let replay = "seed \(seed): \(log.joined(separator: ", ")) → \(actions)"
                if before.exited || exited { #expect(actions.isEmpty, "acted after the exit: \(replay)") }
                // The first captured signal goes to the clean stop (when ready) with a deadline, never to an exit.
                if event == "signal", !before.exited, !before.stopAsked, captured.contains(number) {
                    stopAsked = true
                    let expected: [Action] = (ready ? [.askCleanStop(number)] : []) + [.armDeadline(number)]
                    #expect(actions == expected, "\(replay)")
                }
                // Any other signal ends the process with its own status.
                if event == "signal", !before.exited, before.stopAsked || !captured.contains(number) {
                    #expect(actions == [.restoreAndExit(status: 128 + number)], "\(replay)")
                }
                for action in actions {
                    switch action {
                    case .restoreAndExit(let status):
                        exits += 1
                        #expect(status == 128 + number && (event == "signal" || event == "deadline"), "\(replay)")
                    case .askCleanStop(let asked):
                        asks += 1
                        #expect(ready && (event == "ready" || event == "signal" && asked == number), "\(replay)")
                    case .armDeadline(let armed):
                        #expect(event == "signal" && armed == number && captured.contains(number), "\(replay)")
                    }
                }
                #expect(exits <= 1 && asks <= 1, "\(replay)")
            }
        }
    }
}
