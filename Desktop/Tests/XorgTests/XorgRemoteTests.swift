import ExtDisplayTestSupport
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
            [try Repository.extdisplay().path, "present",
             try XorgPresenterTests.writeDeck().path] + extra, environment: env)
    }

    @Test func playerctlChangesSlidesAndPausesTheTimer() throws {
        let missing = ["playerctl", "dbus-daemon"].filter { !Shell.has($0) }
        guard missing.isEmpty else {
            throw XorgTestError("missing \(missing.joined(separator: ", ")): run scripts/install-deps.sh")
        }
        let server = try XorgServer.start()
        defer { server.stop() }
        let bus = try SessionBus.start()
        defer { bus.stop() }
        let presenter = try launch(server, bus: bus.address)
        defer { presenter.terminate() }
        #expect(presenter.waitForLine { $0.contains("external: DUMMY1") } != nil)
        let player = ["playerctl", "-p", "extdisplay_present"]
        let env = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        /// Polls (hang guard: 30 s) until `playerctl ARGS` succeeds with output containing `text`.
        func poll(_ arguments: [String], until text: String) throws -> Bool {
            try ExtDisplayTestSupport.poll(30, every: 0.1) {
                let result = try Shell.run(player + arguments, environment: env)
                return result.status == 0 && result.output.contains(text)
            }
        }
        func send(_ command: String) throws {
            let result = try Shell.run(player + [command], environment: env)
            guard result.status == 0 else { throw XorgTestError("playerctl \(command) failed (status \(result.status))") }
        }
        #expect(try poll(["status"], until: "Playing"), "playerctl never saw the presenter playing")
        try send("next")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
        #expect(try poll(["metadata", "title"], until: "Second slide"), "the bus never said Second slide")
        try send("previous")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") } != nil)
        #expect(try poll(["metadata", "title"], until: "First slide"), "the bus never said First slide")
        try send("play-pause")
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("(paused)") } != nil)
        #expect(try poll(["status"], until: "Paused"), "the bus never said Paused")
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }
}
