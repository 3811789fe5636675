import DesktopFiles
import DesktopModeState
import Foundation

/// What is on disk while this process has Wayland modes switched: the compositor to reconnect to and each
/// output's mode and place before its first switch (a ``ModeStateStore`` record, key `wayland-DISPLAY`).
struct WaylandModeRecord: Codable, Hashable, Sendable {
    /// `WAYLAND_DISPLAY` as the session used it (`wayland-1`, or an absolute socket path).
    var display: String
    /// `XDG_RUNTIME_DIR` at the time (the socket's folder when `display` is relative).
    var runtimeDirectory: String
    /// The process that switched the modes.
    var pid: Int32
    /// What to put back, in switching order.
    var entries: [WaylandModeSetting]
    /// How the modes were switched and are put back: nil (records before GNOME support) is
    /// wlr-output-management.
    var method: WaylandModeMethod?
    /// `DBUS_SESSION_BUS_ADDRESS` at the time, for ``WaylandModeMethod/mutter`` (the bus Mutter listens on).
    var sessionBus: String?

    /// What makes the record unusable (a record is read from disk and trusted for nothing), or nil: modes
    /// inside the accepted 1…16,384 pixels and 0…1,000 Hz, places within ±1,000,000, named outputs.
    func problem(expectedDisplay: String) -> String? {
        if display != expectedDisplay { return "it is for display \(display), not \(expectedDisplay)" }
        if pid <= 0 { return "\(pid) is not a process id" }
        if entries.isEmpty { return "it names no output" }
        for entry in entries {
            if entry.output.isEmpty { return "an entry has no output name" }
            if !(1...16_384).contains(entry.width) || !(1...16_384).contains(entry.height) {
                return "\(entry.output): \(entry.width)x\(entry.height) is outside 1…16384 pixels"
            }
            if !(0...1_000_000).contains(entry.milliHertz) {
                return "\(entry.output): refresh \(entry.milliHertz) mHz is outside 0…1000 Hz"
            }
            if !(-1_000_000...1_000_000).contains(entry.x) || !(-1_000_000...1_000_000).contains(entry.y) {
                return "\(entry.output): position (\(entry.x),\(entry.y)) is outside ±1000000"
            }
        }
        return nil
    }

    /// The store key for `display`.
    static func key(_ display: String) -> String { "wayland-" + display }
}

/// How a compositor lets a client switch modes (and how they are put back).
enum WaylandModeMethod: String, Codable, Hashable, Sendable {
    /// `zwlr_output_manager_v1`: sway, Hyprland, river and the other wlroots compositors.
    case outputManagement = "wlr-output-management"
    /// GNOME: `org.gnome.Mutter.DisplayConfig` `ApplyMonitorsConfig`, temporary configurations.
    case mutter = "mutter-display-config"
    /// KDE: KWin's `kde_output_management_v2` (the mode of one output device).
    case kde = "kde-output-management-v2"
}

/// Puts Wayland outputs back in the modes they had before this process switched them, on every exit path:
/// ``WaylandSession/close()``, and through the shared ``ModeExitHooks`` (atexit, SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT) on a fresh connection of its own. A compositor keeps a switch made through output management after
/// the client dies, so the original settings are also written to a ``ModeStateFile``-style record before the
/// first switch, and a watchdog (``WaylandModeRecovery/useWatchdog(_:)``) restores them after a SIGKILL or a
/// crash; `extdisplay restore` does so on demand.
final class WaylandModeRestore: @unchecked Sendable {
    static let shared = WaylandModeRestore()

    private let lock = NSLock()
    private var records: [String: WaylandModeRecord] = [:]
    private var installed = false
    private var watchdogs: [String: Int32] = [:]
    /// The command started as a watchdog (it gets `--watch-parent PID --display NAME` appended), or nil.
    var watchdogCommand: [String]?

    /// Records `setting` for `display` unless that output is already recorded (the first record wins), writes
    /// the record to disk and starts the watchdog, all before the caller switches. Throws when the record cannot
    /// be written (then nothing may be switched).
    func record(display: String, environment: [String: String], method: WaylandModeMethod = .outputManagement,
                _ setting: WaylandModeSetting) throws(AtomicWriteError) {
        lock.lock()
        defer { lock.unlock() }
        installLocked()
        var record = records[display] ?? WaylandModeRecord(display: display,
                                                           runtimeDirectory: environment["XDG_RUNTIME_DIR"] ?? "",
                                                           pid: getpid(), entries: [],
                                                           method: method == .outputManagement ? nil : method,
                                                           sessionBus: method == .mutter
                                                               ? environment["DBUS_SESSION_BUS_ADDRESS"] : nil)
        guard !record.entries.contains(where: { $0.output == setting.output }) else { return }
        record.entries.append(setting)
        try ModeStateStore.write(record, key: WaylandModeRecord.key(display))
        records[display] = record
        if watchdogs[display] == nil, let command = watchdogCommand {
            watchdogs[display] = ModeWatchdog.spawn(command + ["--watch-parent", "\(getpid())", "--display", display])
        }
    }

    /// Installs the exit and signal handlers now (idempotent).
    func installHandlers() {
        lock.lock()
        installLocked()
        lock.unlock()
    }

    private func installLocked() {
        guard !installed else { return }
        installed = true
        ModeExitHooks.shared.add { WaylandModeRestore.shared.restoreAll() }
    }

    /// Puts back what is recorded for `display` through `client` (or Mutter's D-Bus interface, for a record of
    /// GNOME switches) and forgets it; the record on disk is removed when every output came back (or is gone),
    /// kept for `extdisplay restore` otherwise.
    func restore(display: String, client: WaylandClient) {
        // The signal path's restore waits for this one (and then finds nothing left to do).
        ModeExitHooks.shared.serialized { restoreNow(display: display, client: client) }
    }

