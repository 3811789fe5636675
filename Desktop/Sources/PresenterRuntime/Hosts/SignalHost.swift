import Dispatch
public import Foundation

/// SIGINT and SIGTERM end the talk like Ctrl-Q: the loop stops every host (which puts modes back) and returns,
/// so the process exits 0 after a clean stop instead of being ended by the signal.
@MainActor
public final class SignalHost: PresenterHost {
    private var sources: [any DispatchSourceSignal] = []
    private let signals: [Int32]

    /// A host for `signals` (default SIGINT and SIGTERM).
    public init(signals: [Int32] = [SIGINT, SIGTERM]) { self.signals = signals }

    /// Starts handling the signals on the main queue.
    public func start(in runtime: PresenterRuntime) {
        // A parent may have left them blocked (the mask is inherited across exec).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
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
        for source in sources { source.cancel() }
        sources = []
    }
}
