import Foundation
import Testing

/// Modes switched through wlr-output-management come back after exits the switching process cannot live
/// through: sway 1.7 keeps such a switch after its client dies, so a SIGKILL would otherwise leave it. Every
/// mode is read from sway's own IPC (`swaymsg -t get_outputs -r`), never from extdisplay.
@Suite("Wayland mode recovery (state file, watchdog, extdisplay restore)", .serialized)
struct WaylandModeRecoveryTests {
    /// A private record folder per test, so runs never see each other's records.
    private final class StateFolder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("edk-wl-state-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func record(_ sway: SwayCompositor) -> URL { url.appendingPathComponent("modes-wayland-\(sway.waylandDisplay).json") }
    }

    private func environment(_ sway: SwayCompositor, _ state: StateFolder) -> [String: String?] {
        var env = sway.environment
        env["EXTDISPLAY_STATE_DIR"] = state.url.path
        env["EXTDISPLAY_WATCHDOG"] = nil
        return env
    }

    /// HEADLESS-2's current width×height and place, from sway.
    private func headless2(_ sway: SwayCompositor) throws -> [Int?] {
        let output = try #require(try sway.outputs().first { $0.name == "HEADLESS-2" })
        return [output.currentWidth, output.currentHeight, output.x, output.y]
    }

    private func headless1(_ sway: SwayCompositor) throws -> [Int?] {
        let output = try #require(try sway.outputs().first { $0.name == "HEADLESS-1" })
        return [output.currentWidth, output.currentHeight, output.x, output.y]
    }

    /// Starts `watch --set-mode HEADLESS-2=1024x768@60` and waits until sway reports the switch.
    private func switchingWatch(_ sway: SwayCompositor, _ state: StateFolder) throws -> ChildProcess {
        let watch = try ChildProcess(try Repository.extdisplay().path, ["watch", "--set-mode", "HEADLESS-2=1024x768@60"],
                                environment: environment(sway, state))
        guard poll(30, { (try? headless2(sway)) == [1024, 768, 1920, 0] || watch.hasEnded }),
              !watch.hasEnded else {
            throw WaylandTestFailure("watch did not switch HEADLESS-2: \(watch.stderr)")
        }
        return watch
    }

