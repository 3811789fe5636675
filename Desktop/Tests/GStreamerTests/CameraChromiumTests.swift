#if os(Linux) && canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay present DECK --share camera` seen by a browser as a webcam: headless Chromium with
/// `--enable-features=WebRtcPipeWireCamera` reaches PipeWire cameras only through the desktop's camera portal
/// (`org.freedesktop.portal.Camera`: `AccessCamera`, then `OpenPipeWireRemote`), so the test runs the real one —
/// Debian's xdg-desktop-portal 1.16 with its permission store, the camera granted to host applications in the store
/// through its D-Bus API (``CameraPortal``) — on a private PipeWire with WirePlumber and a private session bus. The
/// portal starts before the camera, as at a desktop login. A local page waits for a camera in `enumerateDevices()`,
/// then calls `getUserMedia({video: true})` (`--use-fake-ui-for-media-stream` answers Chromium's own prompt): the
/// camera is a `videoinput` labelled with the node's description, "extdisplay audience", and the track is 1280×720;
/// frames drawn from the stream into a canvas show slide 1's red, then slide 2's blue after a key on the presenter's
/// console. Every wait is on a real signal (a bus name, a console line, a node in `pw-dump`, the page's own state)
/// with a hang guard. The listing is part of the test command; the frames are not: Chromium 156's own capture
/// service crashes now and then once a track starts (a CHECK in its WebRTC PipeWire capture,
/// `video_capture_pipewire.cc`; 4 runs in 12 under load, none in 31 on a quiet machine), a fault of Chromium's this
/// package cannot fix and the test command may not forgive, so the frames test runs on its own
/// (`scripts/test-camera-chromium.sh`), where such a crash fails it with Chromium's FATAL line.
@Suite("present --share camera as a browser camera (Chromium through xdg-desktop-portal)", .serialized)
struct CameraChromiumTests {
    /// The page: it asks for the camera at once and keeps its progress in `window.edkCamera` — the step it waits
    /// on, the track, the devices, the centre pixel of the last frame drawn into a 160×90 canvas and how many were
    /// drawn, or the error.
    static let page = """
        <!doctype html><html><body><script>
        const state = window.edkCamera = {step: "a videoinput in enumerateDevices()", frames: 0, seen: []};
        const hasCamera = async () => {
          const devices = await navigator.mediaDevices.enumerateDevices();
          const kinds = devices.map(d => d.kind).join(",") || "none";
          if (state.seen[state.seen.length - 1] !== kinds) state.seen.push(kinds);
          if (!kinds.split(",").includes("videoinput")) return false;
          state.devices = devices.map(d => ({kind: d.kind, label: d.label}));
          return true;
        };
        (async () => {
          try {
            // Chromium pushes no PipeWire camera's arrival: a camera it did not see at its first look (WirePlumber
            // grants the portal's connection the node a moment later) shows at the next enumerateDevices() call.
            // So the page looks again every 250 ms until one is there (the test's hang guard bounds the wait).
            while (!(await hasCamera())) await new Promise(resolve => setTimeout(resolve, 250));
            if (location.hash === "#list") { state.step = "listed"; return; }
            state.step = "getUserMedia({video: true})";
            const stream = await navigator.mediaDevices.getUserMedia({video: true});
            const track = stream.getVideoTracks()[0];
            const settings = track.getSettings();
            state.track = {label: track.label, width: settings.width, height: settings.height};
            state.step = "the video element playing the stream";
            const video = document.createElement("video");
            video.muted = true;
            video.srcObject = stream;
            await video.play();
            state.step = "frames";
            const canvas = document.createElement("canvas");
            canvas.width = 160;
            canvas.height = 90;
            const context = canvas.getContext("2d", {willReadFrequently: true});
            const draw = () => {
              context.drawImage(video, 0, 0, 160, 90);
              state.centre = Array.from(context.getImageData(80, 45, 1, 1).data.slice(0, 3));
              state.frames += 1;
              video.requestVideoFrameCallback(draw);
            };
            video.requestVideoFrameCallback(draw);
          } catch (error) {
            state.error = error.name + ": " + error.message;
          }
        })();
        </script></body></html>
        """

