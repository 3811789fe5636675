// present-bench: the presenter's idle cost next to a loop that redraws every frame, measured in one run.
//
//   swift run -c release present-bench [--seconds 5] [--deck Examples/Decks/ExternalDisplayKit.md] [--windows]
//   swift run -c release present-bench --large-decks      (open and flip time as a deck grows; LargeDecks.swift)
//   swift run -c release present-bench --text             (text path: any-language shaper vs one SDL_ttf call; TextBench.swift)
//   scripts/bench-pympress.sh [--runs 3]                   (against pympress on Xorg-dummy; Pympress/)
//   scripts/bench-mpv.sh [--seconds 60]                    (`extdisplay play` against mpv on Xorg-dummy; Mpv/)
//   swift run -c release present-bench keys [--keys 20]    (key → status line in each configuration; KeyLatencyBench.swift)
//   swift run -c release present-bench flip-floor          (where a 4K flip's time goes; FlipFloorBench.swift)
//   scripts/bench-ink.sh [--strokes 20]                   (mouse → ink in the room and memory, against pdfpc's pen; InkBench.swift)
//   scripts/bench-ink-browser.sh [--pages 50]             (mouse → ink message decoded on 50 browser pages; InkBrowserBench.swift)
//   scripts/bench-decoder.sh [--runs 15]                   (decoder process vs in process: first frame, seek; DecoderBench.swift)
//   scripts/bench-zoom.sh [--runs 3]                       (4× zoom at 4K: region vs whole enlarged page; ZoomBench.swift)
//
// With --windows (DISPLAY set, e.g. Xorg-dummy from scripts/xorg-dummy.sh), both loops draw into real SDL
// windows, the console on the first display and the audience view on the second, instead of off-screen surfaces,
// through the presenter's one output (DesktopAudienceOutput on a DesktopSurface drawn on its window surface): the
// presenter loop sends only the changed rectangle, the every-frame loop draws and sends whole windows.
//
// Both loops draw the same console (1920×1080) and audience view (1920×1080) with the same layout and drawing
// code on software surfaces, for the same wall time, while a static slide is shown and the timer runs. The
// presenter loop draws a display only when its display list changed and sleeps until the next visible
// change; the naive loop draws both displays at 60 frames per second. CPU is process CPU time (user + system)
// over wall time.
#if canImport(CSDL2)
import CSDL2
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

#if canImport(Glibc)
import Glibc
#endif

struct Measurement {
    var name: String
    var wall: Double
    var cpu: Double
    var wakeups: Int
    var draws: Int
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

func sleep(until deadline: Double) {
    let wait = deadline - SDLVideo.now()
    if wait > 0 { usleep(useconds_t(wait * 1e6)) }
}

/// Where a loop draws one display: an off-screen canvas, or a real window through the presenter's one output
/// (`DesktopAudienceOutput`, which sends only changed rectangles).
@MainActor
struct BenchTarget {
    /// The size drawn at.
    var size: PixelSize
    /// The fonts' metrics.
    var metrics: any TextMetrics
    /// Draws a list; `whole`: all of it, even when nothing changed (the redraw-every-frame loop).
    var draw: (DisplayList, _ whole: Bool) -> Void
    /// Closes a window.
    var close: () -> Void = {}

    init(canvas: SDLPresenterCanvas) {
        size = canvas.size
        metrics = canvas
        draw = { list, _ in canvas.draw(list) }
    }

