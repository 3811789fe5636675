import CXRandR
import Dispatch
import Foundation

/// Puts displays back in the modes they had when the program started, on every exit path: `exit` (atexit),
/// SIGINT and SIGTERM (restore, then `_exit(128 + signal)`: 130 or 143). Armed by the first mode change a
/// ``RandRSession`` makes; restores on a fresh X connection of its own, so it works from any thread.
final class ModeRestoreGuard: @unchecked Sendable {
    static let shared = ModeRestoreGuard()

    private let lock = NSLock()
    private var armed: [String: [OutputState]] = [:]
    private var installed = false
    private var signalSources: [any DispatchSourceSignal] = []

    /// Remembers `states` for `displayName` (the first call per display wins) and installs the handlers.
    func arm(_ displayName: String, _ states: [OutputState]) {
        lock.lock()
        defer { lock.unlock() }
        if armed[displayName] == nil { armed[displayName] = states }
        guard !installed else { return }
        installed = true
        atexit { ModeRestoreGuard.shared.restoreAll() }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global(qos: .userInitiated))
            source.setEventHandler {
                ModeRestoreGuard.shared.restoreAll()
                fflush(nil)
                _exit(128 + sig)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Whether a session on `displayName` changed a mode that has not been restored and released.
    func isArmed(_ displayName: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return armed[displayName] != nil
    }

    /// Forgets `displayName` (its session restored and closed).
    func disarm(_ displayName: String) {
        lock.lock()
        armed[displayName] = nil
        lock.unlock()
    }

    /// Restores every armed display on its own connection and forgets them.
    func restoreAll() {
        lock.lock()
        let pending = armed
        armed = [:]
        lock.unlock()
        for (name, states) in pending {
            guard let dpy = XOpenDisplay(name) else { continue }
            edk_install_x_error_handler()
            _ = RandRApply.apply(states, dpy: dpy, root: XDefaultRootWindow(dpy))
            XCloseDisplay(dpy)
        }
    }
}
