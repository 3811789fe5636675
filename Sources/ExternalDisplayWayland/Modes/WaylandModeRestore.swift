import CFatalSignals
import Dispatch
import Foundation

/// Puts Wayland outputs back in the modes they had before this process switched them, on every exit path it
/// lives through: ``WaylandSession/close()``, `exit` (atexit), SIGINT, SIGTERM, SIGHUP and SIGQUIT (restore,
/// then `_exit(128 + signal)`). The same approach as the X11 backend's restore guard: each output's mode and
/// place are recorded just before its first switch, and restoring runs on a fresh connection of its own, so it
/// works from any thread.
///
/// Unlike X11, a Wayland compositor forgets nothing when a client dies, so a SIGKILL or a crash leaves the mode
/// switched; it is then reset from the compositor's own configuration (`swaymsg reload` on sway).
final class WaylandModeRestore: @unchecked Sendable {
    static let shared = WaylandModeRestore()

    private struct Record {
        var environment: [String: String]
        var settings: [WaylandModeSetting]
    }

    private let lock = NSLock()
    private var records: [String: Record] = [:]
    private var installed = false
    private var signalSources: [any DispatchSourceSignal] = []

    /// Records `setting` for `display` unless that output is already recorded (the first record wins), and
    /// installs the exit and signal handlers.
    func record(display: String, environment: [String: String], _ setting: WaylandModeSetting) {
        lock.lock()
        defer { lock.unlock() }
        installLocked()
        var record = records[display] ?? Record(environment: environment, settings: [])
        guard !record.settings.contains(where: { $0.output == setting.output }) else { return }
        record.settings.append(setting)
        records[display] = record
    }

    /// What is recorded for `display`, forgotten (the caller restores it).
    func take(display: String) -> [WaylandModeSetting] {
        lock.lock()
        defer { lock.unlock() }
        return records.removeValue(forKey: display)?.settings ?? []
    }

    private func installLocked() {
        guard !installed else { return }
        installed = true
        atexit { WaylandModeRestore.shared.restoreAll() }
        edk_install_fatal_handlers()
        let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for sig in signals { sigaddset(&unblocked, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global(qos: .userInitiated))
            source.setEventHandler {
                WaylandModeRestore.shared.restoreAll()
                fflush(nil)
                _exit(128 + sig)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Restores every recorded display on a connection of its own and forgets it.
    func restoreAll() {
        lock.lock()
        let pending = records
        records = [:]
        lock.unlock()
        for (display, record) in pending where !record.settings.isEmpty {
            guard let client = try? WaylandClient(displayName: display, environment: record.environment) else { continue }
            WaylandModeConfigurator.restore(record.settings, client: client)
            client.close()
        }
    }
}