    init(window: DesktopAudienceOutput) {
        size = window.size
        metrics = window.metrics ?? ApproximateTextMetrics()
        draw = { list, whole in
            if whole { window.invalidate() }
            window.present(list)
        }
        close = { window.close() }
    }
}

/// Two targets: off-screen canvases, or windows on the first two displays.
@MainActor
func targets(windows: Bool) throws -> (console: BenchTarget, audience: BenchTarget) {
    guard windows else {
        let size = PixelSize(width: 1920, height: 1080)
        return (BenchTarget(canvas: try SDLPresenterCanvas(size: size, caches: benchCaches)), BenchTarget(canvas: try SDLPresenterCanvas(size: size, caches: benchCaches)))
    }
    var frames: [Rect] = []
    for index in 0..<min(2, SDL_GetNumVideoDisplays()) {
        var r = SDL_Rect()
        SDL_GetDisplayBounds(index, &r)
        frames.append(Rect(x: Int(r.x), y: Int(r.y), width: Int(r.w), height: Int(r.h)))
    }
    guard frames.count == 2 else { throw PresenterCanvasError("--windows needs two displays; SDL sees \(frames.count)") }
    let outputs = try frames.enumerated().map { index, frame in
        DesktopAudienceOutput(try DesktopSurface(display: DisplayID("bench\(index)"), name: "present-bench", frame: frame,
                                                 role: index == 0 ? .console : .external, title: "present-bench",
                                                 borderless: true, drawing: .windowSurface), caches: benchCaches)
    }
    outputs.forEach { $0.show() }
    return (BenchTarget(window: outputs[0]), BenchTarget(window: outputs[1]))
}

@MainActor
func measure(_ name: String, seconds: Double, deck: Deck, everyFrame: Bool, windows: Bool) throws -> Measurement {
    let (console, audience) = try targets(windows: windows)
    defer {
        console.close()
        audience.close()
    }
    let mode = DisplayMode(width: audience.size.width, height: audience.size.height)
    let tv = AudienceDisplay(id: "tv", name: "Projector", mode: mode,
                             layout: DisplayLayout(mode: mode, overscan: 0, compensation: .scale))
    let size = console.size
    let layout = PresenterLayout(metrics: console.metrics)
    let start = SDLVideo.now()
    var state = PresenterState(slideCount: deck.slides.count, startedAt: 0)
    state.reduce(.attached(tv), at: 0)
    var scheduler = RedrawScheduler()
    var wakeups = 0, draws = 0
    let cpu0 = cpuSeconds()
    var now = 0.0
    while now < seconds {
        wakeups += 1
        let scene = PresenterScene(deck: deck, state: state, now: now, clock: "10:00", mainDisplay: "laptop 1920×1080")
        let main = layout.main(scene, size: size)
        let external = layout.external(scene, on: tv)
        if everyFrame || scheduler.needsDraw("console", main) { console.draw(main, everyFrame); draws += 1 }
        if everyFrame || scheduler.needsDraw("tv", external) { audience.draw(external, everyFrame); draws += 1 }
        let next = everyFrame ? (now * 60).rounded(.down) / 60 + 1.0 / 60
            : RedrawScheduler.nextChange(after: now, state: state, wallClock: 36_000 + now)
        sleep(until: start + next)
        if windows { SDL_PumpEvents() }
        now = SDLVideo.now() - start
    }
    return Measurement(name: name, wall: now, cpu: cpuSeconds() - cpu0, wakeups: wakeups, draws: draws)
}

/// The real live presenter for `seconds`, stopped by a timer: its whole loop, not a model of it — the X11 host
/// as `extdisplay present` runs it (RandR + SDL windows, or SDL's display list without RandR).
@MainActor
func measureLive(seconds: Double, deck: Deck) async throws -> Measurement {
    let start = SDLVideo.now(), cpu0 = cpuSeconds()
    var passes = 0
    var launch = PresenterLaunch(deck: deck, display: nil, configuration: DisplayConfiguration(), planned: nil,
                                 serve: nil, warn: { _ in }, fail: { message in fatalError(message) })
    var drawn = ""
    launch.say = { line in if line.hasPrefix("presented ") { drawn = line } }
    launch.started = { runtime in
        Task { @MainActor in
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            passes = runtime.passes
            runtime.send(.stop)
        }
    }
    await X11Presenter.run(launch)
    // "presented N slides; frames drawn: console 3, DUMMY1 2"
    var draws = 0
    for entry in (drawn.split(separator: ":").last ?? "").split(separator: ",") {
        draws += Int(entry.split(separator: " ").last ?? "") ?? 0
    }
    return Measurement(name: "extdisplay present (X11 host)", wall: SDLVideo.now() - start, cpu: cpuSeconds() - cpu0,
                       wakeups: passes, draws: draws)
}

@MainActor
func main() async throws {
    var seconds = 5.0
    var deckPath: String?
    var windows = false
    var args = CommandLine.arguments.dropFirst()
    if args.first == "pympress" {
        pympressBench(Array(args.dropFirst()))
        return
    }
    if args.first == "mpv" {
        mpvBench(Array(args.dropFirst()))
        return
    }
    if args.first == "keys" {
        keyLatencyBench(Array(args.dropFirst()))
        return
    }
    if args.first == "decoder" {
        decoderBench(Array(args.dropFirst()))
        return
    }
    if args.first == "share" {
        shareBench(Array(args.dropFirst()))
        return
    }
    if args.first == "ink" {
        inkBench(Array(args.dropFirst()))
        return
    }
    if args.first == "ink-browser" {
        await inkBrowserBench(Array(args.dropFirst()))
        return
    }
    if args.first == "zoom" {
        zoomBench(Array(args.dropFirst()))
        return
    }
    if args.first == "flip-floor" {
        flipFloorBench(Array(args.dropFirst()))
        return
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--seconds": seconds = Double(args.popFirst() ?? "") ?? seconds
        case "--deck": deckPath = args.popFirst()
        case "--windows": windows = true
        case "--large-decks":
            try largeDeckBench(flips: 11)
            return
        case "--text":
            try textBench(decks: ["Examples/Decks/ExternalDisplayKit.md", "Examples/Decks/Languages/languages.md"],
                          rounds: 50)
            return
        default:
            FileHandle.standardError.write(Data("usage: present-bench [--seconds S] [--deck DECK.md] [--windows] | --large-decks | --text | pympress [--runs N] | mpv [--seconds S] | keys [--keys N] | flip-floor [--size WxH] | share [--keys N] [--idle-seconds S] | decoder [--runs N] | zoom [--deck PDF] [--page N] [--runs N] | ink [--strokes N] [--memory-strokes N] | ink-browser [--pages N] [--strokes N] [--moves N] [--rate HZ] [--no-chromium]\n".utf8))
            exit(2)
        }
    }
    let deck = try deckPath.map { try DeckParser.parse(contentsOf: URL(fileURLWithPath: $0)) }
        ?? DeckParser.parse("# A static slide\n- nothing moves\n- but the timer ticks\nNote: notes", file: "bench.md")
    if windows {
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else {
            FileHandle.standardError.write(Data("present-bench: --windows needs a display: \(String(cString: SDL_GetError()))\n".utf8))
            exit(2)
        }
    }
    defer { if windows { SDL_Quit() } }
    let surfaces = windows ? "SDL windows on the first two displays" : "off-screen surfaces (console 1920×1080, audience 1920×1080)"
    print("present-bench: \(surfaces), static slide, timer running, \(seconds) s per loop")
    var results = [try measure("presenter (redraw on change)", seconds: seconds, deck: deck, everyFrame: false, windows: windows),
                   try measure("redraw every frame (60 Hz)", seconds: seconds, deck: deck, everyFrame: true, windows: windows)]
    if windows { results.append(try await measureLive(seconds: seconds, deck: deck)) }
    print("loop                           wakeups/s   draws/s   CPU %")
    for r in results {
        print(String(format: "%-30@ %9.1f %9.1f %7.2f", r.name as NSString, Double(r.wakeups) / r.wall,
                     Double(r.draws) / r.wall, r.cpu / r.wall * 100))
    }
    for presenter in results where presenter.name != results[1].name {
        print(String(format: "the redraw-every-frame loop used %.0f× the CPU of %@", results[1].cpu / max(presenter.cpu, 1e-6),
                     presenter.name as NSString))
    }
}

try await main()
#else
print("present-bench runs on Linux (SDL2)")
#endif
