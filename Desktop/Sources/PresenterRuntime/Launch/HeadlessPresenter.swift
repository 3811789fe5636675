#if canImport(CSDL2)
public import ExternalDisplayKit
public import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import ExternalDisplaySimulator
public import Foundation

/// Runs the presenter without a display server: the same ``PresenterRuntime`` loop as a live talk, on the
/// simulator's displays and a ``ManualClock`` (virtual time), drawing every display with the same layout and
/// drawing code as the real mode after each step, and writing PNG snapshots named `NNN-STEP-DISPLAY.png`
/// (`000-start-console.png`, `003-next-hdmi-tv-1080p.png`).
///
/// ```swift
/// let run = HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-tv-1080p"],
///                             steps: try HeadlessStep.parseList("next,unplug:hdmi-tv-1080p,next"))
/// let snapshots = try await run.run(writingTo: URL(fileURLWithPath: "/tmp/shots")) { print($0) }
/// ```
@MainActor
public final class HeadlessPresenter {
    /// One display drawn after one step.
    public struct Snapshot {
        /// Step number (0 = the start).
        public var step: Int
        /// The step's label (`start`, `next`, `unplug-hdmi-tv-1080p`).
        public var label: String
        /// `console` for the main display, else the external display's id.
        public var display: String
        /// What was drawn.
        public var list: DisplayList
        /// The canvas it was drawn on (pixels can be read back).
        public var canvas: any SnapshotCanvas
        /// Where the PNG was written, if a directory was given.
        public var file: URL?
    }

    private let deck: Deck
    private let displays: [String]
    private let steps: [HeadlessStep]
    private let configuration: DisplayConfiguration
    private let secondsPerStep: Double
    private let clockStart: Date
    private var canvases: [String: any SnapshotCanvas] = [:]
    private let makeCanvas: (PixelSize, DrawingCaches) throws(PresenterCanvasError) -> any SnapshotCanvas
    /// What the run's canvases draw from.
    public let caches: DrawingCaches
    /// The slide clips' decoders, while a deck with clips runs.
    private var clips: SlideClipHost?
    /// The talk's planned length in seconds (`--duration`): the console counts down and cues the pace.
    public var plannedDuration: Double?
    /// The talk's end time and last-minutes warning (`--end-time`, a `.pdfpc` file's `endTime`, `lastMinutes`): the
    /// end time becomes a length at the start, on the virtual wall clock from `clockStart` — the same every run.
    /// Its `duration`, when set, replaces ``plannedDuration``.
    public var plan = TalkPlan()
    /// Whether the run keeps its snapshots — each with a canvas of its own (its pixels can be read back later) and
    /// its display list — and returns them. The command line turns it off: the PNG files are what it keeps, and
    /// memory stays flat however many steps are played (kept, the lists of a talk with ink grew with every stroke:
    /// each step's list holds all the slide's strokes — 1,000 `ink:` steps peaked at 1 GB).
    public var keepsCanvases = true
    /// Where the ink goes (`--ink-out FILE`; nil: `NAME-annotated.pdf` beside a PDF deck, `NAME.ink.json` beside a
    /// Markdown deck read from a file; written only when the run drew ink or pressed Ctrl-S). With `savesInk`
    /// false, nothing is read back nor written.
    public var inkOutput: URL?
    /// Whether the run reads back and saves ink (``InkSaveHost``).
    public var savesInk = true
    /// The timing file and what this run is recorded as (`--rehearse`, `--record-timings`; nil: read for the pace
    /// only); nil: not timed. Timed only when it records, the file exists or a slide has a time.
    public var timings: (file: URL, recording: TalkTimings.Run.Kind?)?

    /// The virtual time one step takes unless it is a `wait:S`: one refresh period of a 60 Hz display, as a step of a
    /// headless `play` takes, so `--keys` means the same in both (a key is pressed, the next frame shows it; `q,q`
    /// is two Qs within the quit window; only `wait:S` lets time pass).
    public static let stepDuration: Double = 1.0 / 60

    /// A run of `deck` on the simulator. `displays` lists catalog presets: the first is the main display when it
    /// is a device preset (`laptop`, `ipad`, `iphone`), else the main display is a laptop. Each step takes
    /// `secondsPerStep` of virtual time; the clock on the console starts at `clockStart`.
    public init(deck: Deck, displays: [String] = ["laptop", "hdmi-tv-1080p"], steps: [HeadlessStep],
                configuration: DisplayConfiguration = DisplayConfiguration(), secondsPerStep: Double = HeadlessPresenter.stepDuration,
                clockStart: Date = Date(),
                caches: DrawingCaches = DrawingCaches(),
                canvas: @escaping (PixelSize, DrawingCaches) throws(PresenterCanvasError) -> any SnapshotCanvas = HeadlessPresenter.defaultCanvas) {
        self.makeCanvas = canvas
        self.caches = caches
        self.deck = deck
        self.displays = displays
        self.steps = steps
        self.configuration = configuration
        self.secondsPerStep = secondsPerStep
        self.clockStart = clockStart
    }

