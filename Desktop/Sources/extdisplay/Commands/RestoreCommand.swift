import ArgumentParser
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import ExternalDisplayWayland
import Foundation

/// `extdisplay restore`: puts back display modes that an earlier `present` or `watch --set-mode` switched and
/// could not restore itself (it was killed with SIGKILL, crashed, or the machine lost power).
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put back display modes left switched by an extdisplay run that was killed or crashed.",
        discussion: """
        Before switching a mode, extdisplay records each output's previous mode in a state file \
        ($XDG_RUNTIME_DIR/extdisplay/modes-DISPLAY.json on X11, modes-wayland-WAYLAND_DISPLAY.json on Wayland, \
        else $XDG_STATE_HOME or ~/.local/state; EXTDISPLAY_STATE_DIR overrides). A normal exit, Ctrl-C, SIGTERM, \
        SIGHUP and SIGQUIT restore and remove it; after SIGKILL or a crash a watchdog process restores it, and \
        any later extdisplay command on the same display does so at start. This command does it on demand. \
        A damaged record is reported and left in place; no output is touched. Exit status 0 when nothing was \
        left to restore or the modes are back, 1 when they could not be restored.

        \(DesktopBackend.help)
        """)

    @Option(help: "The display whose modes to restore (default: $DISPLAY on X11, $WAYLAND_DISPLAY on Wayland).")
    var display: String?

    @Option(help: "Which display system: auto (Wayland when WAYLAND_DISPLAY is set), x11, wayland.")
    var backend: DesktopBackend = .auto

    @Flag(help: "Restore even if the process that switched the modes still runs.")
    var force = false

    @Option(help: .hidden)
    var watchParent: Int32?

    func run() throws {
        if backend.resolved() == .wayland {
            try runWayland()
            return
        }
        guard let name = display ?? ProcessInfo.processInfo.environment["DISPLAY"], !name.isEmpty else {
            throw ValidationError("no X display: pass --display :N or set DISPLAY")
        }
        if let parent = watchParent {
            Self.watch(parent: parent, display: name)
            return
        }
        let lines = ModeRestore.restoreLeftovers(display: name, force: force)
        if lines.isEmpty {
            StandardStreams.line("nothing to restore on \(name) (no record in \(ModeStateFile.url(for: name).path))")
            return
        }
        for line in lines { StandardStreams.line(line) }
        if lines.contains(where: { $0.hasPrefix("cannot open") || $0.contains("still running") || $0.contains(" is damaged: ") }) {
            throw ExitCode(1)
        }
    }

    /// `restore` on Wayland: the record of the compositor named by `--display` or `$WAYLAND_DISPLAY`.
    private func runWayland() throws {
        guard let name = display ?? ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"], !name.isEmpty else {
            throw ValidationError("no Wayland display: pass --display wayland-N or set WAYLAND_DISPLAY")
        }
        if let parent = watchParent {
            ModeWatchdog.waitForParentEnd()
            switch WaylandModeRecovery.restoreLeftovers(display: name, force: true, onlyOwner: parent) {
            case .nothing: break
            case .restored(let lines), .failed(let lines):
                Self.log(lines, "extdisplay (watchdog of process \(parent)): ")
            }
            return
        }
        switch WaylandModeRecovery.restoreLeftovers(display: name, force: force) {
        case .nothing(let path):
            StandardStreams.line("nothing to restore on \(name) (no record in \(path))")
        case .restored(let lines):
            for line in lines { StandardStreams.line(line) }
        case .failed(let lines):
            Self.log(lines, "extdisplay: ")
            throw ExitCode(1)
        }
    }

    private static func log(_ lines: [String], _ prefix: String) {
        for line in lines { StandardStreams.errorLine(prefix + line) }
    }

    /// The watchdog: waits until the parent's end closes standard input, then restores what its record still holds.
    static func watch(parent: Int32, display: String) {
        ModeWatchdog.waitForParentEnd()
        for line in ModeRestore.restoreLeftovers(display: display, force: true, onlyOwner: parent) {
            StandardStreams.errorLine("extdisplay (watchdog of process \(parent)): \(line)")
        }
    }
}

/// What every command that opens the X display does first: restore modes an earlier run left switched, and
/// name a watchdog for modes this run switches.
enum LeftoverModes {
    static func prepare(display: String) {
        for line in ModeRestore.restoreLeftovers(display: display) {
            StandardStreams.errorLine("extdisplay: \(line)")
        }
        if ProcessInfo.processInfo.environment["EXTDISPLAY_WATCHDOG"] != "0", let exe = executablePath() {
            ModeRestore.useWatchdog([exe, "restore", "--backend", "x11"])
        }
        ModeRestore.installExitHandlers()
        XServerLoss.install()
    }

    /// This program's absolute path (what a watchdog runs).
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The Wayland side of ``LeftoverModes``: restore what an earlier run left switched on this compositor (a damaged
/// record is reported, never acted on), and name a watchdog for modes this run switches through output management.
enum WaylandLeftoverModes {
    static func prepare(display: String) {
        switch WaylandModeRecovery.restoreLeftovers(display: display) {
        case .nothing: break
        case .restored(let lines), .failed(let lines):
            for line in lines { StandardStreams.errorLine("extdisplay: \(line)") }
        }
        if ProcessInfo.processInfo.environment["EXTDISPLAY_WATCHDOG"] != "0", let exe = LeftoverModes.executablePath() {
            WaylandModeRecovery.useWatchdog([exe, "restore", "--backend", "wayland"])
        }
        // The exit and signal hooks are installed at the first switch, as before: present handles SIGTERM itself.
    }
}
