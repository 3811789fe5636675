#if canImport(CSDL2)
internal import CSDL2
import DesktopFiles
public import DesktopVideo
public import ExtDisplayCore
public import ExternalDisplayBrowser
public import ExternalDisplayKit
public import ExternalDisplayPresenter
public import Foundation
import SDLWindows

/// What a live talk needs to start, whichever host runs it: the deck, the displays to use, the plan, whether to
/// serve browsers, and where to report.
public struct PresenterLaunch {
    /// The deck.
    public var deck: Deck
    /// `--display NAME`: the only external display used (nil: every one).
    public var display: String?
    /// Mode and overscan for external displays.
    public var configuration: DisplayConfiguration
    /// What `--mode` asked (``ExternalDisplayPresenter/PresenterModeRequest/keep`` without it: no display is
    /// switched); `configuration` carries its mode policy.
    public var modeRequest: PresenterModeRequest = .keep
    /// The talk's planned length in seconds (the countdown), if any; ``plan``'s end time wins over it.
    public var planned: Double?
    /// The talk's end time and last-minutes warning (`--end-time`, a `.pdfpc` file's `endTime`, `lastMinutes`),
    /// made a length when the clock starts; its `duration`, when set, replaces ``planned``.
    public var plan = TalkPlan()
    /// `--serve`: browsers as displays beside the talk.
    public var serve: BrowserServerConfiguration?
    /// `--console-fps` (terminal console only): redraw the console that often.
    public var consoleFPS: Double?
    /// A warning for the user (one line, standard error).
    public var warn: (String) -> Void
    /// A fatal error: says what to do and exits 2.
    public var fail: (String) -> Never
    /// Lines for the speaker (status lines, URLs; standard output).
    public var say: (String) -> Void = { line in StandardStreams.line(PrintableText.line(line)) }
    /// The deck's file, followed while presenting (read again when exported anew); nil: not followed.
    public var deckFile: URL?
    /// Beamer notes split of the deck file (for reading it again).
    public var beamerNotes: BeamerNotes?
    /// What the talk's canvases draw from: rendered pages (with the `--cache-mb` budget), the images the deck
    /// reader decoded, clip frames.
    public var caches = DrawingCaches()
    /// Where the ink goes (`--ink-out FILE`; nil: `NAME-annotated.pdf` beside a PDF deck, `NAME.ink.json` beside a
    /// Markdown deck).
    public var inkOutput: URL?
    /// The timing file (`--timings FILE`; default `NAME.timings.json` beside the deck file) and what this run is
    /// recorded as (`--rehearse`, `--record-timings`; nil: read for the pace, not written).
    public var timings: (file: URL, recording: TalkTimings.Run.Kind?)?
    /// Gets the runtime just before its loop starts (benchmarks stop it from a timer).
    public var started: ((PresenterRuntime) -> Void)?
    /// `--share`: the audience displays made for a video call (a share window, a camera), in the order given.
    public var share: [ShareTarget] = []
    /// Makes the camera's output for `--share camera` (drawing from the run's caches); nil: the built-in camera
    /// (``CameraHost``: a PipeWire `Video/Source` node, or a v4l2loopback device).
    public var cameraOutput: ((ShareTarget, DrawingCaches) throws -> any AudienceOutput)?
    /// `--webcam`: the speaker's webcam in the corner of the built-in camera's picture (nil: none).
    public var webcam: WebcamSource?

    /// A launch.
    public init(deck: Deck, display: String?, configuration: DisplayConfiguration, planned: Double?,
                serve: BrowserServerConfiguration?, consoleFPS: Double? = nil,
                warn: @escaping (String) -> Void, fail: @escaping (String) -> Never) {
        self.deck = deck
        self.display = display
        self.configuration = configuration
        self.planned = planned
        self.serve = serve
        self.consoleFPS = consoleFPS
        self.warn = warn
        self.fail = fail
    }

