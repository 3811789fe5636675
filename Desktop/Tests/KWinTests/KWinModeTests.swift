import Foundation
import Testing

/// Modes on KDE through KWin's `kde_output_management_v2`, read back from `wayland-info` (libwayland's own client)
/// and from the record on disk. Each `kwin_wayland --virtual` output lists one mode (1024×768@60), so no real
/// switch to another mode can happen here; what can is tested: a size not listed refused with the reason, a
/// configuration of the current mode applied by KWin (recorded first, with the KDE method, and put back by the
/// watchdog after a SIGKILL), and `extdisplay restore` of a leftover record moving an output back to its place
/// through the same configuration.
@Suite("Modes on KDE (headless KWin)", .serialized)
struct KWinModeTests {
    /// A headless KWin with two outputs, a state folder of its own (removed by `stop`) and the environment that
    /// points `extdisplay` at both.
    private struct Setup {
        let kwin: KWinCompositor
        let state: URL
        var environment: [String: String?]
        func stop() {
            kwin.stop()
            try? FileManager.default.removeItem(at: state)
        }
    }

    private func setUp() throws -> Setup {
        let kwin = try KWinCompositor(outputs: 2)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("edk-kwin-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        var environment = kwin.environment
        environment["EXTDISPLAY_STATE_DIR"] = state.path
        return Setup(kwin: kwin, state: state, environment: environment)
    }

    private func record(_ folder: URL, _ kwin: KWinCompositor) -> URL {
        folder.appendingPathComponent("modes-wayland-\(kwin.waylandDisplay).json")
    }

    @Test("watch --set-mode with a size Virtual-1 does not list: refused with the reason (exit 1), nothing recorded, the mode stays")
    func setModeNotOffered() throws {
        let setup = try setUp()
        defer { setup.stop() }
        let (kwin, state, environment) = (setup.kwin, setup.state, setup.environment)
        let result = try runToEnd(try Repository.extdisplay().path, ["watch", "--set-mode", "Virtual-1=800x600"], environment: environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Virtual-1 does not offer 800×600"), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: record(state, kwin).path))
        let virtual1 = try #require(try kwin.outputs().first { $0.name == "Virtual-1" })
        #expect((virtual1.modeWidth, virtual1.modeHeight) == (1024, 768), "wayland-info: \(virtual1)")
    }

    @Test("watch --set-mode Virtual-1=1024x768: recorded with the KDE method, applied by KWin; after a SIGKILL the watchdog finds Virtual-1 as recorded and removes the record")
    func applyAndWatchdog() throws {
        let setup = try setUp()
        defer { setup.stop() }
        let (kwin, state, environment) = (setup.kwin, setup.state, setup.environment)
        let watch = try ChildProcess(try Repository.extdisplay().path, ["watch", "--set-mode", "Virtual-1=1024x768"], environment: environment)
        defer { watch.signal(SIGKILL) }
        // watch sets the mode before it starts watching: KWin answered `applied` by then (else it exits 1).
        #expect(poll { watch.stderr.contains("Ctrl-C to stop") || watch.hasEnded }, "stderr: \(watch.stderr)")
        #expect(!watch.hasEnded, "stderr: \(watch.stderr)")
        let data = try Data(contentsOf: record(state, kwin))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["method"] as? String == "kde-output-management-v2", "\(object)")
        let entries = object["entries"] as? [[String: Any]]
        #expect(entries?.count == 1 && entries?.first?["output"] as? String == "Virtual-1"
                && entries?.first?["width"] as? Int == 1024 && entries?.first?["x"] as? Int == 1024, "\(object)")

        watch.signal(SIGKILL)
        _ = watch.wait()
        #expect(poll(20) { !FileManager.default.fileExists(atPath: record(state, kwin).path) },
                "the watchdog left the record: \((try? String(contentsOf: record(state, kwin), encoding: .utf8)) ?? "")")
        let virtual1 = try #require(try kwin.outputs().first { $0.name == "Virtual-1" })
        #expect((virtual1.modeWidth, virtual1.modeHeight, virtual1.x, virtual1.y) == (1024, 768, 1024, 0), "\(virtual1)")
    }

    @Test("a record left by a process that is gone: restore puts Virtual-1 back at its recorded place through kde_output_management_v2, then there is nothing left")
    func restoreALeftoverRecord() throws {
        let setup = try setUp()
        defer { setup.stop() }
        let (kwin, state, environment) = (setup.kwin, setup.state, setup.environment)
        let gone = try ChildProcess("/bin/true", [])
        _ = gone.wait()
        // The layout the killed run is said to have found: Virtual-1 below Virtual-0 (now it is right of it).
        let saved: [String: Any] = [
            "display": kwin.waylandDisplay, "runtimeDirectory": kwin.runtimeDirectory, "pid": gone.pid,
            "entries": [["output": "Virtual-1", "width": 1024, "height": 768, "milliHertz": 60_000, "x": 0, "y": 768]],
            "method": "kde-output-management-v2",
        ]
        try JSONSerialization.data(withJSONObject: saved).write(to: record(state, kwin))
        let restore = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: environment)
        #expect(restore.status == 0, "\(restore.stdout) \(restore.stderr)")
        #expect(restore.stdout.contains("restored Virtual-1 to 1024x768 at (0,768), left switched by process \(gone.pid)"),
                "\(restore.stdout) \(restore.stderr)")
        let virtual1 = try #require(try kwin.outputs().first { $0.name == "Virtual-1" })
        #expect((virtual1.x, virtual1.y, virtual1.modeWidth) == (0, 768, 1024), "wayland-info: \(virtual1)")
        #expect(!FileManager.default.fileExists(atPath: record(state, kwin).path), "the record is removed once restored")
        let again = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("nothing to restore"), "\(again.stdout) \(again.stderr)")
    }
}