    /// The pid of the watchdog started for `parent` (`extdisplay restore … --watch-parent PID`), from /proc.
    private func watchdog(of parent: pid_t) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if let at = arguments.firstIndex(of: "--watch-parent"), at + 1 < arguments.count,
               arguments[at + 1] == "\(parent)", arguments.contains("restore") { return pid }
        }
        return nil
    }

    @Test("watch --set-mode then SIGKILL: the watchdog puts the mode back and removes the record")
    func sigkillIsUndoneByTheWatchdog() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let state = try StateFolder()
        let watch = try switchingWatch(sway, state)
        // Written before the switch: the original 1280×720 at (1920,0), owned by the watch process.
        let text = try String(contentsOf: state.record(sway), encoding: .utf8)
        let record = try #require(try parseJSON(text) as? [String: Any])
        #expect(record["pid"] as? Int == Int(watch.pid))
        let entries = try #require(record["entries"] as? [[String: Any]])
        #expect(entries.count == 1 && entries[0]["output"] as? String == "HEADLESS-2"
                && entries[0]["width"] as? Int == 1280 && entries[0]["height"] as? Int == 720, "\(text)")
        #expect(poll { watchdog(of: watch.pid) != nil }, "no watchdog process for \(watch.pid)")
        // While the switching process runs, restore refuses without --force and changes nothing.
        let early = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: environment(sway, state))
        #expect(early.status == 1 && early.stderr.contains("still running"), "\(early.stdout) \(early.stderr)")
        #expect(try headless2(sway) == [1024, 768, 1920, 0])

        watch.signal(SIGKILL)
        #expect(watch.wait() == 128 + SIGKILL)
        #expect(poll { (try? headless2(sway)) == [1280, 720, 1920, 0] }, "sway: \(String(describing: try? headless2(sway)))")
        #expect(poll { !FileManager.default.fileExists(atPath: state.record(sway).path) }, "record left behind")
        #expect(try headless1(sway) == [1920, 1080, 0, 0])
        #expect(watch.stderr.contains("restored HEADLESS-2 to 1280x720"), "stderr: \(watch.stderr)")
    }

    @Test("watch and its watchdog both killed: extdisplay restore (backend chosen by WAYLAND_DISPLAY) puts it back")
    func restoreAfterBothWereKilled() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let state = try StateFolder()
        let watch = try switchingWatch(sway, state)
        var dog: pid_t?
        #expect(poll { dog = watchdog(of: watch.pid); return dog != nil }, "no watchdog process for \(watch.pid)")
        if let dog { kill(dog, SIGKILL) }
        // A killed child of watch stays a zombie (empty command line) until watch ends: gone from the search.
        #expect(poll { watchdog(of: watch.pid) == nil }, "the watchdog survived SIGKILL")
        watch.signal(SIGKILL)
        #expect(watch.wait() == 128 + SIGKILL)
        // Nobody is left to restore: sway keeps the switch.
        #expect(try headless2(sway) == [1024, 768, 1920, 0])
        #expect(FileManager.default.fileExists(atPath: state.record(sway).path))

        // DISPLAY set too: auto must still pick Wayland because WAYLAND_DISPLAY is set.
        var env = environment(sway, state)
        env["DISPLAY"] = ":999"
        let restore = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: env)
        #expect(restore.status == 0, "\(restore.stdout) \(restore.stderr)")
        #expect(restore.stdout.contains("restored HEADLESS-2 to 1280x720 at (1920,0), left switched by process \(watch.pid)"),
                "\(restore.stdout) \(restore.stderr)")
        #expect(try headless2(sway) == [1280, 720, 1920, 0])
        #expect(try headless1(sway) == [1920, 1080, 0, 0])
        #expect(!FileManager.default.fileExists(atPath: state.record(sway).path))

        let again = try runToEnd(try Repository.extdisplay().path, ["restore", "--backend", "wayland",
                                                        "--display", sway.waylandDisplay], environment: env)
        #expect(again.status == 0 && again.stdout.contains("nothing to restore on \(sway.waylandDisplay)"),
                "\(again.stdout) \(again.stderr)")
    }

    @Test("a damaged or implausible record: restore says what is wrong, keeps the file, touches no output")
    func damagedRecordsChangeNothing() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let state = try StateFolder()
        // A mode a restore would change: HEADLESS-2 at 1024×768, while each record below names 1280×720.
        try sway.setMode("HEADLESS-2", width: 1024, height: 768, x: 1920, y: 0)
        #expect(try headless2(sway) == [1024, 768, 1920, 0])
        let dead = try ChildProcess("/bin/true", [])  // a process id that has ended
        dead.wait()
        let display = sway.waylandDisplay
        func record(display: String = display, pid: String = "\(dead.pid)", width: String = "1280") -> String {
            """
            {"display":"\(display)","entries":[{"height":720,"milliHertz":60000,"output":"HEADLESS-2",\
            "width":\(width),"x":1920,"y":0}],"pid":\(pid),"runtimeDirectory":"\(sway.runtimeDirectory)"}
            """
        }
        let cases: [(String, String, String)] = [
            ("truncated", String(record().prefix(60)), "invalid JSON"),
            ("pid is text", record(pid: "\"abc\""), "wrong value at pid"),
            ("field missing", #"{"display":"\#(display)","pid":1,"runtimeDirectory":"/tmp"}"#, "no \"entries\" field"),
            ("absurd width", record(width: "99999"), "99999x720 is outside"),
            ("another display", record(display: "wayland-77"), "it is for display wayland-77"),
            ("binary", "\u{0}\u{1}\u{FF}garbage", "invalid JSON"),
        ]
        for (name, contents, reason) in cases {
            try Data(contents.utf8).write(to: state.record(sway))
            let result = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: environment(sway, state))
            #expect(result.status == 1, "\(name): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("the mode record \(state.record(sway).path) is damaged")
                    && result.stderr.contains(reason) && result.stderr.contains("nothing was restored"),
                    "\(name): \(result.stderr)")
            #expect(try headless2(sway) == [1024, 768, 1920, 0], "\(name) changed HEADLESS-2")
            #expect(try headless1(sway) == [1920, 1080, 0, 0], "\(name) changed HEADLESS-1")
            #expect(try String(contentsOf: state.record(sway), encoding: .utf8) == contents, "\(name): file changed")
        }
        // Any other command on that compositor reports it too and still works.
        let list = try runToEnd(try Repository.extdisplay().path, ["list"], environment: environment(sway, state))
        #expect(list.status == 0 && list.stderr.contains("is damaged") && list.stdout.contains("HEADLESS-2"),
                "\(list.stdout) \(list.stderr)")
        #expect(try headless2(sway) == [1024, 768, 1920, 0])
        // The same record, intact, does restore: the cases above failed for their defect alone.
        try Data(record().utf8).write(to: state.record(sway))
        let good = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: environment(sway, state))
        #expect(good.status == 0 && good.stdout.contains("restored HEADLESS-2 to 1280x720"), "\(good.stdout) \(good.stderr)")
        #expect(try headless2(sway) == [1280, 720, 1920, 0])
    }
}
