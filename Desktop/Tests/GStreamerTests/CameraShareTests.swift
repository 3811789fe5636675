#if os(Linux) && canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay present DECK --share camera` (the console in the terminal, keys on its standard input) on a private
/// PipeWire with WirePlumber: `pw-dump` sees the node `extdisplay-camera` as a camera (media class
/// `Video/Source`, role `Camera`, offering I420), GStreamer's own `pipewiresrc` — a consumer that is not ours —
/// receives its frames (a consumer that connects while nothing changes gets the steady repeats) and sees the
/// slide's colour change from red to blue after a key; after Q Q the node is gone. Every wait is on a real signal
/// (a console line, a node in `pw-dump`, the consumer's file growing) with a hang guard.
@Suite("present --share camera on PipeWire (pipewiresrc as the consumer)", .serialized)
struct CameraShareTests {
    /// A frame as the consumer writes it: scaled to 160×90, RGB.
    static let frameWidth = 160, frameHeight = 90
    static var frameBytes: Int { frameWidth * frameHeight * 3 }

    /// The centre pixel of the last whole frame in `file`, and how many frames it holds.
    static func lastCentre(of file: URL) -> (frames: Int, rgb: [UInt8])? {
        guard let data = try? Data(contentsOf: file), data.count >= frameBytes else { return nil }
        let frames = data.count / frameBytes
        let offset = (frames - 1) * frameBytes + ((frameHeight / 2) * frameWidth + frameWidth / 2) * 3
        return (frames, Array(data[offset..<offset + 3]))
    }

    /// A two-slide PDF deck, slide 1 solid red and slide 2 solid blue (640×360), written into `folder`.
    static func redThenBlueDeck(in folder: URL) throws -> URL {
        let deck = folder.appendingPathComponent("colours.pdf")
        try MiniPDF.data(pages: [MiniPDF.solid(255, 0, 0, width: 640, height: 360),
                                 MiniPDF.solid(0, 0, 255, width: 640, height: 360)], width: 640, height: 360)
            .write(to: deck)
        return deck
    }

    static func isRed(_ rgb: [UInt8]) -> Bool { rgb.count == 3 && rgb[0] > 200 && rgb[1] < 60 && rgb[2] < 60 }
    static func isBlue(_ rgb: [UInt8]) -> Bool { rgb.count == 3 && rgb[2] > 200 && rgb[0] < 60 && rgb[1] < 60 }

    /// Ignore SIGPIPE once: keys typed to a presenter that has quit must fail, not kill the test process.
    static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// `extdisplay present DECK --share camera` (and `extra` arguments) with the console in the terminal (no
    /// display), keys on its standard input, `environment` added to the test's own: the process, its console, and
    /// its keys' pipe.
    final class CameraPresenter {
        let process = Process()
        let console: LineReader
        private let keys = Pipe()

        init(deck: URL, environment extra: [String: String], arguments: [String] = []) throws {
            _ = CameraShareTests.brokenPipesIgnored
            process.executableURL = try Repository.extdisplay()
            process.arguments = ["present", deck.path, "--share", "camera"] + arguments
            var environment = ProcessInfo.processInfo.environment
            for key in ["DISPLAY", "WAYLAND_DISPLAY", "PIPEWIRE_REMOTE", "PULSE_SERVER"] { environment[key] = nil }
            environment.merge(extra) { $1 }
            process.environment = environment
            let output = Pipe()
            process.standardInput = keys
            process.standardOutput = output
            process.standardError = output
            try process.run()
            console = LineReader(output.fileHandleForReading)
        }

        deinit { if process.isRunning { process.terminate() } }

        /// Types keys on the console.
        func type(_ text: String) { try? keys.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

        /// The first console line from `from` on that matches (hang guard 30 s).
        func line(_ what: String, from: Int = 0, _ matches: @escaping (String) -> Bool) async throws -> String {
            guard let found = await console.first(from: from, where: matches, timeout: 30) else {
                throw SupportError("the presenter printed no line \(what) within 30 s (hang guard); it printed:\n"
                                   + console.all.suffix(20).joined(separator: "\n"))
            }
            return found
        }
    }

