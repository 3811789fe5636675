import Dispatch
import DesktopModeState
import Foundation

/// SIGINT, SIGTERM and SIGHUP end the talk like Ctrl-Q: the loop stops every host (which puts modes back) and
/// returns, so the process exits 0 after a clean stop instead of being ended by the signal — on every backend,
/// with modes switched or not.
///
/// The signals are handed to `DesktopModeState`'s ``DesktopModeState/ModeExitHooks``, which owns the process's
/// signal handling and decides between this clean stop and its own exit path (restore, `_exit(128 + signal)`)
/// without a race: a signal goes to the clean stop; a second one, or the talk not ending within
/// ``DesktopModeState/ModeExitHooks/cleanStopGrace`` seconds (a hung loop), makes the hooks restore and exit. A
/// signal that arrives while the presenter is still starting (deck, SDL, windows: a few hundred milliseconds,
/// before any host runs) would end the process by its default action, status 143; ``captureEarly(_:)`` takes
/// the signals over at the start of a launch, and the signal host ends the talk as soon as it starts.
@MainActor
public final class SignalHost: PresenterHost {
    private let signals: [Int32]

    /// The signals a signal host handles unless told otherwise.
    public nonisolated static let defaultSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// From now on `signals` (default SIGINT, SIGTERM and SIGHUP) no longer end the process by their default
    /// action: one that arrives before a signal host starts ends the talk as soon as it does. Call first thing
    /// in a launch.
    public static func captureEarly(_ signals: [Int32] = defaultSignals) {
        ModeExitHooks.shared.captureForCleanStop(signals)
    }

    /// A host for `signals` (default SIGINT, SIGTERM and SIGHUP).
    public init(signals: [Int32] = defaultSignals) { self.signals = signals }

    /// Hands the signals to the loop: each one sends `.stop` on the main queue.
    public func start(in runtime: PresenterRuntime) {
        ModeExitHooks.shared.handOver(signals) { [weak runtime] _ in
            DispatchQueue.main.async { MainActor.assumeIsolated { runtime?.send(.stop) } }
        }
    }

    /// The talk is over: later signals restore the modes and end the process (`128 + signal`).
    public func stop() { ModeExitHooks.shared.takeBack() }
}
