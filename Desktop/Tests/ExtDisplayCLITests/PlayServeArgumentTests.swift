import Foundation
import Testing

/// `play --serve` refused where it cannot work, with a message and status 2, before any file is decoded.
@Suite("play --serve arguments (headless)")
struct PlayServeArgumentTests {
    @Test func headlessRunsAndBadAddressesAreRefusedWithAMessage() throws {
        let dir = try HostileInputTests.folder()
        try Data("not a video".utf8).write(to: dir.appendingPathComponent("film.webm"))
        // A simulated run is in virtual time: pages could not follow it.
        let (status, _, errors) = try HostileInputTests.run(["play", "film.webm", "--simulate", "laptop,hdmi-tv-1080p",
                                                            "--serve", "0"], in: dir)
        #expect(status == 2 && errors.contains("--serve plays along with the desktop player"), "\(status): \(errors)")
        // Without a display server either.
        let (status2, _, errors2) = try HostileInputTests.run(["play", "film.webm", "--serve", "127.0.0.1:0"], in: dir)
        #expect(status2 == 2 && errors2.contains("--serve plays along with the desktop player"), "\(status2): \(errors2)")
    }
}
