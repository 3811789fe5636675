import ArgumentParser
import ExternalDisplaySDL
import Foundation

/// `extdisplay restore`: puts back display modes that an earlier `present` or `watch --set-mode` switched and
/// could not restore itself (it was killed with SIGKILL, crashed, or the machine lost power).
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put back display modes left switched by an extdisplay run that was killed or crashed.",
        discussion: """
        Before switching a mode, extdisplay records each output's previous mode in a state file \
        ($XDG_RUNTIME_DIR/extdisplay/modes-DISPLAY.json, else $XDG_STATE_HOME or ~/.local/state; \
        EXTDISPLAY_STATE_DIR overrides). A normal exit, Ctrl-C, SIGTERM, SIGHUP and SIGQUIT restore and remove it; \
        after SIGKILL or a crash a watchdog process restores it, and any later extdisplay command on the same \
        X display does so at start. This command does it on demand. Exit status 0 when nothing was left to restore \
        or the modes are back, 1 when they could not be restored.
        """)

    @Option(help: "The X display whose modes to restore (default: $DISPLAY).")
    var display: String?

    @Flag(help: "Restore even if the process that switched the modes still runs.")
    var force = false

    @Option(help: .hidden)
    var watchParent: Int32?

    func run() throws {
        guard let name = display ?? ProcessInfo.processInfo.environment["DISPLAY"], !name.isEmpty else {
            throw ValidationError("no X display: pass --display :N or set DISPLAY")
        }
        if let parent = watchParent {
            Self.watch(parent: parent, display: name)
            return
        }
        let lines = ModeRestore.restoreLeftovers(display: name, force: force)
        if lines.isEmpty {
            print("nothing to restore on \(name) (no record in \(ModeStateFile.url(for: name).path))")
            return
        }
        for line in lines { print(line) }
        if lines.contains(where: { $0.hasPrefix("cannot open") || $0.contains("still running") }) { throw ExitCode(1) }
    }

    /// The watchdog: waits until the parent's end closes standard input, then restores what its record still holds.
    static func watch(parent: Int32, display: String) {
        for sig in [SIGINT, SIGHUP, SIGQUIT, SIGPIPE] { signal(sig, SIG_IGN) }
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EINTR) { break }
        }
        for line in ModeRestore.restoreLeftovers(display: display, force: true, onlyOwner: parent) {
            FileHandle.standardError.write(Data("extdisplay (watchdog of process \(parent)): \(line)\n".utf8))
        }
    }
}

/// What every command that opens the X display does first: restore modes an earlier run left switched, and
/// name a watchdog for modes this run switches.
enum LeftoverModes {
    static func prepare(display: String) {
        for line in ModeRestore.restoreLeftovers(display: display) {
            FileHandle.standardError.write(Data("extdisplay: \(line)\n".utf8))
        }
        if ProcessInfo.processInfo.environment["EXTDISPLAY_WATCHDOG"] != "0", let exe = executablePath() {
            ModeRestore.useWatchdog([exe, "restore"])
        }
        ModeRestore.installExitHandlers()
        XServerLoss.install()
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