    /// Runs every step (stopping after `quit`), writing PNGs into `directory` when given and reporting each
    /// file and step through `log`; returns the snapshots (the start's only when ``keepsCanvases`` is off).
    @discardableResult
    public func run(writingTo directory: URL? = nil,
                    log: @escaping (String) -> Void = { _ in }) async throws(HeadlessError) -> [Snapshot] {
        let (device, externals) = try resolveDisplays()
        if let directory { try makeDirectory(directory) }
        let platform = SimulatedPlatform(device: device)
        for (preset, id) in externals { platform.connect(preset: preset, as: id) }
        let mainSize = PixelSize(width: Int(Double(device.points.width) * device.scale),
                                 height: Int(Double(device.points.height) * device.scale))
        let clock = ManualClock()
        let clockStart = self.clockStart
        let controller = PresenterController(deck: deck, startedAt: 0, mainDisplay: "\(device.name) \(mainSize)")
        let runtime = PresenterRuntime(controller: controller, clock: clock, caches: caches, wallClock: {
            clockStart.addingTimeInterval(Double(clock.now.offset.components.seconds)
                                          + Double(clock.now.offset.components.attoseconds) / 1e18)
        })
        // What the core says (a clip that cannot be played, ink saved, timings written) is printed once, as live.
        runtime.onSay = log
        var plan = self.plan
        if plan.duration == nil { plan.duration = plannedDuration }
        let planned = runtime.startPlan(plan)
        // The simulated displays are reported like cable ones; snapshots are drawn after each step, not per pass.
        runtime.add(CableAudienceHost(platform: platform, configuration: configuration) { _ in nil })
        if savesInk { runtime.add(InkSaveHost(output: inkOutput)) }
        if let timings, TimingHost.wanted(file: timings.file, recording: timings.recording, deck: deck) {
            runtime.add(TimingHost(file: timings.file, recording: timings.recording, target: planned))
        }
        // Video on slides: each snapshot shows the clip's frame at the step's virtual time.
        let clips = deck.slides.contains(where: { !$0.clips.isEmpty }) ? SlideClipHost(mode: .exact) : nil
        if let clips { runtime.add(clips) }
        self.clips = clips
        let loop = Task { @MainActor in await runtime.run() }
        await runtime.nextPass()
        var snapshots = try render(step: 0, label: "start", controller, runtime.now, platform, mainSize, directory, log)
        var failure: HeadlessError?
        for (index, step) in steps.enumerated() {
            clock.advance(by: .nanoseconds(Int64(secondsPerStep * 1e9)))
            platform.advance(by: secondsPerStep)
            do { try perform(step, runtime, platform, clock) } catch {
                failure = error
                break
            }
            runtime.wake()
            if runtime.isRunning { await runtime.nextPass() }
            let drawn = try render(step: index + 1, label: step.label, controller, runtime.now, platform, mainSize,
                                   directory, log)
            if keepsCanvases { snapshots += drawn }
            if controller.state.wantsQuit {
                log("quit after step \(index + 1)")
                break
            }
        }
        if !controller.state.wantsQuit { runtime.send(.stop) }
        await loop.value
        if let failure { throw failure }
        return snapshots
    }

    private func resolveDisplays() throws(HeadlessError) -> (DisplayCatalog.Device, [(String, DisplayID)]) {
        var names = displays
        var device = DisplayCatalog.device(named: "laptop")!
        if let first = names.first, let d = DisplayCatalog.device(named: first) {
            device = d
            names.removeFirst()
        }
        var externals: [(String, DisplayID)] = []
        for name in names {
            guard DisplayCatalog.preset(named: name) != nil else {
                let devices = DisplayCatalog.devices.map(\.name).joined(separator: ", ")
                let externalNames = DisplayCatalog.presets.map(\.name).joined(separator: ", ")
                if DisplayCatalog.device(named: name) != nil {
                    throw HeadlessError("'\(name)' in --simulate is a device (the main display, with the console), so it "
                                        + "can only come first, e.g. --simulate \(name),hdmi-tv-1080p; after the first "
                                        + "entry come external displays: \(externalNames)")
                }
                throw HeadlessError("unknown display preset '\(name)' in --simulate; the first entry may be a device "
                                    + "(\(devices)), the others are external displays: \(externalNames)")
            }
            var id = name, n = 2
            while externals.contains(where: { $0.1.rawValue == id }) {
                id = "\(name)-\(n)"
                n += 1
            }
            externals.append((name, DisplayID(id)))
        }
        return (device, externals)
    }

