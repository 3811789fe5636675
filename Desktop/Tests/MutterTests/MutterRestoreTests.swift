import Foundation
import Testing

/// `extdisplay restore` on GNOME: a record of Mutter switches left by a run that is gone (as after a SIGKILL
/// with its watchdog killed too) is put back through `org.gnome.Mutter.DisplayConfig` (a temporary
/// configuration), read back from Mutter itself. Headless Mutter's virtual monitors offer one mode each, so a
/// real mode switch cannot happen here; the record moves a monitor back to its recorded place instead, through
/// the same `ApplyMonitorsConfig` call a mode restore makes.
@Suite("extdisplay restore on GNOME (headless Mutter)", .serialized)
struct MutterRestoreTests {
    @Test("a record left by a process that is gone: restore puts Meta-1 back at its place, then there is nothing left")
    func restoreALeftoverRecord() throws {
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("edk-mutter-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        // A pid that is certainly gone: a child that has ended.
        let gone = try ChildProcess("/bin/true", [])
        _ = gone.wait()
        let record: [String: Any] = [
            "display": mutter.waylandDisplay, "runtimeDirectory": mutter.runtimeDirectory, "pid": gone.pid,
            "entries": [["output": "Meta-1", "width": 1280, "height": 720, "milliHertz": 60_000, "x": 1920, "y": 0]],
            "method": "mutter-display-config", "sessionBus": mutter.busAddress,
        ]
        let file = state.appendingPathComponent("modes-wayland-\(mutter.waylandDisplay).json")
        try JSONSerialization.data(withJSONObject: record).write(to: file)

        // The layout the killed run left: Meta-1 below Meta-0.
        try mutter.arrange(primary: "Meta-0", place: ["Meta-1": (0, 1080)])
        #expect(try poll { try mutter.displayState().first { $0.connector == "Meta-1" }.map { ($0.x, $0.y) } ?? (0, 0) == (0, 1080) })

        var environment = mutter.environment
        environment["EXTDISPLAY_STATE_DIR"] = state.path
        let restore = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: environment)
        #expect(restore.status == 0, "\(restore.stdout) \(restore.stderr)")
        #expect(restore.stdout.contains("restored Meta-1 to 1280x720 at (1920,0), left switched by process \(gone.pid)"),
                "\(restore.stdout) \(restore.stderr)")
        let meta1 = try #require(try mutter.displayState().first { $0.connector == "Meta-1" })
        #expect((meta1.x, meta1.y, meta1.width, meta1.height) == (1920, 0, 1280, 720))
        #expect(!FileManager.default.fileExists(atPath: file.path), "the record is removed once restored")
        let again = try runToEnd(try Repository.extdisplay().path, ["restore"], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("nothing to restore"), "\(again.stdout) \(again.stderr)")
    }
}
