import Foundation
import Testing

/// `play --serve` refused where it cannot work, with a message and status 2, before anything is served.
@Suite("play --serve arguments (headless)")
struct PlayServeArgumentTests {
    @Test func headlessRunsAndBadAddressesAreRefusedWithAMessage() throws {
        let dir = try HostileInputTests.folder()
        try Data("not a video".utf8).write(to: dir.appendingPathComponent("film.webm"))
        // A simulated run is in virtual time: pages could not follow it.
        let (status, _, errors) = try HostileInputTests.run(["play", "film.webm", "--simulate", "laptop,hdmi-tv-1080p",
                                                            "--serve", "0"], in: dir)
        #expect(status == 2 && errors.contains("--serve cannot follow a --simulate run"), "\(status): \(errors)")
        // Without a display server it serves only, once the file opens as a video: this one does not, and nothing
        // is served.
        let (status2, output2, errors2) = try HostileInputTests.run(["play", "film.webm", "--serve", "127.0.0.1:0"], in: dir)
        #expect(status2 == 2 && !errors2.isEmpty && !output2.contains("to browsers at"), "\(status2): \(output2) \(errors2)")
        // Browser pages only: needs --serve, and is no headless simulation.
        let (status3, _, errors3) = try HostileInputTests.run(["play", "film.webm", "--display", "browser"], in: dir)
        #expect(status3 == 2 && errors3.contains("add --serve"), "\(status3): \(errors3)")
        let (status4, _, errors4) = try HostileInputTests.run(["play", "film.webm", "--display", "browser", "--simulate",
                                                               "laptop", "--serve", "0"], in: dir)
        #expect(status4 == 2 && errors4.contains("--serve cannot follow a --simulate run"), "\(status4): \(errors4)")
    }
}