    /// The runtime every live host runs on: the store, the real clock, status lines to `say`.
    @MainActor
    func makeRuntime(mainDisplay: String) -> PresenterRuntime {
        // Rendered pages are megabytes and made on background threads: keep them out of glibc's per-thread heaps.
        LargeBuffers.keepOutOfTheHeap()
        let controller = PresenterController(deck: deck, startedAt: 0, mainDisplay: mainDisplay,
                                             onlyDisplay: display.map { DisplayID($0) })
        let runtime = PresenterRuntime(controller: controller, clock: ContinuousClock(), caches: caches)
        let say = self.say
        // Status lines that only say the external displays changed: at most one a second (300 pages connecting).
        runtime.onStatus = StatusLineThrottle(controller: controller, say: say).line
        runtime.onSay = say
        var plan = self.plan
        if plan.duration == nil { plan.duration = planned }
        runtime.startPlan(plan)
        return runtime
    }

    /// Serves browsers beside the talk when asked (`qrOnConsole`: a desktop console shows the QR panel); exits 2
    /// when the server cannot listen.
    @MainActor
    func serveBrowsers(_ runtime: PresenterRuntime, qrOnConsole: Bool, keys: String) async -> BrowserAudienceHost? {
        guard let serve else { return nil }
        let browsers = BrowserAudienceHost(controller: runtime.controller, configuration: serve,
                                           displayConfiguration: configuration, caches: runtime.caches)
        browsers.platform.onViewerChange = say
        let url: URL
        do { url = try await browsers.listen(qrOnConsole: qrOnConsole) } catch { fail(error.description) }
        say("serving the audience view at \(url.absoluteString) (open it in any browser: each page is an external display)")
        TerminalQR.print(url.absoluteString, label: "scan to open the audience view:")
        if let remote = browsers.platform.remoteURL {
            say("speaker remote (keep it private, it shows the notes): \(remote.absoluteString)")
        }
        if !browsers.platform.configuration.isLoopback {
            say("listening on \(browsers.platform.configuration.host): reachable from other machines")
        }
        say(keys)
        runtime.add(browsers)
        return browsers
    }

    /// Adds the ``TimingHost`` when the talk is timed (it records, its timing file exists, or a slide has a time).
    @MainActor
    func addTimingHost(_ runtime: PresenterRuntime) {
        guard let timings, TimingHost.wanted(file: timings.file, recording: timings.recording, deck: deck) else { return }
        // The length planned as the clock started (an end time's, else the duration).
        runtime.add(TimingHost(file: timings.file, recording: timings.recording,
                               target: runtime.controller.state.plannedDuration))
    }

    /// The desktop talk's common end: the console and audience hosts, page readiness, signals (``SignalHost``),
    /// browsers (`--serve`, with the QR panel on the console), the remote control and the deck file followed; runs
    /// the loop and reports.
    /// `shareBeside` is the screen the share window goes on (the console's).
    @MainActor
    func runDesktop<P: DisplayPlatform>(_ runtime: PresenterRuntime, console: SDLConsoleHost,
                                        displays: CableAudienceHost<P>, shareBeside: Rect? = nil) async {
        // Video on slides: decoded on a thread of its own, only for a deck that has clips.
        if deck.slides.contains(where: { !$0.clips.isEmpty }) { runtime.add(SlideClipHost(mode: .live)) }
        runtime.add(displays)
        let caches = runtime.caches
        let screen = shareBeside ?? ConsoleOutputRule.fallbackFrame
        let shared = addShareDisplays(runtime) { target in
            try ShareWindow.output(for: target, beside: screen, caches: caches)
        }
        if let shared { watchShareWindows(shared, console: console) }
        runtime.add(console)
        runtime.add(PageReadinessHost(cache: runtime.caches.pages))
        runtime.add(SignalHost())
        runtime.add(InkSaveHost(output: inkOutput))
        addTimingHost(runtime)
        let browsers = await serveBrowsers(runtime, qrOnConsole: true, keys: "keys on the console window as usual; "
                                           + "U cycles the console's QR code: audience URL, remote URL (private), none")
        remoteControl(runtime)
        followDeckFile(runtime)
        started?(runtime)
        await runtime.run()
        var draws = displays.draws
        draws["console"] = console.draws
        draws.merge(shared?.draws ?? [:]) { $1 }
        say("presented \(deck.slides.count) slides; frames drawn: "
            + draws.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            + (browsers.map { "; browser pictures rendered \($0.framesRendered)" } ?? ""))
    }

