import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The MPRIS remote under Xorg-dummy: `playerctl` on a private session bus drives the slides and the timer.
/// Part of the same serialized suite: one X server at a time.
extension XorgPresenterTests {
    func launch(_ server: XorgServer, _ extra: [String] = [], bus: String? = nil) throws -> RunningProcess {
        var env = ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"]
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus }
        return try RunningProcess(
            [Shell.packageRoot.appendingPathComponent(".build/debug/extdisplay").path, "present",
             try XorgPresenterTests.writeDeck().path] + extra, environment: env)
    }

    @Test func playerctlChangesSlidesAndPausesTheTimer() throws {
        guard Shell.has("playerctl"), Shell.has("dbus-daemon") else { return }
        let server = try XorgServer.start()
        defer { server.stop() }
        let bus = try SessionBus.start()
        defer { bus.stop() }
        let presenter = try launch(server, bus: bus.address)
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.contains("external: DUMMY1") } != nil)
        let player = ["playerctl", "-p", "extdisplay_present"]
        let env = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        for _ in 0..<50 where try Shell.run(player + ["status"], environment: env).status != 0 { usleep(100_000) }
        try Shell.run(player + ["next"], environment: env)
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
        usleep(300_000)
        #expect(try Shell.run(player + ["metadata", "title"], environment: env).output.contains("Second slide"))
        try Shell.run(player + ["previous"], environment: env)
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil)
        try Shell.run(player + ["play-pause"], environment: env)
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("(paused)") } != nil)
        usleep(300_000)
        #expect(try Shell.run(player + ["status"], environment: env).output.contains("Paused"))
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }
}

/// A private D-Bus session bus for one test.
struct SessionBus {
    let address: String
    let pid: String

    static func start() throws -> SessionBus {
        let lines = try Shell.run(["dbus-daemon", "--session", "--print-address=1", "--print-pid=1", "--fork"]).output
            .split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { throw XorgTestError("dbus-daemon did not start") }
        return SessionBus(address: lines[0], pid: lines[1])
    }

    func stop() { if let p = Int32(pid) { kill(p, SIGKILL) } }
}
