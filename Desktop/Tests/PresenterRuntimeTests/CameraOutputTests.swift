#if os(Linux) && canImport(CSDL2)
import DesktopVideo
import ExtDisplayCore
import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter
@testable import PresenterRuntime

/// The camera's output on the runtime, with a recording sink in place of GStreamer: a new picture is sent the
/// moment the audience is drawn, stamped with the runtime's clock, in BGRx; while nothing changes the runtime
/// wakes at the camera's deadlines (a ``ManualClock``: virtual time) and the host repeats the last picture at the
/// steady rate; a sink that fails is reported once and asks for no more passes.
@Suite("The camera output on the runtime")
@MainActor
struct CameraOutputTests {
    /// What a camera was given.
    final class RecordingSink: CameraFrameSink {
        let width: Int, height: Int
        var published: [(time: Double, firstPixel: [UInt8])] = []
        var repeats: [Double] = []
        var failure: String?
        var stopped = false
        init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
        func publish(at time: Double, fill: (UnsafeMutableRawBufferPointer) -> Bool) {
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            guard bytes.withUnsafeMutableBytes(fill) else { return }
            published.append((time, Array(bytes[0..<4])))
        }
        func repeatLast(at time: Double) { repeats.append(time) }
        func stop() { stopped = true }
    }

    /// An audience host drawing `list` on the camera once each time it is set (as CableAudienceHost draws a
    /// changed picture).
    final class FeedHost: PresenterHost {
        var output: CameraOutput?
        var list: DisplayList?
        func start(in runtime: PresenterRuntime) {}
        func drawAudience(at now: Double, clock: String) {
            guard let list, let output else { return }
            output.present(list)
            self.list = nil
        }
    }

    static let size = PixelSize(width: 64, height: 36)
    static let target = ShareTarget(kind: .camera, size: ShareTarget.Size(width: 64, height: 36))
    static func filled(_ color: RGBA) -> DisplayList {
        DisplayList(size: size, operations: [.fill(Rect(x: 0, y: 0, width: size.width, height: size.height), color)])
    }

    @Test func newPicturesGoOutAtOnceAndTheLastIsRepeatedAtTheRuntimesDeadlines() async throws {
        let clock = ManualClock()
        let runtime = PresenterRuntime(controller: PresenterController(deck: PresenterRuntimeTests.deck, startedAt: 0),
                                       clock: clock, wallClock: { PresenterRuntimeTests.wall })
        var sinks: [RecordingSink] = []
        let camera = CameraHost(clock: runtime.timeSource, say: { _ in }, makeSink: { _, target in
            let sink = RecordingSink(width: target.size.width, height: target.size.height)
            sinks.append(sink)
            return sink
        })
        let output = try camera.makeOutput(for: Self.target, caches: runtime.caches, destination: .defaultPipeWire)
        let sink = try #require(sinks.first)
        let feed = FeedHost()
        feed.output = output
        feed.list = Self.filled(RGBA(255, 0, 0))
        runtime.add(feed)
        runtime.add(camera)
        #expect(camera.nextDeadline(after: 0) == nil, "nothing to repeat before the first picture")

        let loop = Task { await runtime.run() }
        await runtime.nextPass()
        #expect(sink.published.count == 1)
        #expect(sink.published.first?.time == 0)
        #expect(sink.published.first?.firstPixel.prefix(3) == [0, 0, 255], "BGRx: red is blue 0, green 0, red 255")
        #expect(camera.nextDeadline(after: 0) == 0.2)

        // Virtual time: only the runtime's sleep until the camera's deadline moves anything.
        clock.advance(by: .milliseconds(200))
        try await waitUntil("the first repeat") { sink.repeats.count == 1 }
        // 0.1 s later the camera asks for nothing yet: the runtime's next wakeup is its deadline, 0.4.
        clock.advance(by: .milliseconds(100))
        #expect(camera.nextDeadline(after: 0.3) == 0.4)
        camera.afterPass(at: 0.3)
        #expect(sink.repeats.count == 1, "no repeat 0.1 s after the last")
        clock.advance(by: .milliseconds(100))
        try await waitUntil("the second repeat") { sink.repeats.count == 2 }
        #expect(sink.repeats == [0.2, 0.4])

        // A key at 0.45: the new picture goes out then, and the next repeat counts from it.
        clock.advance(by: .milliseconds(50))
        feed.list = Self.filled(RGBA(0, 0, 255))
        runtime.wake()
        try await waitUntil("the changed picture") { sink.published.count == 2 }
        #expect(abs((sink.published.last?.time ?? 0) - 0.45) < 1e-9)
        #expect(sink.published.last?.firstPixel.prefix(3) == [255, 0, 0], "BGRx: blue")
        #expect(output.newFrames == 2 && output.repeats == 2)
        #expect(abs((camera.nextDeadline(after: 0.45) ?? 0) - 0.65) < 1e-9)

        runtime.send(.stop)
        await loop.value
        #expect(sink.stopped, "the camera is closed with the talk")
    }