    /// The page's state as the page holds it now.
    struct PageState: Decodable {
        struct Track: Decodable { var label: String; var width: Int?; var height: Int? }
        struct Device: Decodable { var kind: String; var label: String }
        var step: String
        var frames: Int
        var seen: [String]
        var track: Track?
        var devices: [Device]?
        var centre: [Int]?
        var error: String?
    }

    static func read(_ chromium: Chromium, _ page: Chromium.Page) async throws -> PageState? {
        let json = try await chromium.evaluate(page, "JSON.stringify(window.edkCamera || null)") as? String ?? "null"
        return try? JSONDecoder().decode(PageState.self, from: Data(json.utf8))
    }

    /// How the test's error begins when Chromium's own video capture service crashed: a CHECK in its WebRTC
    /// PipeWire capture (`video_capture_pipewire.cc`) fails now and then (1 run in about 12 here), after the
    /// camera was listed and the track given; Chromium restarts the service and the page's track stays dark.
    static let captureServiceCrash = "Chromium's video capture service crashed"

    /// Reads the page until `accept` takes its state (or it reports an error, or Chromium's capture service
    /// crashes); throws naming `what`, the step the page was waiting on and the portal's last words when `timeout`
    /// seconds pass (a hang guard).
    static func waitForPage(_ what: String, _ chromium: Chromium, _ page: Chromium.Page, portal: CameraPortal,
                            timeout: Double = 30, _ accept: @escaping (PageState) -> Bool) async throws -> PageState {
        let crashed = { chromium.log.contains { $0.contains("Detected crash of video capture service") } }
        let state = try await eventuallyReading(timeout, every: 0.05, { try await read(chromium, page) },
                                                until: { state in crashed() || (state.map { $0.error != nil || accept($0) } ?? false) })
        if let state, state.error == nil, accept(state) { return state }
        if crashed() {
            let fatal = chromium.log.filter { $0.contains(":FATAL:") || $0.hasPrefix("# ") }
            throw SupportError("\(Self.captureServiceCrash) while the test waited for \(what): "
                               + fatal.joined(separator: " | "))
        }
        var progress = "the page reported nothing"
        if let state {
            progress = state.error.map { "the page failed: \($0)" } ?? "the page still waited on \(state.step)"
            progress += "; enumerateDevices() gave kinds: \(state.seen)"
        }
        let capture = chromium.log.filter { $0.contains("video_capture") || $0.contains("camera") || $0.contains("PipeWire") }
        throw SupportError("\(what): not within \(timeout) s (hang guard); \(progress); the portal "
                           + "\(portal.portalIsRunning ? "runs" : "has ended"), its log ends:\n"
                           + portal.portalLog.split(separator: "\n").suffix(8).joined(separator: "\n")
                           + "\nChromium's capture log:\n" + capture.suffix(12).joined(separator: "\n"))
    }

    /// Whether the frames test runs (`scripts/test-camera-chromium.sh` sets it).
    static let framesAsked = ProcessInfo.processInfo.environment["EXTDISPLAY_TEST_CHROMIUM_CAMERA_FRAMES"] == "1"

    /// The camera listed by Chromium with the node's description, before any capture starts.
    @Test func chromiumListsTheCamera() async throws {
        try await withCameraInChromium(fragment: "#list") { chromium, page, portal, _ in
            let listed = try await Self.waitForPage("the camera in enumerateDevices()", chromium, page, portal: portal) {
                $0.step == "listed"
            }
            let cameras = (listed.devices ?? []).filter { $0.kind == "videoinput" }
            #expect(cameras.map(\.label) == ["extdisplay audience"], "videoinput devices: \(cameras)")
            #expect(portal.portalIsRunning, "the portal ended: \(portal.portalLog.suffix(1_000))")
        }
    }

