import DesktopFiles
import DesktopModeState
import SDLWindows
import DesktopImages
import CFatalSignals
import CXRandR
import Dispatch
import Foundation

/// Puts displays back in the modes they had before this process switched them, on every exit path it lives
/// through: `exit` (atexit), SIGINT, SIGTERM, SIGHUP and SIGQUIT (restore, then `_exit(128 + signal)`; where the
/// presenter's clean stop took SIGINT, SIGTERM and SIGHUP over, its end restores instead — ``ModeExitHooks``).
/// Each output's state is recorded just before its first switch — outputs present at start and outputs
/// plugged in later alike — and written to a ``ModeStateFile`` first, so that exits the process cannot live
/// through (SIGKILL, a crash) are undone by the watchdog (when ``ModeRestore/useWatchdog(_:)`` named one), by
/// `extdisplay restore`, or by the next session opened on that display. Restores on a fresh X connection of
/// its own, so it works from any thread.
final class ModeRestoreGuard: @unchecked Sendable {
    static let shared = ModeRestoreGuard()

    private let lock = NSLock()
    /// Per X display, the outputs switched, as they were before the first switch, in switching order.
    private var recorded: [String: [ModeStateFile.Entry]] = [:]
    private var installed = false
    private var watchdogs: [String: Int32] = [:]
    /// The command started as a watchdog (it gets `--watch-parent PID --display NAME` appended), or nil.
    var watchdogCommand: [String]?

    /// Records `entry` for `displayName` (the first record per output wins), writes the state file and starts
    /// the watchdog, all before the caller switches the mode. Throws when the state file cannot be written.
    func record(_ displayName: String, _ entry: ModeStateFile.Entry) throws(AtomicWriteError) {
        lock.lock()
        defer { lock.unlock() }
        installLocked()
        var entries = recorded[displayName] ?? []
        guard !entries.contains(where: { $0.output == entry.output }) else { return }
        entries.append(entry)
        try ModeStateFile(display: displayName, pid: getpid(), entries: entries).write()
        recorded[displayName] = entries
        if watchdogs[displayName] == nil, let command = watchdogCommand {
            watchdogs[displayName] = ModeWatchdog.spawn(command + ["--watch-parent", "\(getpid())", "--display", displayName])
        }
    }

    /// What is recorded for `displayName`.
    func entries(_ displayName: String) -> [ModeStateFile.Entry] {
        lock.lock()
        defer { lock.unlock() }
        return recorded[displayName] ?? []
    }

    /// Forgets `displayName` (its modes are back) and removes its state file.
    func disarm(_ displayName: String) {
        lock.lock()
        defer { lock.unlock() }
        recorded[displayName] = nil
        ModeStateFile.remove(display: displayName)
    }

    /// Installs the exit and signal handlers (idempotent). SIGQUIT exits too, after restoring.
    func installHandlers() {
        lock.lock()
        installLocked()
        lock.unlock()
    }

    private func installLocked() {
        guard !installed else { return }
        installed = true
        ModeExitHooks.shared.add { ModeRestoreGuard.shared.restoreAll() }
    }

    /// Restores every recorded display on its own connection, removes the state files and forgets them.
    func restoreAll() {
        lock.lock()
        let pending = recorded
        recorded = [:]
        lock.unlock()
        for (name, entries) in pending where !entries.isEmpty {
            if let dpy = XOpenDisplay(name) {
                edk_install_x_error_handler()
                _ = RandRApply.apply(RandRApply.states(entries, dpy: dpy, root: XDefaultRootWindow(dpy)).states,
                                     dpy: dpy, root: XDefaultRootWindow(dpy))
                XCloseDisplay(dpy)
            }
            ModeStateFile.remove(display: name)
        }
    }

    /// The X server went away: nothing can be restored (its modes ended with it); drop the records.
    func serverGone() {
        lock.lock()
        let names = Array(recorded.keys)
        recorded = [:]
        lock.unlock()
        for name in names { ModeStateFile.remove(display: name) }
    }
}

/// How modes switched through ``RandRSession/setMode(_:on:)`` come back after exits the process cannot live
/// through, and how to put back what an earlier run left switched.
///
/// ```swift
/// ModeRestore.useWatchdog(["/usr/local/bin/extdisplay", "restore"])
/// for line in ModeRestore.restoreLeftovers(display: ":0") { print(line) }
/// ```
public enum ModeRestore {
    /// Names a command started (once per X display, at the first mode switch) as a watchdog: it gets
    /// `--watch-parent PID --display NAME` appended, reads its standard input until this process ends, and then
    /// restores what the state file still records. Covers SIGKILL and crashes.
    public static func useWatchdog(_ command: [String]) {
        ModeRestoreGuard.shared.watchdogCommand = command
    }

    /// Installs the exit and signal handlers now (they are installed at the first mode switch anyway), so that
    /// SIGQUIT and SIGHUP end the process cleanly even when no mode was switched.
    public static func installExitHandlers() { ModeRestoreGuard.shared.installHandlers() }

    /// Restores what the state file for `display` records when the process that wrote it is gone (or always,
    /// with `force`); returns one line per output put back, or says why nothing was done.
    public static func restoreLeftovers(display: String, force: Bool = false,
                                        onlyOwner: Int32? = nil) -> [String] {
        let record: ModeStateFile
        switch ModeStateFile.reading(display: display) {
        case .none: return []
        case .damaged(let why):
            // Kept: the outputs it names may still be switched; a person decides.
            return ["the mode record \(ModeStateFile.url(for: display).path) is damaged: \(why); nothing was restored "
                    + "and the file is kept. Check the outputs (extdisplay list), set them back by hand if needed "
                    + "(xrandr --auto), then delete the file"]
        case .record(let found): record = found
        }
        if let onlyOwner, record.pid != onlyOwner { return [] }
        guard force || record.ownerIsGone else {
            return ["modes on \(display) were switched by process \(record.pid), which is still running and "
                    + "restores them when it ends; pass --force to restore now"]
        }
        guard let dpy = XOpenDisplay(display) else {
            return ["cannot open DISPLAY=\(display) to restore the modes recorded in "
                    + "\(ModeStateFile.url(for: display).path); is the X server running?"]
        }
        defer { XCloseDisplay(dpy) }
        edk_install_x_error_handler()
        let root = XDefaultRootWindow(dpy)
        let (states, skipped) = RandRApply.states(record.entries, dpy: dpy, root: root)
        let problem = RandRApply.apply(states, dpy: dpy, root: root)
        ModeStateFile.remove(display: display)
        var lines = states.compactMap { state in
            record.entries.first { $0.output == state.outputName }.map {
                "restored \($0.output) to \($0.width)x\($0.height) at (\($0.x),\($0.y)), left switched by process \(record.pid)"
            }
        }
        lines += skipped
        if let problem { lines.append("the X server refused part of the restore: \(problem)") }
        return lines
    }
}