    @Test func aFailedSinkIsReportedOnceAndAsksForNoMorePasses() throws {
        var said: [String] = []
        var sinks: [RecordingSink] = []
        var now = 0.0
        let camera = CameraHost(clock: { 0 }, say: { said.append($0) }, makeSink: { _, target in
            let sink = RecordingSink(width: target.size.width, height: target.size.height)
            sinks.append(sink)
            return sink
        })
        let output = try camera.makeOutput(for: Self.target, caches: DrawingCaches(), destination: .defaultPipeWire)
        #expect(said.count == 1 && said[0].contains("PipeWire node extdisplay-camera")
                && said[0].contains("I420 64×36"), "it says where and how the camera is published: \(said)")
        output.present(Self.filled(RGBA(0, 255, 0)))
        let sink = try #require(sinks.first)
        sink.failure = "the camera on the PipeWire node extdisplay-camera stopped: the daemon went away"
        now = 0.2
        camera.afterPass(at: now)
        camera.afterPass(at: 0.4)
        #expect(sink.repeats.isEmpty)
        #expect(said.count == 2 && said[1].contains("the daemon went away")
                && said[1].contains("the talk goes on without the camera"), "\(said)")
        #expect(camera.nextDeadline(after: now) == nil)
    }

    @Test func aDestinationThatRefusesIsAnErrorTheCallerCanSay() {
        let camera = CameraHost(clock: { 0 }, say: { _ in }, makeSink: { destination, _ throws(CameraStreamError) in
            throw .refused(destination: destination.description, reason: "no daemon", advice: "start PipeWire")
        })
        #expect(throws: CameraStreamError.self) {
            _ = try camera.makeOutput(for: Self.target, caches: DrawingCaches(), destination: .defaultPipeWire)
        }
        #expect(camera.cameras.isEmpty)
    }
}

@Suite("Where the camera is published")
struct CameraDestinationTests {
    /// A sysfs-like folder: `video0` a real webcam (under a PCI device), `video9` and `video10` v4l2loopback's.
    static func fakeSysfs() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("edk-sysfs-\(UUID().uuidString)")
        let devices = root.appendingPathComponent("devices"), classes = root.appendingPathComponent("class/video4linux")
        try FileManager.default.createDirectory(at: classes, withIntermediateDirectories: true)
        for (entry, parent, name) in [("video0", "pci0000:00/usb1/1-1", "Integrated Camera"),
                                      ("video10", "virtual/video4linux", "second"),
                                      ("video9", "virtual/video4linux", "extdisplay")] {
            let device = devices.appendingPathComponent(parent).appendingPathComponent(entry)
            try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
            try (name + "\n").write(to: device.appendingPathComponent("name"), atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(at: classes.appendingPathComponent(entry), withDestinationURL: device)
        }
        return classes
    }

    @Test func loopbackDevicesAreTheVirtualOnesInNumberOrder() throws {
        let sysfs = try Self.fakeSysfs()
        #expect(V4L2Loopback.devices(sysfs: sysfs) == [V4L2Loopback(device: "/dev/video9", name: "extdisplay"),
                                                        V4L2Loopback(device: "/dev/video10", name: "second")])
        #expect(V4L2Loopback.devices(sysfs: sysfs.appendingPathComponent("missing")).isEmpty)
    }

    @Test func theEnvironmentThenALoopbackDeviceThenPipeWire() throws {
        let loopback = [V4L2Loopback(device: "/dev/video9", name: "extdisplay")]
        #expect(try CameraDestination.choose(environment: [:], loopbacks: []) == .defaultPipeWire)
        #expect(try CameraDestination.choose(environment: [:], loopbacks: loopback) == .v4l2Loopback(device: "/dev/video9"))
        #expect(try CameraDestination.choose(environment: ["EXTDISPLAY_CAMERA_DEVICE": "PipeWire"], loopbacks: loopback)
                == .defaultPipeWire)
        #expect(try CameraDestination.choose(environment: ["EXTDISPLAY_CAMERA_DEVICE": "/dev/video4"], loopbacks: [])
                == .v4l2Loopback(device: "/dev/video4"))
        #expect(throws: CameraStreamError.self) {
            _ = try CameraDestination.choose(environment: ["EXTDISPLAY_CAMERA_DEVICE": "video4"], loopbacks: [])
        }
    }
}
#endif
