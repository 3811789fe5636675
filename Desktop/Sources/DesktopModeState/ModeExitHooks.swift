import DesktopFiles
import CFatalSignals
import Dispatch
import Foundation

/// The process-wide exit paths every mode-restore guard (X11, Wayland) hooks into: `exit` (atexit), SIGINT,
/// SIGTERM, SIGHUP and SIGQUIT, and fatal signals made to end the process so a watchdog sees it go. Installed
/// once, by the first guard that needs it. It owns the one dispatch source per signal in the process (a second
/// source for the same signal, cancelled, silenced the first in libdispatch on Linux) and decides with
/// ``ExitSignalPolicy``: a signal a clean stop took over (the presenter's `SignalHost`) ends the talk through it —
/// the talk's end puts the modes back, the process exits 0 — and the hooks run only if that stop has not ended
/// the process within ``cleanStopGrace`` seconds or a second signal comes; any other signal runs every hook, then
/// `_exit(128 + signal)`. Restores never run twice at once: ``serialized(_:)``.
///
/// ```swift
/// ModeExitHooks.shared.add { MyGuard.shared.restoreAll() }
/// ModeExitHooks.shared.handOver([SIGINT, SIGTERM, SIGHUP]) { _ in runtime.stop() }
/// ```
public final class ModeExitHooks: @unchecked Sendable {
    /// The one instance.
    public static let shared = ModeExitHooks()
    /// Seconds a clean stop may take after its signal before the hooks restore and end the process themselves.
    public static let cleanStopGrace: Double = 10
    /// Seconds the signal path waits for a restore already running (``serialized(_:)``) before its own.
    static let restoreWait: Double = 5

    private let lock = NSLock()
    /// Held while anything restores (a clean stop, the hooks): one restore at a time.
    private let restoring = NSRecursiveLock()
    private var hooks: [@Sendable () -> Void] = []
    private var installed = false
    private var policy = ExitSignalPolicy()
    private var stop: (@Sendable (Int32) -> Void)?
    private var signalSources: [Int32: any DispatchSourceSignal] = [:]

    /// Installs the exit and signal handlers (idempotent) and, when given, adds `hook` to what they run.
    public func add(_ hook: (@Sendable () -> Void)? = nil) {
        lock.lock()
        defer { lock.unlock() }
        if let hook { hooks.append(hook) }
        guard !installed else { return }
        installed = true
        atexit { ModeExitHooks.shared.exitStarted() }
        edk_install_fatal_handlers()
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { handleLocked(sig) }
    }

    /// Adds `hook` to what the exit paths run without installing them: for a cleanup (the PDF tools) that
    /// handles the process's exit itself and must also run when a mode guard's signal path ends it with `_exit`.
    public func append(_ hook: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        hooks.append(hook)
    }

    /// From now on `signals` no longer end the process by their default action or the hooks' `_exit`: they end
    /// it through the clean stop given to ``handOver(_:to:)`` (remembered until it is given).
    public func captureForCleanStop(_ signals: [Int32]) {
        lock.lock()
        defer { lock.unlock() }
        policy.captureForCleanStop(signals)
        for sig in signals { handleLocked(sig) }
    }

    /// `signals` end the process through `stop` (called on a dispatch thread with the signal's number); a signal
    /// that arrived since ``captureForCleanStop(_:)`` calls it at once.
    public func handOver(_ signals: [Int32], to stop: @escaping @Sendable (Int32) -> Void) {
        lock.lock()
        policy.captureForCleanStop(signals)
        for sig in signals { handleLocked(sig) }
        self.stop = stop
        let actions = policy.cleanStopReady()
        lock.unlock()
        perform(actions)
    }

    /// The clean stop is over (its talk ended): later signals run the hooks and `_exit(128 + signal)`.
    public func takeBack() {
        lock.lock()
        defer { lock.unlock() }
        stop = nil
        policy.cleanStopGone()
    }

    /// Runs every hook (each guard restores what it still holds), after a restore already running.
    public func runAll() {
        lock.lock()
        let pending = hooks
        lock.unlock()
        serialized { for hook in pending { hook() } }
    }

    /// Runs `body` (a restore) while no other restore runs in this process; the exit paths wait for it (the
    /// signal path at most ``restoreWait`` seconds) and then find the modes back. Reentrant.
    public func serialized<T>(_ body: () -> T) -> T {
        restoring.lock()
        defer { restoring.unlock() }
        return body()
    }

    // MARK: - Signals

    /// Makes the one dispatch source for `sig` (the lock is held).
    private func handleLocked(_ sig: Int32) {
        guard signalSources[sig] == nil else { return }
        // A parent may have left it blocked (the mask is inherited across exec): unblock it here.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, sig)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global(qos: .userInitiated))
        source.setEventHandler { ModeExitHooks.shared.arrived(sig) }
        source.resume()
        signalSources[sig] = source
    }

    private func arrived(_ sig: Int32) {
        lock.lock()
        let actions = policy.signal(sig)
        lock.unlock()
        perform(actions)
    }

    private func deadlinePassed(_ sig: Int32) {
        lock.lock()
        let actions = policy.deadlinePassed(sig)
        lock.unlock()
        perform(actions)
    }

    private func exitStarted() {
        lock.lock()
        policy.exitStarted()
        lock.unlock()
        runAll()
    }

    private func perform(_ actions: [ExitSignalPolicy.Action]) {
        for action in actions {
            switch action {
            case .askCleanStop(let sig):
                lock.lock()
                let stop = self.stop
                lock.unlock()
                stop?(sig)
            case .armDeadline(let sig):
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.cleanStopGrace) {
                    ModeExitHooks.shared.deadlinePassed(sig)
                }
            case .restoreAndExit(let status):
                // A clean restore that hangs must not keep the process: wait for it a while, then restore anyway.
                let waited = restoring.lock(before: Date(timeIntervalSinceNow: Self.restoreWait))
                lock.lock()
                let pending = hooks
                lock.unlock()
                for hook in pending { hook() }
                if waited { restoring.unlock() }
                fflush(nil)
                _exit(status)
            }
        }
    }
}
