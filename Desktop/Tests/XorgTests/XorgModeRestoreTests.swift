#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Modes switched by `extdisplay present --mode` come back on every exit, read from xrandr (never from the
/// presenter's log): Q and SIGINT, SIGTERM, SIGHUP (status 0), SIGQUIT (131) for a display present at start
/// and one plugged in mid-talk, each signal also right at the switch and with a second signal on the first;
/// SIGKILL through the watchdog, through `extdisplay restore`, and through the next start; and the X server
/// going away gives one clear line. Part of the serialized Xorg suite: one X server at a time.
extension XorgPresenterTests {
    /// The binary under test (`Repository.extdisplay()`: never a missing or stale one).
    static var extdisplay: String { get throws { try Repository.extdisplay().path } }

    /// Starts the presenter with `--mode 1024x768` and a private state folder; `watchdog: false` turns the
    /// watchdog off so that only the process's own restoring is observed.
    func launchSwitching(_ server: XorgServer, state: URL, watchdog: Bool) throws -> ChildProcess {
        try ChildProcess([try Self.extdisplay, "present", try Self.writeDeck().path, "--mode", "1024x768"],
                             environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11",
                                           "EXTDISPLAY_STATE_DIR": state.path,
                                           "EXTDISPLAY_WATCHDOG": watchdog ? "1" : "0"])
    }

    func stateFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Polls xrandr until `output`'s mode starts with `mode` (`"1024x768"`).
    func waitForMode(_ server: XorgServer, _ output: String, _ mode: String, timeout: Double = 10) throws -> Bool {
        try poll(timeout) { try server.currentModes().contains { $0.hasPrefix("\(output) \(mode)") } }
    }

    @Test(arguments: ["q", "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"])
    func modesComeBackForDisplaysAtStartAndPluggedInLater(ending: String) throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let before = try server.currentModes()
        let state = try stateFolder()
        let presenter = try launchSwitching(server, state: state, watchdog: false)
        #expect(poll(15) { presenter.lines.contains { $0.contains("external: DUMMY1") } }, "stderr: \(presenter.stderr)")
        #expect(try waitForMode(server, "DUMMY1", "1024x768"), "the presenter did not switch DUMMY1")
        try server.xrandr(["--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1"])
        #expect(try waitForMode(server, "DUMMY2", "1024x768"), "the presenter did not switch the plugged-in DUMMY2")
        let signals = ["SIGINT": SIGINT, "SIGTERM": SIGTERM, "SIGHUP": SIGHUP, "SIGQUIT": SIGQUIT]
        if let sig = signals[ending] {
            presenter.signal(sig)
            // SIGINT, SIGTERM and SIGHUP end the talk like Q (status 0); SIGQUIT restores and exits 128 + 3.
            let status = presenter.exitStatus(timeout: 20)
            #expect(status == (sig == SIGQUIT ? 131 : 0), "\(ending): status \(String(describing: status)); stderr: \(presenter.stderr)")
        } else {
            try server.key("ctrl+q")
            #expect(presenter.exitStatus(timeout: 10) == 0)
        }
        #expect(try waitForMode(server, "DUMMY1", "1280x720"), "DUMMY1 not restored after \(ending)")
        #expect(try waitForMode(server, "DUMMY2", "1280x720"), "plugged-in DUMMY2 not restored after \(ending)")
        try server.xrandr(["--output", "DUMMY2", "--off"])
        #expect(try poll(5) { try server.currentModes() == before }, "after \(ending): \((try? server.currentModes()) ?? [])")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty, "state file left behind")
    }

    /// SIGINT, SIGTERM and SIGHUP, and SIGTERM followed at once by SIGINT, each three times on one server, sent
    /// the moment DUMMY1 is switched: one signal ends the talk cleanly with status 0; a second one runs the exit
    /// hooks while the clean stop restores (one restore waits for the other), so 0 (the talk ended first) or
    /// 128 + the signal handled second. Either way DUMMY1 is back at 1280×720 (xrandr) and no state file is left. The
    /// clean stop and the exit hooks used to race here (0 or 128 + signal, the mode sometimes left switched);
    /// the hooks still restore when the clean stop cannot (`ExitSignalPolicyTests`).
    @Test(arguments: [[SIGINT], [SIGTERM], [SIGHUP], [SIGTERM, SIGINT]])
    func signalsRightAtTheSwitchEndCleanlyWithTheModeBack(signals: [Int32]) throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let state = try stateFolder()
        // Two signals sent together may be handled in either order (the kernel delivers the lower number first).
        let allowed: [Int32] = signals.count == 1 ? [0] : [0] + signals.map { 128 + $0 }
        for round in 1...3 {
            let presenter = try launchSwitching(server, state: state, watchdog: false)
            defer { presenter.signal(SIGKILL) }
            #expect(try waitForMode(server, "DUMMY1", "1024x768"), "round \(round): DUMMY1 not switched; \(presenter.stderr)")
            for signal in signals { presenter.signal(signal) }
            let status = presenter.exitStatus(timeout: 20)
            #expect(status.map(allowed.contains) == true,
                    "round \(round), signals \(signals): status \(String(describing: status)); stderr: \(presenter.stderr)")
            #expect(try waitForMode(server, "DUMMY1", "1280x720"), "round \(round), signals \(signals): DUMMY1 not restored")
            #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty,
                    "round \(round), signals \(signals): state file left behind")
        }
    }

    /// SIGKILL, and crashes (SIGSEGV, SIGABRT): the process cannot restore, its watchdog does.
    @Test(arguments: [SIGKILL, SIGSEGV, SIGABRT])
    func afterSIGKILLOrACrashTheWatchdogRestoresTheModes(signal: Int32) throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let state = try stateFolder()
        let presenter = try launchSwitching(server, state: state, watchdog: true)
        #expect(try waitForMode(server, "DUMMY1", "1024x768"))
        presenter.signal(signal)
        #expect(presenter.exitStatus(timeout: 30) == 128 + signal)
        #expect(try waitForMode(server, "DUMMY1", "1280x720"), "the watchdog did not restore DUMMY1 after signal \(signal)")
        #expect(try poll(5) { try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty })
    }

    @Test func afterSIGKILLRestoreCommandAndTheNextStartPutTheModesBack() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let state = try stateFolder()
        let env = ["DISPLAY": server.display, "EXTDISPLAY_STATE_DIR": state.path]
        for next in [["restore"], ["list"]] {
            let presenter = try launchSwitching(server, state: state, watchdog: false)
            #expect(try waitForMode(server, "DUMMY1", "1024x768"))
            presenter.signal(SIGKILL)
            #expect(presenter.exitStatus(timeout: 10) == 128 + SIGKILL)
            usleep(500_000)
            // Nothing restores without the watchdog: the mode is still switched, the record is there.
            #expect(try server.currentModes().contains { $0.hasPrefix("DUMMY1 1024x768") }, "restored by whom?")
            #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).count == 1)
            let run = try Shell.run([try Self.extdisplay] + next, environment: env)
            #expect(run.status == 0, "extdisplay \(next) exited \(run.status)")
            #expect(try waitForMode(server, "DUMMY1", "1280x720"), "extdisplay \(next) did not restore DUMMY1")
            #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
        }
        let nothing = try Shell.run([try Self.extdisplay, "restore"], environment: env)
        #expect(nothing.status == 0 && nothing.output.contains("nothing to restore"), "\(nothing.output)")
    }

    @Test func theXServerGoingAwayGivesOneClearLine() throws {
        let server = try XorgServer.start()
        let state = try stateFolder()
        let presenter = try launchSwitching(server, state: state, watchdog: false)
        #expect(poll(15) { presenter.lines.contains { $0.contains("external: DUMMY1") } })
        server.stop()
        let status = presenter.exitStatus(timeout: 15)
        #expect(status == 1, "status \(String(describing: status)); stderr: \(presenter.stderr)")
        #expect(presenter.stderr.contains("the X server \(server.display) went away"), "\(presenter.stderr)")
        #expect(!presenter.stderr.contains("XIO"), "\(presenter.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
    }
}
#endif