    private func perform(_ step: HeadlessStep, _ runtime: PresenterRuntime, _ platform: SimulatedPlatform,
                         _ clock: ManualClock) throws(HeadlessError) {
        switch step {
        case .key(let key): runtime.send(.key(key))
        case .remote(let command): runtime.send(.remote(command))
        case .unplug(let id):
            guard platform.connectedDisplays[id] != nil else {
                throw HeadlessError("unplug:\(id): no display '\(id)' is plugged in; plugged: "
                                    + platform.connectedDisplays.keys.sorted().map(\.rawValue).joined(separator: ", "))
            }
            platform.disconnect(id)
        case .plug(let preset, let id):
            guard platform.connect(preset: preset, as: id) != nil else {
                throw HeadlessError("plug:\(preset): unknown display preset; known: "
                                    + DisplayCatalog.presets.map(\.name).joined(separator: ", "))
            }
        case .mode(let id, let size): platform.changeMode(of: id, to: size)
        case .pointer(let point): runtime.send(.pointer(point))
        case .ink(let points):
            for input in runtime.controller.strokeInputs(points) { runtime.send(input) }
        case .wait(let seconds):
            clock.advance(by: .nanoseconds(Int64(min(seconds, 1e9) * 1e9)))
            platform.advance(by: seconds)
        }
    }

    private func render(step: Int, label: String, _ controller: PresenterController, _ now: Double,
                        _ platform: SimulatedPlatform, _ mainSize: PixelSize, _ directory: URL?,
                        _ log: (String) -> Void) throws(HeadlessError) -> [Snapshot] {
        let clock = presenterClock(clockStart.addingTimeInterval(now))
        clips?.prepareFrame(at: now)
        let console = try canvas("console", mainSize)
        var out = [try draw(controller.mainList(size: mainSize, at: now, clock: clock, metrics: console),
                            on: console, step: step, label: label, display: "console", directory)]
        for display in controller.state.audienceDisplays {
            guard let surface = platform.surface(for: display.id), surface.isVisible else { continue }
            let size = display.layout.frame.size
            // The main display's snapshots are named `console`: an external display of that name is told apart.
            let name = display.id.rawValue == "console" ? "console-external" : display.id.rawValue
            let c = try canvas(name, size)
            guard let list = controller.externalList(for: display.id, at: now, clock: clock, metrics: c) else { continue }
            out.append(try draw(list, on: c, step: step, label: label, display: name, directory))
        }
        log(String(format: "%03d ", step) + "\(label): " + controller.statusLine(at: now))
        for snapshot in out { if let file = snapshot.file { log("  wrote \(file.path)") } }
        return out
    }

    /// The canvas headless runs draw on unless told otherwise: ExternalDisplaySDL's off-screen canvas (the
    /// same drawing code as its windows; compressed PNGs, images).
    public nonisolated static func defaultCanvas(_ size: PixelSize,
                                                 _ caches: DrawingCaches) throws(PresenterCanvasError) -> any SnapshotCanvas {
        try SDLPresenterCanvas(size: size, caches: caches)
    }

    private func canvas(_ key: String, _ size: PixelSize) throws(HeadlessError) -> any SnapshotCanvas {
        if let c = canvases[key], c.size == size { return c }
        do {
            let c = try makeCanvas(size, caches)
            canvases[key] = c
            return c
        } catch {
            throw HeadlessError(error.description)
        }
    }

    private func draw(_ list: DisplayList, on canvas: any SnapshotCanvas, step: Int, label: String, display: String,
                      _ directory: URL?) throws(HeadlessError) -> Snapshot {
        canvas.draw(list)
        var file: URL?
        if let directory {
            let url = directory.appendingPathComponent(String(format: "%03d-%@-%@.png", step, label, display))
            do { try AtomicFile.write(canvas.pngData(), to: url) } catch {
                throw HeadlessError(error.description)
            }
            file = url
        }
        // Each snapshot keeps its own pixels unless told not to: later steps then draw on a fresh canvas.
        if keepsCanvases { canvases[display] = nil }
        return Snapshot(step: step, label: label, display: display, list: list, canvas: canvas, file: file)
    }

    private func makeDirectory(_ url: URL) throws(HeadlessError) {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw HeadlessError("cannot create the snapshot folder \(url.path): \(error.localizedDescription)")
        }
    }
}
#endif
