import ArgumentParser
#if canImport(CSDL2)
import CSDL2
#endif
import ExternalDisplayKit
import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
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
        ahead, behind, overtime) on the console. A PDF deck's talk.pdfpc duration is the default.

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

    @Option(name: .customLong("ink-out"), help: "Where a PDF talk's ink is saved, as ink annotations in a copy of the PDF (default: NAME-annotated.pdf beside it; the original is never written). See docs/ink.md.")
    var inkOut: String?

    @Option(help: "The talk's length in minutes: the console counts down and cues the pace.")
    var duration: Double?

    @Flag(help: "Rehearse: time every slide and overlay step (and the pauses) and add them to the timing file at the end; the next talk's per-slide budgets come from it. See docs/timing.md.")
    var rehearse = false

    @Flag(name: .customLong("record-timings"), help: "Record this talk's times per slide into the timing file, as --rehearse does, marked as a talk.")
    var recordTimings = false

    @Option(help: "The timing file (default: NAME.timings.json beside the deck). Read at the start for per-slide budgets and the pace at each slide; written at the end with --rehearse or --record-timings.")
    var timings: String?

    @Option(name: .customLong("end-time"), help: "When the talk must end (HH:MM, today, local time): a countdown to it.")
    var endTime: String?

    @Option(help: "Display server: auto (Wayland when WAYLAND_DISPLAY is set, else X11 when DISPLAY is), x11 or wayland.")
    var backend: DesktopBackend = .auto

    @OptionGroup var browsers: ServeOptions

    func validate() throws {
        if rehearse && recordTimings {
            throw ValidationError("--rehearse and --record-timings both record this run; give one (a rehearsal or a talk)")
        }
        _ = try Self.modeSelection(mode)
        _ = try Self.compensation(overscan)
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
        let plan = Self.plannedSeconds(duration: duration, endTime: endTime, now: Date())
        if case .failure(let message) = plan { Self.fail(message.description) }
        let planned = (try? plan.get()) ?? Self.pdfpcDuration(of: url)
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
                                     configuration: configuration, planned: planned, serve: browsers.server,
                                     consoleFPS: browsers.consoleFPS, warn: Self.warn, fail: Self.fail)
        // A console whose reader has gone (a closed pipe) loses its lines; it never traps the talk.
        launch.say = { line in StandardStreams.line(PrintableText.line(line)) }
        launch.modeRequest = modeRequest
        launch.deckFile = url
        launch.beamerNotes = notes
        launch.caches = caches
        launch.inkOutput = inkOut.map { URL(fileURLWithPath: $0) }
        launch.timings = timingFile(for: url)
        // --serve without a desktop (or with --terminal-console): the console in the terminal.
        if browsers.server != nil, backend == .headless || browsers.terminalConsole {
            await TerminalPresenter.run(launch)
            return
        }
        #endif
        for note in Self.ineffective(headless: backend == .headless, display: display, snapshot: snapshot, keys: keys) {
            Self.warn(note)
        }
        switch backend {
        case .headless:
            try await runHeadless(parsed, configuration: configuration, explained: simulate == nil, planned: planned, caches: caches)
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
                             planned: Double?, caches: DrawingCaches) async throws {
        if explained { Self.warn("no DISPLAY set: running on simulated displays (laptop,hdmi-tv-1080p)") }
        let presets = (simulate ?? "laptop,hdmi-tv-1080p").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let directory = URL(fileURLWithPath: snapshot ?? "presenter-snapshots")
        let keys = self.keys
        do {
            let steps = try HeadlessStep.parseList(keys)
            let run = HeadlessPresenter(deck: deck, displays: presets, steps: steps, configuration: configuration,
                                        caches: caches)
            run.plannedDuration = planned
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
    static func ineffective(headless: Bool, display: String, snapshot: String?, keys: String) -> [String] {
        var notes: [String] = []
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
