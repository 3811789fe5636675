#if os(Linux) && canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay present DECK --share camera --webcam[=SOURCE]` on a private PipeWire with WirePlumber (as
/// ``CameraShareTests``): a fake webcam made by GStreamer's own `videotestsrc ! pipewiresink` (a PipeWire
/// `Video/Source` node, solid green 640×480), GStreamer's `pipewiresrc` reading the camera (a consumer that is not
/// ours). The consumer sees the webcam's green in the bottom-right corner and the slide's colour elsewhere, the
/// slide change after a key with the webcam still there; when the fake webcam is killed, a line says so and the
/// camera goes on with the slides alone (the corner shows the slide again, frames keep coming, keys still work).
/// A webcam that does not exist, and `--webcam` where there is none, get a line and the talk goes on. Every wait is
/// on a real signal (a console line, a node in `pw-dump`, the consumer's file growing) with a hang guard.
@Suite("present --share camera --webcam (a fake PipeWire webcam in the corner)", .serialized)
struct CameraWebcamTests {
    typealias Frames = CameraShareTests

    /// The fake webcam's node name.
    static let webcamNode = "edk-test-webcam"

    /// The consumer's 160×90 picture of a 1280×720 camera: the webcam (640×480 → 320×240 at x 928, y 448) is at
    /// x 116…156, y 56…86; its centre is (136, 71). The slide is checked at the centre (80, 45) and left of the
    /// webcam (100, 71).
    static let corner = (x: 136, y: 71), centre = (x: 80, y: 45), besideCorner = (x: 100, y: 71)

    /// The pixels at `points` of the last whole frame in `file`, and how many frames it holds.
    static func pixels(of file: URL, at points: [(x: Int, y: Int)]) -> (frames: Int, rgb: [[UInt8]])? {
        guard let data = try? Data(contentsOf: file), data.count >= Frames.frameBytes else { return nil }
        let frames = data.count / Frames.frameBytes
        let rgb = points.map { point -> [UInt8] in
            let offset = (frames - 1) * Frames.frameBytes + (point.y * Frames.frameWidth + point.x) * 3
            return Array(data[offset..<offset + 3])
        }
        return (frames, rgb)
    }

    /// The camera's corner, centre and the pixel beside the corner, once `accept` takes them.
    static func frame(_ what: String, in file: URL, consumer: ChildProcess,
                      _ accept: @escaping (_ corner: [UInt8], _ centre: [UInt8], _ beside: [UInt8]) -> Bool)
        async throws -> (frames: Int, rgb: [[UInt8]]) {
        do {
            return try await waitFor("\(what) at the consumer") {
                pixels(of: file, at: [corner, centre, besideCorner]).flatMap { accept($0.rgb[0], $0.rgb[1], $0.rgb[2]) ? $0 : nil }
            }
        } catch {
            let last = pixels(of: file, at: [corner, centre, besideCorner])
            throw SupportError("\(error); the consumer's last frame (corner, centre, beside the corner): "
                               + "\(last.map { "\($0.rgb) of \($0.frames) frames" } ?? "none"); its errors: \(consumer.stderr)")
        }
    }

    static func isGreen(_ rgb: [UInt8]) -> Bool { rgb.count == 3 && rgb[1] > 200 && rgb[0] < 60 && rgb[2] < 60 }
    static func isWhite(_ rgb: [UInt8]) -> Bool { rgb.count == 3 && rgb.allSatisfy { $0 > 200 } }
    static func isBlack(_ rgb: [UInt8]) -> Bool { rgb.count == 3 && rgb.allSatisfy { $0 < 40 } }

    /// A fake webcam: a PipeWire camera node named ``webcamNode`` sending `pattern` (videotestsrc's), 640×480 at
    /// 15 frames a second, in I420 unless `jpeg` (MJPEG only, which the capture cannot read); returns once
    /// `pw-dump` lists the node.
    static func fakeWebcam(_ pattern: [String], jpeg: Bool = false, session: PipeWireSession) async throws -> ChildProcess {
        let format = jpeg ? ["video/x-raw,width=640,height=480,framerate=15/1", "!", "jpegenc"]
            : ["video/x-raw,format=I420,width=640,height=480,framerate=15/1"]
        let webcam = try ChildProcess(
            ["gst-launch-1.0", "-q", "videotestsrc", "is-live=true"] + pattern + ["!"] + format
                + ["!", "pipewiresink", "mode=provide", "client-name=\(webcamNode)",
                   "stream-properties=props,media.class=Video/Source,media.role=Camera,node.name=\(webcamNode),"
                    + "node.description=TestWebcam"],
            environment: session.childEnvironment)
        _ = try await waitFor("the fake webcam's node in pw-dump (\(webcam.stderr))") { session.node(named: webcamNode) }
        return webcam
    }