    @Test func aPipeWireConsumerSeesTheCameraNodeItsFramesAndTheSlideChange() async throws {
        for tool in ["gst-launch-1.0", "pw-dump"] where !Shell.has(tool) {
            throw SupportError("\(tool) is missing: run scripts/install-deps.sh")
        }
        let session = try PipeWireSession.start()
        defer { session.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deck = try Self.redThenBlueDeck(in: folder)

        // The presenter: console in the terminal (no display), keys on standard input, the camera on PipeWire
        // (asked for: a machine with v4l2loopback loaded would otherwise get the device).
        var environment = session.environment
        environment[CameraDestination.environmentKey] = "pipewire"
        let presenter = try CameraPresenter(deck: deck, environment: environment)
        let published = try await presenter.line("saying where the camera is") { $0.hasPrefix("camera: ") }
        #expect(published.contains("PipeWire node extdisplay-camera") && published.contains("I420 1280×720")
                && published.contains("30 fps advertised"), "\(published)")

        // (a) The node, as pw-dump (PipeWire's own tool) sees it.
        let node = try await waitFor("the node extdisplay-camera in pw-dump") { session.node(named: "extdisplay-camera") }
        #expect(node.props["media.class"] == "Video/Source")
        #expect(node.props["media.role"] == "Camera")
        #expect(node.props["node.description"] == "extdisplay audience")
        #expect(node.offeredFormats == ["I420"], "offered: \(node.offeredFormats)")

        // (b) A consumer that is not ours, connected while the picture does not change: it gets the repeats.
        let frames = folder.appendingPathComponent("frames.rgb")
        let consumer = try ChildProcess(
            ["gst-launch-1.0", "-q", "pipewiresrc", "target-object=extdisplay-camera",
             "!", "videoconvert", "!", "videoscale", "!",
             "video/x-raw,format=RGB,width=\(Self.frameWidth),height=\(Self.frameHeight)", "!",
             "filesink", "location=\(frames.path)", "buffer-mode=unbuffered"],
            environment: session.childEnvironment)
        defer { consumer.signal(SIGKILL) }
        let first = try await waitFor("3 frames at the consumer (\(consumer.stderr))") {
            Self.lastCentre(of: frames).flatMap { $0.frames >= 3 ? $0 : nil }
        }
        #expect(Self.isRed(first.rgb), "slide 1 is red; the consumer saw \(first.rgb)")
        let linked = session.node(named: "extdisplay-camera")
        #expect(linked?.negotiatedFormat == "I420", "negotiated: \(linked?.negotiatedFormat ?? "none")")

        // (c) A key: the same consumer sees slide 2's blue.
        let mark = presenter.console.all.count
        presenter.type("n")
        _ = try await presenter.line("for slide 2", from: mark) { $0.hasPrefix("slide 2 of 2") }
        let changed = try await waitFor("a blue frame at the consumer after the key") {
            Self.lastCentre(of: frames).flatMap { Self.isBlue($0.rgb) ? $0 : nil }
        }
        #expect(changed.frames > first.frames)

        // The talk ends: the node goes with it.
        presenter.type("qq")
        let ended = try await presenter.line("saying the talk ended") { $0.hasPrefix("presented 2 slides") }
        #expect(ended.contains("share-camera"), "\(ended)")
        try await waitUntil("the node gone from pw-dump") { session.node(named: "extdisplay-camera") == nil }
        try await waitUntil("the presenter's exit") { !presenter.process.isRunning }
        #expect(presenter.process.terminationStatus == 0)
    }

