import ExtDisplayTestSupport
import Foundation
import Testing

/// The screenshots every Xorg test judges by: the root window read with the server grabbed (`RootCapture`), so a
/// screen reconfigured at the same moment cannot make a capture fail — `xwd -root` could, and was tried again up to
/// 50 times.
@Suite("Root captures under Xorg-dummy", .serialized)
struct RootCaptureTests {
    @Test func aCaptureIsTheRootWindowsSizeAndColours() throws {
        let x = try XorgServer.start()
        defer { x.stop() }
        _ = try x.run(["xsetroot", "-solid", "#12C456"])
        let geometry = try #require(try x.outputGeometry("DUMMY1"), "DUMMY1 is not on")
        let image = try x.captureRoot()
        // DUMMY0 1920 wide at the origin, DUMMY1 right of it: the root spans both.
        #expect(image.width == geometry[0] + geometry[2] && image.height == 1080, "\(image.width)×\(image.height)")
        #expect(image.pixel(x: 10, y: 10) == 0x12C456 && image.pixel(x: image.width - 10, y: 10) == 0x12C456,
                "\(String(image.pixel(x: 10, y: 10), radix: 16))")
    }

    @Test func capturesWhileTheScreenIsReconfiguredAllSucceed() throws {
        let x = try XorgServer.start()
        defer { x.stop() }
        // Another client switches DUMMY1 off and on, changing the root window's size, as fast as it can.
        let toggler = try ChildProcess("/bin/sh", ["-c", "while :; do xrandr --output DUMMY1 --off; "
                                                   + "xrandr --output DUMMY1 --mode 1280x720 --right-of DUMMY0; done"],
                                       environment: ["DISPLAY": x.display])
        defer {
            toggler.signal(SIGKILL)
            _ = toggler.wait()
        }
        var sizes = Set<Int>()
        var xwdFailures = 0
        for _ in 0..<40 {
            let image = try x.captureRoot()
            sizes.insert(image.width)
            #expect(image.width == 1920 || image.width == 3200, "a capture of width \(image.width)")
            // The tool the captures replaced, for the record: how often it fails in the same storm (not judged).
            let xwd = try Shell.run(["sh", "-c", "xwd -root -silent > /dev/null"], environment: ["DISPLAY": x.display])
            if xwd.status != 0 { xwdFailures += 1 }
        }
        #expect(sizes.count == 2, "the screen was not reconfigured while it was read: widths \(sizes.sorted())")
        print("root captures during reconfiguration: 40 of 40 read (widths \(sizes.sorted())); xwd -root failed "
              + "\(xwdFailures) of 40 times in the same storm")
    }
}