    /// A three-slide PDF deck, red, blue, red (640×360).
    static func deck(in folder: URL) throws -> URL {
        let deck = folder.appendingPathComponent("colours.pdf")
        try MiniPDF.data(pages: [MiniPDF.solid(255, 0, 0, width: 640, height: 360),
                                 MiniPDF.solid(0, 0, 255, width: 640, height: 360),
                                 MiniPDF.solid(255, 0, 0, width: 640, height: 360)], width: 640, height: 360)
            .write(to: deck)
        return deck
    }

    /// `present` of the red, blue, red deck (written into `folder`) with the camera on `session`'s PipeWire and
    /// `arguments` added.
    static func present(in folder: URL, session: PipeWireSession, arguments: [String]) throws -> Frames.CameraPresenter {
        var environment = session.environment
        environment[CameraDestination.environmentKey] = "pipewire"
        return try Frames.CameraPresenter(deck: try deck(in: folder), environment: environment, arguments: arguments)
    }

    /// Types N on the console and waits for its line for `slide`.
    static func next(_ presenter: Frames.CameraPresenter, to slide: Int) async throws {
        let mark = presenter.console.all.count
        presenter.type("n")
        _ = try await presenter.line("for slide \(slide)", from: mark) { $0.hasPrefix("slide \(slide) of 3") }
    }

    /// A folder of its own for a test's files.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-webcam-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// GStreamer's `pipewiresrc` reading the camera node into `file` (160×90 RGB frames).
    static func consumer(writing file: URL, session: PipeWireSession) throws -> ChildProcess {
        try ChildProcess(
            ["gst-launch-1.0", "-q", "pipewiresrc", "target-object=extdisplay-camera",
             "!", "videoconvert", "!", "videoscale", "!",
             "video/x-raw,format=RGB,width=\(Frames.frameWidth),height=\(Frames.frameHeight)", "!",
             "filesink", "location=\(file.path)", "buffer-mode=unbuffered"],
            environment: session.childEnvironment)
    }

    static func requireTools() throws {
        for tool in ["gst-launch-1.0", "pw-dump"] where !Shell.has(tool) {
            throw SupportError("\(tool) is missing: run scripts/install-deps.sh")
        }
    }

    @Test func theWebcamShowsInTheCornerAndWhenItVanishesTheSlidesGoOn() async throws {
        try Self.requireTools()
        let session = try PipeWireSession.start()
        defer { session.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // The fake webcam: a PipeWire camera node sending solid green.
        let webcam = try await Self.fakeWebcam(["pattern=solid-color", "foreground-color=0xff00ff00"], session: session)
        defer { webcam.signal(SIGKILL) }

        let presenter = try Self.present(in: folder, session: session, arguments: ["--webcam=\(Self.webcamNode)"])
        _ = try await presenter.line("saying where the camera is") { $0.hasPrefix("camera: ") }
        let shown = try await presenter.line("saying the webcam is shown") {
            $0.hasPrefix("webcam: PipeWire node \(Self.webcamNode)") && $0.contains("bottom-right corner")
        }
        #expect(shown.contains("TestWebcam"), "\(shown)")

        // The consumer: the webcam's green in the corner, slide 1's red elsewhere.
        let frames = folder.appendingPathComponent("frames.rgb")
        let consumer = try Self.consumer(writing: frames, session: session)
        defer { consumer.signal(SIGKILL) }
        _ = try await Self.frame("green in the corner, red elsewhere", in: frames, consumer: consumer) {
            Self.isGreen($0) && Frames.isRed($1) && Frames.isRed($2)
        }

        // A key: slide 2's blue, the webcam still in the corner.
        try await Self.next(presenter, to: 2)
        _ = try await Self.frame("green in the corner, blue elsewhere", in: frames, consumer: consumer) {
            Self.isGreen($0) && Frames.isBlue($1) && Frames.isBlue($2)
        }

        // The webcam vanishes: one line, and the camera goes on with the slides alone.
        let mark = presenter.console.all.count
        webcam.signal(SIGKILL)
        let gone = try await presenter.line("saying the webcam is gone", from: mark) { $0.contains("the webcam ") }
        #expect(gone.contains("PipeWire node \(Self.webcamNode)") && gone.contains("is gone")
                && gone.contains("the camera goes on with the slides alone"), "\(gone)")
        let alone = try await Self.frame("blue everywhere (the corner too)", in: frames, consumer: consumer) {
            Frames.isBlue($0) && Frames.isBlue($1) && Frames.isBlue($2)
        }
        _ = try await waitFor("3 more frames (the steady repeats)") {
            Self.pixels(of: frames, at: [Self.centre]).flatMap { $0.frames >= alone.frames + 3 ? $0 : nil }
        }
        try await Self.next(presenter, to: 3)
        _ = try await Self.frame("red everywhere", in: frames, consumer: consumer) {
            Frames.isRed($0) && Frames.isRed($1) && Frames.isRed($2)
        }
        #expect(presenter.console.all.filter { $0.contains("the webcam ") }.count == 1,
                "one line for the webcam's loss: \(presenter.console.all.suffix(10))")