    /// A camera asked of a device that does not exist says what is wrong and what to do (the talk would go on).
    @Test func aDestinationThatRefusesSaysWhatToDo() throws {
        #expect {
            _ = try CameraStream(destination: .v4l2Loopback(device: "/dev/video-extdisplay-missing"), width: 320, height: 180)
        } throws: { error in
            let text = "\(error)"
            return text.contains("v4l2loopback device /dev/video-extdisplay-missing")
                && text.contains("modprobe v4l2loopback exclusive_caps=1") && text.contains("the talk goes on")
        }
        #expect(throws: CameraStreamError.badSize(width: 321, height: 180)) {
            _ = try CameraStream(destination: .defaultPipeWire, width: 321, height: 180)
        }
    }

    /// `doctor` in a session with PipeWire running says the camera would publish there, naming the socket; the
    /// same session without the daemon's socket says it has nowhere to publish (not essential).
    @Test func doctorFindsThePipeWireCamera() throws {
        let session = try PipeWireSession.start()
        defer { session.stop() }
        var environment = session.childEnvironment
        environment["EXTDISPLAY_CAMERA_DEVICE"] = "pipewire"
        let found = try runToEnd(try Repository.extdisplay().path, ["doctor"], environment: environment)
        let socket = URL(fileURLWithPath: session.runtimeDirectory).appendingPathComponent("pipewire-0").path
        let line = found.stdout.split(separator: "\n").first { $0.hasPrefix("ok       camera ") }
        #expect(line?.contains("PipeWire camera node extdisplay-camera (\(socket))") == true, "\(found.stdout)")
        environment["PIPEWIRE_REMOTE"] = "pipewire-absent"
        let absent = try runToEnd(try Repository.extdisplay().path, ["doctor"], environment: environment)
        #expect(absent.stdout.contains("missing  camera        no PipeWire daemon in this session"), "\(absent.stdout)")
    }

    /// The first v4l2loopback device of this machine, if the module is loaded.
    static let loopback = V4L2Loopback.devices().first

    /// With v4l2loopback loaded, the camera goes to its device and a V4L2 reader (`v4l2src`) gets slide 1's red.
    /// Skipped where the module is not loaded (this build machine: no kernel modules, no /dev/video*).
    @Test(.enabled(if: loopback != nil, "v4l2loopback is not loaded (no virtual /dev/video* device): it needs `sudo modprobe v4l2loopback exclusive_caps=1 card_label=extdisplay`, which this machine cannot do"))
    func aV4L2LoopbackConsumerSeesTheFrames() async throws {
        let device = try #require(Self.loopback).device
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-v4l2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deck = folder.appendingPathComponent("red.pdf")
        try MiniPDF.data(pages: [MiniPDF.solid(255, 0, 0, width: 640, height: 360)], width: 640, height: 360).write(to: deck)
        let presenter = try CameraPresenter(deck: deck, environment: [CameraDestination.environmentKey: device])
        let published = try await presenter.line("saying where the camera is") { $0.hasPrefix("camera: ") }
        #expect(published.contains("v4l2loopback device \(device)"), "\(published)")
        let frames = folder.appendingPathComponent("frames.rgb")
        let reader = try ChildProcess(
            ["gst-launch-1.0", "-q", "v4l2src", "device=\(device)", "num-buffers=3", "!",
             "videoconvert", "!", "videoscale", "!",
             "video/x-raw,format=RGB,width=\(Self.frameWidth),height=\(Self.frameHeight)", "!",
             "filesink", "location=\(frames.path)", "buffer-mode=unbuffered"])
        defer { reader.signal(SIGKILL) }
        let seen = try await waitFor("3 frames from \(device) (\(reader.stderr))") {
            Self.lastCentre(of: frames).flatMap { $0.frames >= 3 ? $0 : nil }
        }
        #expect(Self.isRed(seen.rgb), "the reader saw \(seen.rgb)")
        presenter.type("qq")
        try await waitUntil("the presenter's exit") { !presenter.process.isRunning }
    }
}
#endif
