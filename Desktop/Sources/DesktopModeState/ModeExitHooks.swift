import DesktopFiles
import CFatalSignals
import Dispatch
import Foundation

/// The process-wide exit paths every mode-restore guard (X11, Wayland) hooks into: `exit` (atexit), SIGINT,
/// SIGTERM, SIGHUP and SIGQUIT (every hook runs, then `_exit(128 + signal)`), and fatal signals made to end the
/// process so a watchdog sees it go. Installed once, by the first guard that needs it.
///
/// ```swift
/// ModeExitHooks.shared.add { MyGuard.shared.restoreAll() }
/// ```
public final class ModeExitHooks: @unchecked Sendable {
    /// The one instance.
    public static let shared = ModeExitHooks()

    private let lock = NSLock()
    private var hooks: [@Sendable () -> Void] = []
    private var installed = false
    private var signalSources: [any DispatchSourceSignal] = []

    /// Installs the exit and signal handlers (idempotent) and, when given, adds `hook` to what they run.
    public func add(_ hook: (@Sendable () -> Void)? = nil) {
        lock.lock()
        defer { lock.unlock() }
        if let hook { hooks.append(hook) }
        guard !installed else { return }
        installed = true
        atexit { ModeExitHooks.shared.runAll() }
        edk_install_fatal_handlers()
        let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        // A parent may have left these blocked (the mask is inherited across exec): unblock them here.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for sig in signals { sigaddset(&unblocked, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global(qos: .userInitiated))
            source.setEventHandler {
                ModeExitHooks.shared.runAll()
                fflush(nil)
                _exit(128 + sig)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Adds `hook` to what the exit paths run without installing them: for a cleanup (the PDF tools) that
    /// handles the process's exit itself and must also run when a mode guard's signal path ends it with `_exit`.
    public func append(_ hook: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        hooks.append(hook)
    }

    /// Runs every hook (each guard restores what it still holds).
    public func runAll() {
        lock.lock()
        let pending = hooks
        lock.unlock()
        for hook in pending { hook() }
    }
}
