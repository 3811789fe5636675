import ArgumentParser
#if canImport(CSDL2)
import CSDL2
#endif
import ExtDisplayCore
import ExternalDisplayKit
import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import DesktopVideo
import SDLWindows
import X11Outputs
import Foundation
import PresenterRuntime

/// `extdisplay present DECK.md`: the dual-screen presenter. Slides on every external display, the console
/// (current and next slide, notes, timer, clock, displays) on the main one. Without a display server, or with
/// `--simulate`, it runs on the simulator and writes PNG snapshots.
struct PresentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present",
        abstract: "Present a Markdown or PDF deck: slides on the external displays, notes on the main one.",
        discussion: """
        Deck: slides separated by lines of ---; # titles, paragraphs, - bullets (nested once), `code`, \
        ![alt](file.png) images relative to the deck, and speaker notes after a line Note: (never shown on an \
        external display).

        Video on slides: ![demo](clip.webm) whose file is a video (by its name: .webm .mkv .mp4 .m4v .mov .ogv \
        .ogg .avi, or by its first bytes) plays in the slide's frame on the external displays when the slide is \
        shown, silent; the console shows it in the current slide and a line "clip: demo.webm 0:12 / 0:30 ▶". \
        V play/pause, J 5 s back, L 5 s forward. Leaving the slide stops it; the next slide's clip is opened \
        ahead. A file that cannot be played gets a message and its stand-in; the talk goes on.

        PDF decks: any file starting with %PDF- (pages rendered by poppler's pdftoppm at each display's \
        resolution); notes from talk.pdfpc beside talk.pdf (pdfpc 4.5+ JSON), or from Beamer split pages with \
        --notes right|left|bottom.

        Keys (clicker-safe: no single key a clicker sends ends the talk): Right/Space/PageDown next, \
        Left/PageUp previous, Up/Down, Home, End, B or . black screen, W white screen, F freeze the audience on \
        this slide while you browse, Tab/O overview (arrows + Enter to jump, Esc to close), a slide number then \
        Enter to go there, P pause the timer, M mirror/extend, A audience view on the main display (when no \
        external display), V/J/L the slide's video (play/pause, 5 s back, 5 s forward), Esc/F5 cancel (never \
        quit). Quit: Q twice within 2 s, or Ctrl-Q.

        Pointer: move the mouse over the console's current slide; a red dot shows at that spot on every \
        audience display (not while blanked, frozen or mirrored).

        Countdown: --duration 20 (minutes) or --end-time 14:30 shows the time left and a pace cue (on pace, \
        ahead, behind, overtime) on the console. A PDF deck's talk.pdfpc duration, endTime (which wins over its \
        duration) and lastMinutes (a LAST N MINUTES warning) are the default.

        Headless (no DISPLAY, or --simulate): runs on simulated displays and writes one PNG per display after \
        each step of --keys, e.g. --keys next,next,unplug:hdmi-tv-1080p,next,plug:hdmi-tv-1080p
        """)

    @Argument(help: "The deck: Markdown, or a PDF (any file starting with %PDF-; notes from talk.pdfpc beside it).")
    var deck: String

    @Option(help: "PDF decks made by Beamer with notes on a second screen: where the notes half is (right, left, bottom).")
    var notes: BeamerNotes?

    @Option(name: .customLong("cache-mb"),
            help: "PDF decks: megabytes of rendered pages kept in memory (16…16384, default 192).")
    var cacheMB: String?

    @Option(help: "The external display to present on: an output name, or auto (every external display).")
    var display: String = "auto"

    @Option(help: "Switch external displays to this mode: preferred, highest, lowest, or WxH (default: keep the mode each display runs).")
    var mode: String?

    @Option(help: "Overscan compensation: scale, insetBounds or none.")
    var overscan: String = "scale"

    @Option(help: "Run on simulated displays (catalog presets, main display first), e.g. laptop,hdmi-tv-1080p.")
    var simulate: String?

    @Option(help: "Headless: write PNG snapshots here (default: ./presenter-snapshots).")
    var snapshot: String?

    @Option(help: "Headless: steps to play, comma-separated (keys, unplug:ID, plug:PRESET, remote:next, wait:S, ink:X/Y;X/Y); each step takes 1/60 s of virtual time, wait:S lets S seconds pass, as in play.")
    var keys: String = ""

    @Option(name: .customLong("ink-out"), help: "Where the talk's ink is saved: a PDF deck's as ink annotations in a copy of the PDF (default: NAME-annotated.pdf beside it), a Markdown deck's as JSON (default: NAME.ink.json beside it); the deck is never written. See docs/ink.md.")
    var inkOut: String?

    @Option(help: "The talk's length in minutes: the console counts down and cues the pace.")
    var duration: Double?

    @Flag(help: "Rehearse: time every slide and overlay step (and the pauses) and add them to the timing file at the end; the next talk's per-slide budgets come from it. See docs/timing.md.")
    var rehearse = false

    @Flag(name: .customLong("record-timings"), help: "Record this talk's times per slide into the timing file, as --rehearse does, marked as a talk.")
    var recordTimings = false

    @Option(help: "The timing file (default: NAME.timings.json beside the deck). Read at the start for per-slide budgets and the pace at each slide; written at the end with --rehearse or --record-timings.")
    var timings: String?

    @Option(name: .customLong("end-time"), help: "When the talk must end (HH:MM, today, local time): a countdown from the start to it; the console shows \"ends at HH:MM\". A PDF deck's talk.pdfpc endTime is the default. See docs/timing.md.")
    var endTime: String?

    @Option(name: .customLong("wall-clock"), help: "Headless: the console's clock at the start (HH:MM, today, local time), so that an end time gives the same countdown every run (default: now).")
    var wallClock: String?

    @Option(help: "Display server: auto (Wayland when WAYLAND_DISPLAY is set, else X11 when DISPLAY is), x11 or wayland.")
    var backend: DesktopBackend = .auto

    @Option(help: ArgumentHelp("Present into a video call, repeatable: window[=WxH] opens the audience view in an ordinary "
                               + "window titled \"extdisplay: audience (share this window)\" for the call app's \"share a "
                               + "window\", kept current while covered or hidden; camera[=WxH] publishes it as a camera. "
                               + "Default size 1280x720. Public content only, like any audience display. See docs/commands.md.",
                               valueName: "KIND[=WxH]"))
    var share: [String] = []

    @Option(name: .customLong("webcam"), defaultAsFlag: WebcamSource.automaticArgument,
            help: ArgumentHelp("With --share camera: your webcam as a small picture in the camera's bottom-right corner "
                               + "(a quarter of its width, live). SOURCE: a PipeWire node name or serial (pw-cli ls "
                               + "Node), or a V4L2 device such as /dev/video2; without a value, the first PipeWire "
                               + "camera that is not extdisplay's own, else /dev/video0. Give the value after = "
                               + "(--webcam=/dev/video2). Off by default; a webcam that is missing or stops gets one "
                               + "line and the camera goes on with the slides alone. See docs/commands.md.",
                               valueName: "SOURCE"))
    var webcam: String? = nil

    @OptionGroup var browsers: ServeOptions

    func validate() throws {
        if rehearse && recordTimings {
            throw ValidationError("--rehearse and --record-timings both record this run; give one (a rehearsal or a talk)")
        }
        _ = try Self.modeSelection(mode)
        _ = try Self.compensation(overscan)
        let targets = try Self.shareTargets(share)
        _ = try Self.webcamSource(webcam, share: targets)
        if !targets.isEmpty, simulate != nil {
            throw ValidationError("--share opens a real window or camera and --simulate draws simulated displays only; "
                                  + "drop --simulate to present into a call, or --share to write snapshots")
        }
    }

    /// `--webcam`'s source (nil without it), refused without `--share camera` or with an empty value.
    static func webcamSource(_ value: String?, share: [ShareTarget]) throws -> WebcamSource? {
        guard let value else { return nil }
        guard share.contains(where: { $0.kind == .camera }) else {
            throw ValidationError("--webcam puts your webcam in the corner of the camera's picture: it needs --share "
                                  + "camera (add --share camera, or drop --webcam)")
        }
        guard let source = WebcamSource(argument: value) else {
            throw ValidationError("--webcam= needs a source: a PipeWire node name or serial (pw-cli ls Node), a V4L2 "
                                  + "device such as /dev/video2, or auto (or --webcam alone) for the first webcam found")
        }
        return source
    }

    /// The `--share` values as targets, refused with the parser's message.
    static func shareTargets(_ values: [String]) throws -> [ShareTarget] {
        do { return try ShareTarget.parseAll(values) } catch { throw ValidationError(error.description) }
    }

    @MainActor
    func run() async throws {
        let url = URL(fileURLWithPath: deck)
        let parsed: Deck
        // One set of caches for the run: the images the deck reader decodes are the ones the canvases draw.
        let caches = DrawingCaches()
        do { parsed = try DeckParser.parse(contentsOf: url, beamerNotes: notes, imageProblem: caches.imageProblem) } catch {
            Self.fail(error.description)
        }
        for diagnostic in parsed.diagnostics { Self.warn(diagnostic.description) }
        if let cacheMB {
            switch PageCacheSize.bytes(argument: cacheMB) {
            case .success(let bytes): caches.pages.byteBudget = bytes
            case .failure(let refusal): Self.fail(refusal.description)
            }
        }
        let wallStart: Date
        switch Self.wallStart(wallClock) {
        case .success(let date): wallStart = date
        case .failure(let message): Self.fail(message.description)
        }
        let plan: TalkPlan
        switch Self.talkPlan(duration: duration, endTime: endTime, pdfpc: Self.pdfpcTiming(of: url),
                             pdfpcName: PdfpcNotes.companion(of: url).lastPathComponent, wallStart: wallStart) {
        case .success(let made):
            plan = made.plan
            for note in made.notes { Self.warn(note) }
        case .failure(let message): Self.fail(message.description)
        }
        let modeRequest = try Self.modeSelection(mode)
        let configuration = DisplayConfiguration(modeSelection: modeRequest.selection,
                                                 overscanCompensation: try Self.compensation(overscan))
        let environment = ProcessInfo.processInfo.environment
        let backend: PresenterBackend
        switch PresenterBackend.choose(self.backend.request, environment: environment, simulate: simulate != nil) {
        case .success(let choice): backend = choice
        case .failure(let message): Self.fail(message.description)
        }
        #if canImport(CSDL2)
        var launch = PresenterLaunch(deck: parsed, display: display == "auto" ? nil : display,
                                     configuration: configuration, planned: nil, serve: browsers.server,
                                     consoleFPS: browsers.consoleFPS, warn: Self.warn, fail: Self.fail)
        // A console whose reader has gone (a closed pipe) loses its lines; it never traps the talk.
        launch.say = { line in StandardStreams.line(PrintableText.line(line)) }
        launch.modeRequest = modeRequest
        launch.plan = plan
        launch.deckFile = url
        launch.beamerNotes = notes
        launch.caches = caches
        launch.inkOutput = inkOut.map { URL(fileURLWithPath: $0) }
        launch.timings = timingFile(for: url)
        launch.share = try Self.shareTargets(share)
        launch.webcam = try Self.webcamSource(webcam, share: launch.share)
        // --serve or a camera without a desktop (or with --terminal-console): the console in the terminal. A share
        // window needs a desktop: refused there.
        let cameraOnly = !launch.share.isEmpty && launch.share.allSatisfy { $0.kind == .camera }
        if browsers.server != nil || cameraOnly, backend == .headless || browsers.terminalConsole {
            await TerminalPresenter.run(launch)
            return
        }
        #endif
        if backend == .headless, !share.isEmpty {
            Self.fail("--share window needs a desktop (X11 or Wayland: set DISPLAY or WAYLAND_DISPLAY); "
                      + "without one, --share camera runs with the console in the terminal")
        }
        for note in Self.ineffective(headless: backend == .headless, display: display, snapshot: snapshot, keys: keys,
                                     wallClock: wallClock) {
            Self.warn(note)
        }
        switch backend {
        case .headless:
            try await runHeadless(parsed, configuration: configuration, explained: simulate == nil, plan: plan,
                                  wallStart: wallStart, caches: caches)
        #if canImport(CSDL2)
        case .wayland:
            WaylandLeftoverModes.prepare(display: environment["WAYLAND_DISPLAY"] ?? "")
            await WaylandPresenter.run(launch)
        case .x11:
            LeftoverModes.prepare(display: environment["DISPLAY"] ?? "")
            await X11Presenter.run(launch)
        #else
        case .wayland, .x11:
            Self.fail("the live presenter needs SDL2; run with --simulate to render snapshots")
        #endif
        }
    }

    @MainActor
    private func runHeadless(_ deck: Deck, configuration: DisplayConfiguration, explained: Bool,
                             plan: TalkPlan, wallStart: Date, caches: DrawingCaches) async throws {
        if explained { Self.warn("no DISPLAY set: running on simulated displays (laptop,hdmi-tv-1080p)") }
        let presets = (simulate ?? "laptop,hdmi-tv-1080p").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let directory = URL(fileURLWithPath: snapshot ?? "presenter-snapshots")
        let keys = self.keys
        do {
            let steps = try HeadlessStep.parseList(keys)
            let run = HeadlessPresenter(deck: deck, displays: presets, steps: steps, configuration: configuration,
                                        clockStart: wallStart, caches: caches)
            run.plan = plan
            run.keepsCanvases = false
            run.inkOutput = inkOut.map { URL(fileURLWithPath: $0) }
            run.timings = timingFile(for: URL(fileURLWithPath: self.deck))
            try await run.run(writingTo: directory) { StandardStreams.line(PrintableText.line($0)) }
        } catch {
            Self.fail("\(error)")
        }
    }

    /// The timing file and what this run records as (`--rehearse`, `--record-timings`).
    func timingFile(for deck: URL) -> (file: URL, recording: TalkTimings.Run.Kind?) {
        let file = timings.map { URL(fileURLWithPath: $0) } ?? TalkTimings.companion(of: deck)
        return (file, rehearse ? .rehearsal : (recordTimings ? .talk : nil))
    }

    /// `--mode` as the core reads it (``PresenterModeRequest``): nil keeps each display's mode.
    static func modeSelection(_ text: String?) throws -> PresenterModeRequest {
        do { return try PresenterModeRequest(argument: text) } catch { throw ValidationError(error.description) }
    }

    /// Messages for options that have no effect in the chosen mode (headless or live).
    static func ineffective(headless: Bool, display: String, snapshot: String?, keys: String,
                            wallClock: String? = nil) -> [String] {
        var notes: [String] = []
        if !headless, wallClock != nil {
            notes.append("--wall-clock has no effect with a display server (the talk runs on the real clock); "
                         + "add --simulate to start a headless run's clock at that time")
        }
        if headless, display != "auto" {
            notes.append("--display \(display) has no effect on simulated displays (headless); "
                         + "choose the displays with --simulate, e.g. --simulate laptop,hdmi-tv-1080p")
        }
        if !headless, snapshot != nil {
            notes.append("--snapshot has no effect with a display server; add --simulate to write snapshots")
        }
        if !headless, !keys.isEmpty {
            notes.append("--keys has no effect with a display server (press the keys instead); add --simulate to play them")
        }
        return notes
    }

    static func compensation(_ text: String) throws -> OverscanCompensation {
        guard let c = OverscanCompensation.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw ValidationError("--overscan '\(text)': use scale, insetBounds or none")
        }
        return c
    }

    static func warn(_ message: String) {
        // Names and text from the deck and its files are data: controls escaped, the line bounded.
        StandardStreams.errorLine("extdisplay present: " + PrintableText.line(message))
    }

    static func fail(_ message: String) -> Never {
        warn(message)
        Foundation.exit(2)
    }
}
