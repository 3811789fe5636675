#if canImport(CSDL2)
import DesktopFiles
public import ExternalDisplayBrowser
public import ExternalDisplayKit
public import ExternalDisplayPresenter
public import Foundation

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
    /// The talk's planned length in seconds (the countdown), if any.
    public var planned: Double?
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
    /// Where the ink goes (`--ink-out FILE`; nil: `NAME-annotated.pdf` beside a PDF deck).
    public var inkOutput: URL?
    /// The timing file (`--timings FILE`; default `NAME.timings.json` beside the deck file) and what this run is
    /// recorded as (`--rehearse`, `--record-timings`; nil: read for the pace, not written).
    public var timings: (file: URL, recording: TalkTimings.Run.Kind?)?
    /// Gets the runtime just before its loop starts (benchmarks stop it from a timer).
    public var started: ((PresenterRuntime) -> Void)?

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
        if let planned { runtime.send(.plan(duration: planned)) }
        let say = self.say
        // Status lines that only say the external displays changed: at most one a second (300 pages connecting).
        runtime.onStatus = StatusLineThrottle(controller: controller, say: say).line
        runtime.onSay = say
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
        runtime.add(TimingHost(file: timings.file, recording: timings.recording, target: planned))
    }

    /// The desktop talk's common end: the console and audience hosts, page readiness, signals (``SignalHost``),
    /// browsers (`--serve`, with the QR panel on the console), the remote control and the deck file followed; runs
    /// the loop and reports.
    @MainActor
    func runDesktop<P: DisplayPlatform>(_ runtime: PresenterRuntime, console: SDLConsoleHost,
                                        displays: CableAudienceHost<P>) async {
        // Video on slides: decoded on a thread of its own, only for a deck that has clips.
        if deck.slides.contains(where: { !$0.clips.isEmpty }) { runtime.add(SlideClipHost(mode: .live)) }
        runtime.add(displays)
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
        say("presented \(deck.slides.count) slides; frames drawn: "
            + draws.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            + (browsers.map { "; browser pictures rendered \($0.framesRendered)" } ?? ""))
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
