import Dispatch
public import Foundation

/// SIGINT and SIGTERM end the talk like Ctrl-Q: the loop stops every host (which puts modes back) and returns,
/// so the process exits 0 after a clean stop instead of being ended by the signal.
///
/// A signal that arrives while the presenter is still starting (deck, SDL, windows: a few hundred milliseconds,
/// before any host runs) would end the process by its default action, status 143; ``captureEarly(_:)`` takes
/// the signals over at the start of a launch, and the first host to start ends the talk if one came meanwhile.
@MainActor
public final class SignalHost: PresenterHost {
    private var sources: [any DispatchSourceSignal] = []
    private let signals: [Int32]
    /// Whether a signal captured by ``captureEarly(_:)`` arrived (set on a dispatch thread).
    private static let early = EarlySignals()

    private final class EarlySignals: @unchecked Sendable {
        private let lock = NSLock()
        private var arrived = false
        private var sources: [any DispatchSourceSignal] = []
        private var onSignal: (@Sendable () -> Void)?

        /// Whether the signals are captured (then a host uses these sources instead of making its own: a
        /// second source for the same signal, cancelled, silenced the first in libdispatch on Linux).
        var isInstalled: Bool {
            lock.lock()
            defer { lock.unlock() }
            return !sources.isEmpty
        }

        func install(_ signals: [Int32]) {
            lock.lock()
            defer { lock.unlock() }
            guard sources.isEmpty else { return }
            sources = signals.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [weak self] in self?.note() }
                source.resume()
                return source
            }
        }

        private func note() {
            lock.lock()
            arrived = true
            let handler = onSignal
            lock.unlock()
            handler?()
        }

        /// Sends later signals to `handler` (nil: only remember them); returns whether one already arrived.
        func forward(to handler: (@Sendable () -> Void)?) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            onSignal = handler
            return arrived
        }
    }

    /// From now on `signals` (default SIGINT and SIGTERM) no longer end the process by their default action: one
    /// that arrives before a signal host starts ends the talk as soon as it does. Call first thing in a launch.
    public static func captureEarly(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        early.install(signals)
    }

    /// A host for `signals` (default SIGINT and SIGTERM).
    public init(signals: [Int32] = [SIGINT, SIGTERM]) { self.signals = signals }

    /// Starts handling the signals on the main queue.
    public func start(in runtime: PresenterRuntime) {
        // A parent may have left them blocked (the mask is inherited across exec).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        if Self.early.isInstalled {
            let stop: @Sendable () -> Void = { [weak runtime] in
                DispatchQueue.main.async { MainActor.assumeIsolated { runtime?.send(.stop) } }
            }
            if Self.early.forward(to: stop) { runtime.send(.stop) }
            return
        }
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak runtime] in MainActor.assumeIsolated { runtime?.send(.stop) } }
            source.resume()
            return source
        }
    }

    /// Stops handling the signals.
    public func stop() {
        _ = Self.early.forward(to: nil)
        for source in sources { source.cancel() }
        sources = []
    }
}