    /// getUserMedia's track is 1280×720 and its frames, drawn into a canvas, show slide 1's red, then blue after a
    /// key. Not in the test command (see the suite): `scripts/test-camera-chromium.sh`.
    @Test(.enabled(if: framesAsked, "Chromium 156's PipeWire capture crashes now and then once a track starts (a CHECK in video_capture_pipewire.cc): the frames test runs on its own, scripts/test-camera-chromium.sh"))
    func chromiumShowsTheCamerasFrames() async throws {
        try await withCameraInChromium(fragment: "") { chromium, page, portal, presenter in
            let listed = try await Self.waitForPage("the camera in enumerateDevices() and getUserMedia's track",
                                                    chromium, page, portal: portal) { $0.track != nil }
            #expect(listed.track?.label == "extdisplay audience", "track: \(String(describing: listed.track))")
            #expect(listed.track?.width == 1280 && listed.track?.height == 720, "track: \(String(describing: listed.track))")
            let red = try await Self.waitForPage("a red frame drawn from the stream", chromium, page, portal: portal) {
                $0.centre.map(Self.isRed) ?? false
            }
            let mark = presenter.console.all.count
            presenter.type("n")
            _ = try await presenter.line("for slide 2", from: mark) { $0.hasPrefix("slide 2 of 2") }
            let blue = try await Self.waitForPage("a blue frame drawn from the stream after the key", chromium, page,
                                                  portal: portal) { $0.centre.map(Self.isBlue) ?? false }
            #expect(blue.frames > red.frames)
            #expect(portal.portalIsRunning, "the portal ended: \(portal.portalLog.suffix(1_000))")
        }
    }

    /// The portal, then the talk with its camera, then Chromium on the page (with `fragment`); `body` checks; the
    /// talk is ended with Q Q and must exit 0.
    func withCameraInChromium(fragment: String,
                              _ body: (Chromium, Chromium.Page, CameraPortal, CameraShareTests.CameraPresenter) async throws -> Void)
        async throws {
        // A bus that starts no installed service on demand: see CameraPortal (1.16 crashes on AccessCamera when its
        // Access backend was started and could not run).
        let session = try PipeWireSession.start(busActivation: false)
        defer { session.stop() }
        let portal = try CameraPortal.start(on: session)
        defer { portal.stop() }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-camera-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deck = try CameraShareTests.redThenBlueDeck(in: folder)
        let html = folder.appendingPathComponent("camera.html")
        try Data(Self.page.utf8).write(to: html)

        var environment = session.environment
        environment[CameraDestination.environmentKey] = "pipewire"
        let presenter = try CameraShareTests.CameraPresenter(deck: deck, environment: environment)
        _ = try await presenter.line("saying where the camera is") { $0.hasPrefix("camera: ") }
        _ = try await waitFor("the node extdisplay-camera in pw-dump") { session.node(named: "extdisplay-camera") }

        let chromium = try await Chromium.launch(
            extraArguments: ["--enable-features=WebRtcPipeWireCamera", "--use-fake-ui-for-media-stream",
                             "--enable-logging=stderr", "--v=0"],
            environment: session.childEnvironment)
        do {
            let page = try await chromium.open(html.absoluteString + fragment, width: 320, height: 180)
            try await body(chromium, page, portal, presenter)
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
        presenter.type("qq")
        _ = try await presenter.line("saying the talk ended") { $0.hasPrefix("presented 2 slides") }
        try await waitUntil("the presenter's exit") { !presenter.process.isRunning }
        #expect(presenter.process.terminationStatus == 0)
    }

    static func isRed(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb[0] > 200 && rgb[1] < 60 && rgb[2] < 60 }
    static func isBlue(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb[2] > 200 && rgb[0] < 60 && rgb[1] < 60 }
}
#endif