        presenter.type("qq")
        _ = try await presenter.line("saying the talk ended") { $0.hasPrefix("presented 3 slides") }
        try await waitUntil("the presenter's exit") { !presenter.process.isRunning }
        #expect(presenter.process.terminationStatus == 0)
    }

    /// The corner is live while the slide does not change: a webcam that blinks (videotestsrc's `blink`: white and
    /// black frames in turn) shows both in the corner with no key pressed, the slide's red around it — new
    /// pictures made from the webcam's frames, not the last one repeated.
    @Test func theCornerMovesWhileTheSlideStands() async throws {
        try Self.requireTools()
        let session = try PipeWireSession.start()
        defer { session.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let webcam = try await Self.fakeWebcam(["pattern=blink"], session: session)
        defer { webcam.signal(SIGKILL) }
        // `--webcam` alone: the fake webcam is the only PipeWire camera besides extdisplay's own.
        let presenter = try Self.present(in: folder, session: session, arguments: ["--webcam"])
        _ = try await presenter.line("saying the webcam is shown") {
            $0.hasPrefix("webcam: PipeWire node \(Self.webcamNode)") && $0.contains("bottom-right corner")
        }
        let frames = folder.appendingPathComponent("frames.rgb")
        let consumer = try Self.consumer(writing: frames, session: session)
        defer { consumer.signal(SIGKILL) }
        let white = try await Self.frame("white in the corner, red elsewhere", in: frames, consumer: consumer) {
            Self.isWhite($0) && Frames.isRed($1) && Frames.isRed($2)
        }
        let black = try await Self.frame("black in the corner, red elsewhere", in: frames, consumer: consumer) {
            Self.isBlack($0) && Frames.isRed($1) && Frames.isRed($2)
        }
        _ = try await Self.frame("white again", in: frames, consumer: consumer) { corner, centre, _ in
            Self.isWhite(corner) && Frames.isRed(centre)
        }
        #expect(black.frames > white.frames)
        #expect(!presenter.console.all.contains { $0.hasPrefix("slide 2") }, "no key was pressed")
        presenter.type("qq")
        try await waitUntil("the presenter's exit") { !presenter.process.isRunning }
        #expect(presenter.process.terminationStatus == 0, "\(presenter.console.all.suffix(8))")
    }

    /// With `arguments`, the webcam cannot be shown: a line that `says` what (the talk goes on), the camera sends
    /// slide 1's red in the corner too, and slide 2's blue after a key.
    func talkGoesOnWithoutTheWebcam(_ arguments: [String], jpegWebcam: Bool = false,
                                    says: @escaping (String) -> Bool) async throws -> String {
        try Self.requireTools()
        let session = try PipeWireSession.start()
        defer { session.stop() }
        let webcam = jpegWebcam ? try await Self.fakeWebcam(["pattern=solid-color", "foreground-color=0xff00ff00"],
                                                            jpeg: true, session: session) : nil
        defer { webcam?.signal(SIGKILL) }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let presenter = try Self.present(in: folder, session: session, arguments: arguments)
        let line = try await presenter.line("saying the webcam cannot be shown") { $0.contains("slides alone") }
        #expect(says(line), "\(line)")
        let frames = folder.appendingPathComponent("frames.rgb")
        let consumer = try Self.consumer(writing: frames, session: session)
        defer { consumer.signal(SIGKILL) }
        _ = try await Self.frame("red everywhere", in: frames, consumer: consumer) {
            Frames.isRed($0) && Frames.isRed($1) && Frames.isRed($2)
        }
        try await Self.next(presenter, to: 2)
        _ = try await Self.frame("blue everywhere", in: frames, consumer: consumer) {
            Frames.isBlue($0) && Frames.isBlue($1) && Frames.isBlue($2)
        }
        presenter.type("qq")
        _ = try await presenter.line("saying the talk ended") { $0.hasPrefix("presented 3 slides") }
        try await waitUntil("the presenter's exit") { !presenter.process.isRunning }
        #expect(presenter.process.terminationStatus == 0, "\(presenter.console.all.suffix(8))")
        return line
    }

    @Test func aWebcamThatDoesNotExistGetsALineAndTheTalkGoesOn() async throws {
        _ = try await talkGoesOnWithoutTheWebcam(["--webcam=/nonexistent"]) {
            $0.contains("the webcam /nonexistent does not exist") && $0.contains("v4l2-ctl --list-devices")
        }
        _ = try await talkGoesOnWithoutTheWebcam(["--webcam=no-such-camera"]) {
            $0.contains("there is no PipeWire camera no-such-camera (cameras here: none)")
        }
    }

    /// A webcam whose only format is MJPEG (the capture reads raw video): PipeWire never links it, nothing comes,
    /// and after 10 s without a picture (the core's pacing decides) a line says so and the talk goes on.
    @Test func aWebcamInAFormatThatCannotBeReadGetsALine() async throws {
        _ = try await talkGoesOnWithoutTheWebcam(["--webcam=\(Self.webcamNode)"], jpegWebcam: true) {
            $0.contains("the webcam PipeWire node \(Self.webcamNode) (TestWebcam) has sent no picture in 10 s")
                && $0.contains("a picture format extdisplay cannot read")
        }
    }

    /// `--webcam` alone where the only PipeWire camera is extdisplay's own (never taken for the webcam) and there
    /// is no /dev/video0 (this build machine has no /dev/video* at all).
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/video0"), "this machine has a /dev/video0, which --webcam alone would show"))
    func noWebcamAtAllGetsALineAndTheTalkGoesOn() async throws {
        _ = try await talkGoesOnWithoutTheWebcam(["--webcam"]) {
            $0.contains("no webcam found (no PipeWire camera besides extdisplay's own, no /dev/video0)")
        }
    }

    /// `--webcam` needs `--share camera`: a usage error that says so.
    @Test func theWebcamNeedsTheCamera() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let deck = try Self.deck(in: folder)
        for arguments in [["--webcam"], ["--webcam=/dev/video2", "--share", "window"]] {
            let result = try runToEnd(try Repository.extdisplay().path, ["present", deck.path] + arguments,
                                      environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("--webcam puts your webcam in the corner of the camera's picture: it needs "
                                           + "--share camera"), "\(result.stderr)")
        }
        let help = try runToEnd(try Repository.extdisplay().path, ["present", "--help"])
        #expect(help.stdout.contains("--webcam"), "\(help.stdout)")
    }

    /// The corner: a quarter of the width, a fortieth's margin, clipped to the frame.
    @Test func thePictureGoesInTheBottomRightCorner() {
        let placement = WebcamPlacement(frameWidth: 1280, frameHeight: 720)
        #expect(placement.width == 320 && placement.margin == 32)
        let origin = placement.origin(width: 320, height: 240)
        #expect(origin.x == 928 && origin.y == 448)
        #expect(WebcamPlacement(frameWidth: 642, frameHeight: 360).width == 160)

        // An 8×4 frame: a 2-pixel-wide picture, no margin (8 / 40).
        let small = WebcamPlacement(frameWidth: 8, frameHeight: 4)
        #expect(small.width == 2 && small.margin == 0)
        var frame = [UInt8](repeating: 0, count: 8 * 4 * 4)
        // A picture taller than the frame (2×6): its top rows are left out, the rest fills the right column pair.
        let picture = [UInt8]((0..<(2 * 6)).flatMap { pixel in [UInt8(pixel), 0, 0, 255] })
        picture.withUnsafeBytes { source in
            frame.withUnsafeMutableBytes { small.draw(source, width: 2, height: 6, into: $0) }
        }
        // Rows 0…3 of the frame get picture rows 2…5; pixel (6, 0) is picture pixel 4, (7, 3) is pixel 11.
        #expect(frame[(0 * 8 + 6) * 4] == 4 && frame[(3 * 8 + 7) * 4] == 11)
        #expect(frame[(0 * 8 + 5) * 4 + 3] == 0, "left of the picture: untouched")
        // Buffers too small for the sizes: nothing is drawn.
        var untouched = [UInt8](repeating: 7, count: 16)
        picture.withUnsafeBytes { source in
            untouched.withUnsafeMutableBytes { small.draw(source, width: 2, height: 6, into: $0) }
        }
        #expect(untouched.allSatisfy { $0 == 7 })
    }

    /// `--webcam`'s values.
    @Test func theSourceArgument() {
        #expect(WebcamSource(argument: "auto") == .automatic)
        #expect(WebcamSource(argument: "AUTO") == .automatic)
        #expect(WebcamSource(argument: "/dev/video2") == .v4l2(device: "/dev/video2"))
        #expect(WebcamSource(argument: "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0") == .pipeWire("v4l2_input.pci-0000_00_14.0-usb-0_1_1.0"))
        #expect(WebcamSource(argument: "57") == .pipeWire("57"))
        #expect(WebcamSource(argument: " ") == nil)
    }
}
#endif
