import Foundation
import Testing

/// `extdisplay list` and `present` on a real headless KWin (KDE's compositor), checked against `wayland-info`
/// (libwayland's own client): names, modes, logical geometry, scale; the main display is the first output of
/// KWin's `kde_output_order_v1` — Virtual-0 for `--virtual` outputs (`WAYLAND_DEBUG=1` shows KWin sending
/// `output("Virtual-0")`, `output("Virtual-1")`, `done()`). `present --mode` with a size Virtual-1 does not list keeps
/// its mode (each `--virtual` output has one), and ends with status 0 on SIGTERM.
@Suite("extdisplay on KDE (headless KWin)", .serialized)
struct KWinListTests {
    @Test("list --json: Virtual-0 and Virtual-1 with mode, logical place and size, scale; Virtual-0 is main")
    func listMatchesWaylandInfo() throws {
        let kwin = try KWinCompositor(outputs: 2)
        defer { kwin.stop() }
        let truth = try kwin.outputs()
        #expect(truth.map(\.name).sorted() == ["Virtual-0", "Virtual-1"], "wayland-info: \(truth)")
        let result = try runToEnd(try Repository.extdisplay().path, ["list", "--json"], environment: kwin.environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let listed = Dictionary(array.map { ($0["id"] as? String ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(listed.keys) == Set(truth.map(\.name)))
        for output in truth {
            let object = try #require(listed[output.name], "\(output.name) missing")
            let mode = object["currentMode"] as? [String: Any]
            #expect(mode?["width"] as? Int == output.modeWidth && mode?["height"] as? Int == output.modeHeight,
                    "\(output.name)")
            #expect((mode?["refreshRate"] as? Double).map { Int(($0 * 1000).rounded()) } == output.milliHertz)
            #expect(object["position"] as? [String: Int] == ["x": output.x, "y": output.y], "\(output.name)")
            #expect(object["logicalSize"] as? [String: Int] == ["width": output.width, "height": output.height])
            #expect(object["scale"] as? Double == Double(output.scale))
            #expect(object["main"] as? Bool == (output.name == "Virtual-0"), "\(output.name)")
        }
    }

    @Test("present --display Virtual-1 --mode 800x600 runs on KWin, Virtual-1 stays 1024×768 in wayland-info, and SIGTERM ends it with status 0")
    func presentAndSIGTERM() throws {
        let kwin = try KWinCompositor(outputs: 2)
        defer { kwin.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-kwin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deck = folder.appendingPathComponent("deck.md")
        try "# KDE talk\n---\n# Two\n".write(to: deck, atomically: true, encoding: .utf8)
        let presenter = try ChildProcess(try Repository.extdisplay().path, ["present", deck.path, "--display", "Virtual-1", "--mode", "800x600"],
                                         environment: kwin.environment)
        defer { presenter.signal(SIGKILL) }
        #expect(poll { presenter.lines.contains { $0.hasSuffix("external: Virtual-1") } || presenter.hasEnded },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        #expect(!presenter.hasEnded, "stderr: \(presenter.stderr)")
        // KWin lets clients switch modes (kde-output-management-v2): no "--mode has no effect" here; a size the
        // output does not list is not asked for (the engine keeps the preferred mode) and Virtual-1 keeps its own.
        #expect(!presenter.stderr.contains("--mode has no effect"), "stderr: \(presenter.stderr)")
        // …and the user is told, with the sizes Virtual-1 offers.
        #expect(poll { presenter.stderr.contains("Virtual-1 does not offer 800×600 (it offers 1024×768)") },
                "stderr: \(presenter.stderr)")
        let virtual1 = try #require(try kwin.outputs().first { $0.name == "Virtual-1" })
        #expect(virtual1.modeWidth == 1024 && virtual1.modeHeight == 768, "wayland-info: \(virtual1)")
        presenter.signal(SIGTERM)
        #expect(presenter.exitStatus(timeout: 20) == 0, "stderr: \(presenter.stderr)")
    }
}