    /// Adds the `--share` displays, on a platform of their own under a ``CableAudienceHost`` on `runtime`; nil
    /// without `--share`. `window` makes the share window (nil: this launcher has none, and `--share window` is
    /// refused); the camera comes from ``cameraOutput``, or the built-in one (``addCamera(_:)``). Exits 2 when a
    /// kind asked for is not available here.
    @MainActor
    func addShareDisplays(_ runtime: PresenterRuntime,
                          window: ((ShareTarget) throws -> any AudienceOutput)?) -> CableAudienceHost<ShareDisplayPlatform>? {
        guard !share.isEmpty else { return nil }
        if share.contains(where: { $0.kind == .window }), window == nil {
            fail("--share window needs a desktop (X11 or Wayland); here use --share camera, or present on a desktop")
        }
        let caches = runtime.caches
        let camera = cameraOutput ?? addCamera(runtime)
        let platform = ShareDisplayPlatform(targets: share, warn: warn) { target in
            switch target.kind {
            case .window:
                guard let window else { throw ShareDisplayError("no share window here") }
                return try window(target)
            case .camera:
                guard let camera else { throw ShareDisplayError("--share camera is not available in this build") }
                return try camera(target, caches)
            }
        }
        // Public content at its own size: no overscan, no mode to switch.
        let host = CableAudienceHost(platform: platform) { $0 }
        runtime.add(host)
        return host
    }

    /// With `--share camera` and no ``cameraOutput`` given: the ``CameraHost`` on `runtime` (the camera's steady
    /// repeats come from its deadlines) and the factory that starts the camera on it; nil without a camera.
    @MainActor
    func addCamera(_ runtime: PresenterRuntime) -> ((ShareTarget, DrawingCaches) throws -> any AudienceOutput)? {
        guard share.contains(where: { $0.kind == .camera }) else { return nil }
        let host = CameraHost(clock: runtime.timeSource, say: say, webcam: webcam)
        runtime.add(host)
        return { target, caches in try host.makeOutput(for: target, caches: caches) }
    }

    /// Redraws a share window the display server exposed or resized (its window surface was replaced).
    @MainActor
    private func watchShareWindows(_ shared: CableAudienceHost<ShareDisplayPlatform>, console: SDLConsoleHost) {
        console.eventObservers.append { [weak shared] event in
            guard event.type == SDL_WINDOWEVENT.rawValue, let shared else { return }
            let kind = UInt32(event.window.event)
            guard kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue else { return }
            for target in shared.platform.targets {
                guard let window = shared.platform.surface(for: target.displayID) as? DesktopAudienceOutput,
                      !window.surface.isDestroyed, SDL_GetWindowID(window.surface.window) == event.window.windowID
                else { continue }
                window.invalidate()
                shared.redrawAll()
            }
        }
    }

    /// Follows the deck's file when one was given.
    @MainActor
    func followDeckFile(_ runtime: PresenterRuntime) {
        if let deckFile { runtime.add(DeckReloadHost(url: deckFile, beamerNotes: beamerNotes, caches: runtime.caches)) }
    }

    /// The MPRIS remote control when a session bus is there.
    @MainActor
    func remoteControl(_ runtime: PresenterRuntime) {
        #if os(Linux)
        let warn = self.warn
        guard let remote = RemoteControlHost.start(deckTitle: deck.title, runtime: runtime,
                                                   onError: { warn("remote control off: \($0)") }) else { return }
        warn("remote control: \(remote.busName ?? "") (playerctl -p extdisplay_present next)")
        runtime.add(remote)
        #endif
    }
}
#endif