    /// ``restore(display:client:)`` within a restore already serialized (the exit hooks).
    private func restoreNow(display: String, client: WaylandClient) {
        lock.lock()
        let record = records.removeValue(forKey: display)
        lock.unlock()
        guard let record, !record.entries.isEmpty else { return }
        let lines = Self.restore(record, client: client)
        if !lines.contains(where: WaylandModeConfigurator.isFailure) {
            ModeStateStore.remove(key: WaylandModeRecord.key(display))
        }
    }

    /// Puts `record`'s entries back the way they were switched; a line per output.
    static func restore(_ record: WaylandModeRecord, client: WaylandClient) -> [String] {
        guard record.method == .mutter else {
            return WaylandModeConfigurator.restore(record.entries, client: client, method: record.method ?? .outputManagement)
        }
        let config: MutterDisplayConfig
        do { config = try MutterDisplayConfig(busAddress: record.sessionBus) } catch {
            return record.entries.map { "could not restore \($0.output): \(error)" }
        }
        defer { config.close() }
        return MutterModeConfigurator.restore(record.entries, through: config)
    }

    /// Restores every recorded display on a connection of its own (run by the exit hooks, which serialize it).
    func restoreAll() {
        lock.lock()
        let pending = records
        lock.unlock()
        for (display, record) in pending where !record.entries.isEmpty {
            guard let client = try? WaylandClient(displayName: display,
                                                  environment: ["XDG_RUNTIME_DIR": record.runtimeDirectory])
            else { continue }
            restoreNow(display: display, client: client)
            client.close()
        }
    }
}

/// How modes switched through ``WaylandSession/setMode(_:on:)`` come back after exits the process cannot live
/// through (SIGKILL, a crash), and how to put back what an earlier run left switched — the Wayland side of the
/// X11 backend's `ModeRestore`, with the same record folder (``ModeStateStore``) and watchdog (``ModeWatchdog``).
///
/// ```swift
/// WaylandModeRecovery.useWatchdog(["/usr/local/bin/extdisplay", "restore", "--backend", "wayland"])
/// let outcome = WaylandModeRecovery.restoreLeftovers(display: "wayland-1")
/// ```
public enum WaylandModeRecovery {
    /// What ``restoreLeftovers(display:environment:force:onlyOwner:)`` did.
    public enum Outcome: Sendable, Equatable {
        /// No record for that display: nothing was left switched. Carries the record's path.
        case nothing(path: String)
        /// The modes are back (one line per output) and the record is removed.
        case restored([String])
        /// Nothing or not everything was restored, and the record is kept: why, and what to do.
        case failed([String])
    }

    /// Names a command started (once per compositor, at the first mode switch) as a watchdog: it gets
    /// `--watch-parent PID --display NAME` appended, reads its standard input until this process ends, and then
    /// restores what the record still holds.
    public static func useWatchdog(_ command: [String]) {
        WaylandModeRestore.shared.watchdogCommand = command
    }

    /// Installs the exit and signal handlers now (they are installed at the first mode switch anyway).
    public static func installExitHandlers() { WaylandModeRestore.shared.installHandlers() }

    /// The file where modes switched on `display` are recorded.
    public static func recordPath(display: String) -> String {
        ModeStateStore.url(for: WaylandModeRecord.key(display)).path
    }

    /// Restores what the record for `display` holds when the process that wrote it is gone (or always, with
    /// `force`; only when `onlyOwner` wrote it, when given). A damaged record is reported and left alone, and
    /// no output is touched.
    public static func restoreLeftovers(display: String,
                                        environment: [String: String] = ProcessInfo.processInfo.environment,
                                        force: Bool = false, onlyOwner: Int32? = nil) -> Outcome {
        let path = recordPath(display: display)
        let record: WaylandModeRecord
        switch ModeStateStore.read(WaylandModeRecord.self, key: WaylandModeRecord.key(display)) {
        case .none:
            return .nothing(path: path)
        case .damaged(let why):
            return .failed([damaged(path, why)])
        case .record(let found):
            if let why = found.problem(expectedDisplay: display) { return .failed([damaged(path, why)]) }
            record = found
        }
        if let onlyOwner, record.pid != onlyOwner { return .nothing(path: path) }
        guard force || ModeStateStore.processIsGone(record.pid) else {
            return .failed(["modes on \(display) were switched by process \(record.pid), which is still running and "
                            + "restores them when it ends; pass --force to restore now"])
        }
        var env = environment
        if !record.runtimeDirectory.isEmpty { env["XDG_RUNTIME_DIR"] = record.runtimeDirectory }
        let client: WaylandClient
        do { client = try WaylandClient(displayName: record.display, environment: env) } catch {
            return .failed(["cannot reach the compositor to restore the modes recorded in \(path): \(error)"])
        }
        defer { client.close() }
        guard client.hasOutputManagement || record.method == .mutter
                || (record.method == .kde && client.offersKDEOutputManagement) else {
            return .failed(["the compositor at \(record.display) offers no output management, so the modes "
                            + "recorded in \(path) cannot be set back from here"])
        }
        let lines = WaylandModeRestore.restore(record, client: client).map {
            $0.hasPrefix("restored ") ? "\($0), left switched by process \(record.pid)" : $0
        }
        guard !lines.contains(where: WaylandModeConfigurator.isFailure) else { return .failed(lines) }
        ModeStateStore.remove(key: WaylandModeRecord.key(display))
        return .restored(lines)
    }

    private static func damaged(_ path: String, _ why: String) -> String {
        "the mode record \(path) is damaged: \(why); nothing was restored. Check the outputs (extdisplay list), "
            + "set them back by hand if needed (swaymsg reload, wlr-randr), then delete the file"
    }
}
