import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// `extdisplay present` on a real X server: Xorg with the dummy driver and two outputs (DUMMY0 1920×1080 main,
/// DUMMY1 1280×720 external at +1920+0), started by scripts/xorg-dummy.sh.
@Suite("Presenter on Xorg-dummy", .serialized,
       .enabled(if: XorgServer.isAvailable, "needs root, Xorg with the dummy driver, xdotool, xwd and scripts/xorg-dummy.sh"))
@MainActor
struct XorgPresenterTests {
    static let deck = """
    # First slide
    - visible bullet
    Note:
    NOTESMARKER secret speaker notes that must stay on the laptop
    ---
    # Second slide
    More text
    Note: second NOTESMARKER note
    ---
    # Third slide
    """

    @Test func audienceWindowShowsTheSlideKeysNavigateAndQuitRestoresModes() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let modesBefore = try server.currentModes()
        let deckFile = try Self.writeDeck()
        let presenter = try RunningProcess(
            [Shell.packageRoot.appendingPathComponent(".build/debug/extdisplay").path, "present", deckFile.path],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("external: DUMMY1") } != nil,
                "lines: \(presenter.lines)")
        try server.waitForWindow(XorgServer.audienceWindow)
        usleep(500_000)

        let external = "1920,0,1280,720", console = "0,0,1920,1080"
        let shot1 = try server.screenshot()
        let notes = PresenterTheme().notes, slide = PresenterTheme().slideBackground
        #expect(try Self.scan(shot1, region: external, notes) == 0, "notes on the external display")
        #expect(try Self.scan(shot1, region: external, slide) > 100_000, "no slide on the external display")
        #expect(try Self.scan(shot1, region: console, notes) > 500, "no notes on the console")

        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
        usleep(400_000)
        let shot2 = try server.screenshot()
        #expect(try Self.digest(shot1, external) != Self.digest(shot2, external), "the external display did not change")
        #expect(try Self.scan(shot2, region: external, notes) == 0)
        try server.key("Left")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil)
        try server.key("Next")  // PageDown, as a clicker sends
        try server.key("p")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") && $0.contains("(paused)") } != nil)

        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
        #expect(presenter.process.terminationStatus == 0)
        #expect(try server.currentModes() == modesBefore)
    }

    @Test func aDisplaySwitchedOnMidTalkShowsTheCurrentSlide() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let deckFile = try Self.writeDeck()
        let presenter = try RunningProcess(
            [Shell.packageRoot.appendingPathComponent(".build/debug/extdisplay").path, "present", deckFile.path],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil)
        try server.waitForWindow("extdisplay present: console")
        try server.key("Right")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
        try Shell.run(["xrandr", "--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1"],
                      environment: ["DISPLAY": server.display])
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") && $0.contains("DUMMY2") } != nil,
                "lines: \(presenter.lines)")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    @Test func withDisplayNameOtherDisplaysGetNoSlides() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess(
            [Shell.packageRoot.appendingPathComponent(".build/debug/extdisplay").path, "present", try Self.writeDeck().path,
             "--display", "DUMMY1"],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.contains("external: DUMMY1") } != nil)
        try Shell.run(["xrandr", "--output", "DUMMY2", "--mode", "1280x720", "--right-of", "DUMMY1"],
                      environment: ["DISPLAY": server.display])
        usleep(1_500_000)
        #expect(!presenter.lines.contains { $0.contains("DUMMY2") }, "lines: \(presenter.lines)")
        let shot = try server.screenshot()
        #expect(try Self.scan(shot, region: "3200,0,1280,720", PresenterTheme().slideBackground) == 0)
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }

    static func writeDeck() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("present-xorg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("deck.md")
        try Self.deck.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func scan(_ file: URL, region: String, _ color: RGBA) throws -> Int {
        let out = try Shell.run(["python3", Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path, "--region", region, file.path,
                                 String(color.description.dropFirst())]).output
        return Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static func digest(_ file: URL, _ region: String) throws -> String {
        try Shell.run(["python3", Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path, "--digest", region, file.path]).output
    }
}

/// An Xorg server with the dummy driver, started and stopped with scripts/xorg-dummy.sh.
struct XorgServer {
    let display: String
    let pid: String

    /// The audience window's name: the presenter's own SDL window or the desktop platform's.
    static let audienceWindow = "extdisplay present: audience|ExternalDisplayKit: "

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: Shell.packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path)
            && FileManager.default.fileExists(atPath: Shell.packageRoot.appendingPathComponent(".build/debug/extdisplay").path)
            && getuid() == 0 && Shell.has("Xorg") && Shell.has("xdotool") && Shell.has("xwd") && Shell.has("python3")
    }

    static func start() throws -> XorgServer {
        let out = try Shell.run(["bash", Shell.packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path, "start"]).output
        var fields: [String: String] = [:]
        for pair in out.split(whereSeparator: \.isWhitespace) {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { fields[kv[0]] = kv[1] }
        }
        guard let display = fields["DISPLAY"], let pid = fields["PID"] else {
            throw XorgTestError("scripts/xorg-dummy.sh start printed: \(out)")
        }
        return XorgServer(display: display, pid: pid)
    }

    func stop() { _ = try? Shell.run(["bash", Shell.packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path, "stop", pid]) }

    /// The mode in force on each output: `DUMMY1 1280x720+1920+0 60.00`.
    func currentModes() throws -> [String] {
        var out: [String] = [], output = ""
        for line in try Shell.run(["xrandr", "--current"], environment: ["DISPLAY": display]).output.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if line.contains(" connected") {
                output = words[0] + " " + (words.first { $0.contains("+") && $0.contains("x") } ?? "off")
            } else if let rate = words.first(where: { $0.contains("*") }) {
                out.append(output + " " + rate.filter { $0.isNumber || $0 == "." })
                output = ""
            }
        }
        return out
    }

    /// Runs xrandr on this server.
    func xrandr(_ arguments: [String]) throws {
        try Shell.run(["xrandr"] + arguments, environment: ["DISPLAY": display])
    }

    func waitForWindow(_ name: String) throws {
        for _ in 0..<100 {
            if try Shell.run(["xdotool", "search", "--name", name], environment: ["DISPLAY": display]).status == 0 { return }
            usleep(100_000)
        }
        throw XorgTestError("no window named '\(name)' appeared")
    }

    /// Focuses the console window and types a key there.
    func key(_ key: String) throws {
        let env = ["DISPLAY": display]
        let window = try Shell.run(["xdotool", "search", "--name", "extdisplay present: console"], environment: env)
            .output.split(separator: "\n").first.map(String.init) ?? ""
        try Shell.run(["xdotool", "windowfocus", "--sync", window], environment: env)
        try Shell.run(["xdotool", "key", key], environment: env)
    }

    func screenshot() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("present-\(UUID().uuidString).xwd")
        let data = try Shell.run(["sh", "-c", "xwd -root -silent > \(file.path)"], environment: ["DISPLAY": display])
        guard data.status == 0 else { throw XorgTestError("xwd failed") }
        return file
    }
}

struct XorgTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
