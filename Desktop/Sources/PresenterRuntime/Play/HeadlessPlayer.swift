#if canImport(CGStreamer) && canImport(CSDL2)
import DesktopFiles
import DesktopImages
public import DesktopVideo
public import ExternalDisplayKit
import ExtDisplayCore
public import ExternalDisplayMedia
public import ExternalDisplayPresenter
import ExternalDisplaySimulator
public import Foundation
import SDLWindows

/// `extdisplay play FILE --simulate …`: a video played on simulated displays in virtual time, a PNG of every
/// display after each step (`NNN-STEP-DISPLAY.png`, the main display named `console`).
///
/// The decisions come from ``VideoPlayback`` (where the film plays; unplug pauses it and brings it back to the
/// main window at the same position; replug moves it out again, paused); the frame shown from
/// ``VideoFrameScheduler`` at each step's instant, treated as a vsync of a 60 Hz display; the picture from a real
/// GStreamer ``VideoDecoder``. Each step takes one refresh period; `wait:S` lets S seconds pass. The simulated
/// displays go through the engine as `present`'s do (``ExternalDisplayKit/DisplayCoordinator`` on a
/// ``ExternalDisplaySimulator/SimulatedPlatform``): the film plays on the displays the engine attached, in the safe
/// frame of the layout it chose, and the engine's diagnostics are printed on standard error.
///
/// It is the playing mode of the one runtime on a ``ManualClock``, as `present --simulate` is the presenting
/// mode's: every step is an input to ``PresenterRuntime/send(_:)`` (a key, a playback event), decided by the
/// application core (``ExternalDisplayPresenter/ApplicationCore``) exactly as a live key is, and the film's
/// effects come back through ``perform(_:)``; then the clock moves one refresh period and the loop passes.
///
/// ```swift
/// let run = HeadlessPlayer(file: film, steps: try PlayStep.parseList("wait:2,pause,unplug:hdmi-tv-1080p"))
/// let outcome = try await run.run(writingTo: URL(fileURLWithPath: "/tmp/shots")) { print($0) }
/// ```
@MainActor
public final class HeadlessPlayer: PresenterHost {
    /// One display drawn after one step.
    public struct Snapshot: Sendable, Hashable {
        /// Step number (0 = the start).
        public var step: Int
        /// The step's label (`start`, `seek-30`).
        public var label: String
        /// `console` for the main display, else the external display's id.
        public var display: String
        /// Where the PNG was written, if a folder was given.
        public var file: URL?
        /// The presentation time of the video frame drawn on this display, if one was.
        public var frameTime: Double?
    }

    /// What a run did: its snapshots and the problems it reported and got past (a truncated or broken file).
    public struct Outcome: Sendable {
        /// Every snapshot, in order.
        public var snapshots: [Snapshot]
        /// The media problems of the run, in order; empty when the file played cleanly.
        public var problems: [String]
    }

    private let file: URL
    private let displays: [String]
    let steps: [PlayStep]
    private let configuration: VideoPlaybackConfiguration
    /// The refresh rate the frame scheduler assumes for the displays (one step lasts one period).
    public var refreshRate: Double = 60
    /// The longest the decoder may take to answer, in seconds.
    public var decoderTimeout: Double = 10
    /// What the engine is asked for the simulated displays (`--mode`); the film is letterboxed in the safe frame
    /// (the engine lays a TV's picture out in it, overscan left out, as `present` does by default).
    public var displayConfiguration = DisplayConfiguration(overscanCompensation: .none)

    private var canvases: [String: Canvas] = [:]
    /// The simulated displays, through the engine (created by ``run(writingTo:log:)``).
    private var coordinator: DisplayCoordinator<SimulatedPlatform>?
    private var reporter: VideoDisplayReporter?
    /// The external displays plugged in so far, by id (`unplug:ID`), and their catalog preset.
    private var plugged: [(id: String, preset: DisplayCatalog.Preset)] = []
    /// The external displays the engine attached, in the order it attached them.
    private var attached: [DisplayAttachment] { coordinator?.attachments ?? [] }
    /// Virtual time: the runtime's clock.
    let clock = ManualClock()
    /// The runtime the steps drive: its store holds the application core in the playing mode.
    let runtime: PresenterRuntime
    /// The film's playback, as the application core decided it.
    var playback: VideoPlayback { runtime.controller.player?.playback ?? VideoPlayback(configuration: configuration) }
    private var scheduler: VideoFrameScheduler?
    private var decoder: VideoDecoder?
    private var frame: VideoFrame?
    /// The index of the frame on screen (frame n covers n / fps ..< (n + 1) / fps).
    private var frameIndex: Int?
    /// Virtual time now, in seconds.
    var now: Double { runtime.now }
    #if os(Linux)
    /// The MPRIS player, served while the steps include `listen:S`.
    var remotes: RemoteControlHost?
    #endif
    private var problems: [String] = []
    var log: (String) -> Void = { _ in }
    /// An MPRIS `Quit` arrived: the run ends after the current step.
    var quitByRemote = false

    /// A run of `file` on `displays` (catalog presets; the first is the main display when it is a device preset:
    /// `laptop`, `ipad`, `iphone`), playing on the external display `display` chooses.
    public init(file: URL, displays: [String] = ["laptop", "hdmi-tv-1080p"], steps: [PlayStep],
                display: VideoPlaybackConfiguration.DisplayChoice = .automatic) {
        self.file = file
        self.displays = displays
        self.steps = steps
        configuration = VideoPlaybackConfiguration(display: display)
        runtime = PresenterRuntime(controller: PresenterController(playing: configuration,
                                                                   title: file.deletingPathExtension().lastPathComponent),
                                   clock: clock)
    }

    /// Lets `seconds` of virtual time pass.
    func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        clock.advance(by: .nanoseconds(Int64(min(seconds, 1e9) * 1e9)))
    }

    /// Opens the file (a message, not a trap, when it cannot be played), plays the steps and writes the snapshots
    /// into `directory` when given, reporting each step and file through `log`.
    public func run(writingTo directory: URL? = nil,
                    log: @escaping (String) -> Void = { _ in }) async throws(PlayerError) -> Outcome {
        self.log = log
        runtime.onSay = log
        let device = try resolveDisplays()
        defer { coordinator?.stop() }
        if let directory {
            do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                throw PlayerError("cannot create the snapshot folder \(directory.path): \(error.localizedDescription)")
            }
        }
        let opened: VideoDecoder
        do { opened = try VideoDecoder(opening: file, timeout: decoderTimeout) } catch {
            throw PlayerError(error.description)
        }
        decoder = opened
        let info = opened.info
        let fps = AssumedFrameRate.rate(info.framesPerSecond)
        do { scheduler = try VideoFrameScheduler(framesPerSecond: fps, refreshRate: refreshRate) } catch {
            throw PlayerError("the video's frame rate \(fps) cannot be scheduled: \(error)")
        }
        log("\(file.lastPathComponent): \(info.width)×\(info.height), "
            + (info.framesPerSecond.map { String(format: "%.3f fps", $0) } ?? "variable frame rate") + ", "
            + (info.duration.map { String(format: "%.3f s", $0) } ?? "length unknown") + ", decoder "
            + (info.decoder ?? "unknown"))
        if case .named(let name) = configuration.display,
           !plugged.contains(where: { $0.id == name || $0.preset.displayName == name }) {
            log("warning: no external display named \(name) (plugged: "
                + (plugged.isEmpty ? "none" : plugged.map(\.id).joined(separator: ", "))
                + "); the film plays in the main window until one is plugged in")
        }
        let title = file.deletingPathExtension().lastPathComponent
        startRemote(title: title)
        let item = VideoItem(metadata: NowPlayingMetadata(identifier: file.path, title: title, duration: info.duration,
                                                          mediaType: .video))
        runtime.add(self)
        let loop = Task { @MainActor in await runtime.run() }
        await runtime.nextPass()
        apply(takeDisplayEvents() + [.load(item, at: 0, playing: true)])
        var snapshots: [Snapshot] = []
        var failure: PlayerError?
        do {
            snapshots = try show(step: 0, label: "start", device: device, title: title, directory)
            for (index, step) in steps.enumerated() {
                if step == .quit {
                    log("quit after step \(index)")
                    break
                }
                advance(by: 1 / refreshRate)
                try await perform(step)
                if runtime.isRunning {
                    runtime.wake()
                    await runtime.nextPass()
                }
                snapshots += try show(step: index + 1, label: step.label, device: device, title: title, directory)
                if quitByRemote {
                    log("quit (MPRIS) after step \(index + 1)")
                    break
                }
                if runtime.controller.wantsQuit {
                    log("quit (\(step.label)) after step \(index + 1)")
                    break
                }
            }
        } catch {
            failure = error
        }
        if !runtime.controller.wantsQuit { runtime.send(.stop) }
        await loop.value
        decoder = nil
        if let failure { throw failure }
        return Outcome(snapshots: snapshots, problems: problems)
    }

    /// The runtime starts with the run (the steps drive it).
    public func start(in runtime: PresenterRuntime) {}

    /// What the application core decided for the film.
    public func perform(_ effect: PresenterEffect) {
        guard case .playback(let effect) = effect else { return }
        carryOut(effect)
    }

    private func resolveDisplays() throws(PlayerError) -> PixelSize {
        var names = displays
        var device = DisplayCatalog.device(named: "laptop")!
        if let first = names.first, let named = DisplayCatalog.device(named: first) {
            device = named
            names.removeFirst()
        }
        let platform = SimulatedPlatform(device: device)
        let coordinator = DisplayCoordinator(platform: platform, configuration: displayConfiguration)
        let reporter = VideoDisplayReporter()
        coordinator.delegate = reporter
        self.coordinator = coordinator
        self.reporter = reporter
        for name in names { try plug(name) }
        coordinator.start()
        return PixelSize(width: Int(Double(device.points.width) * device.scale),
                         height: Int(Double(device.points.height) * device.scale))
    }

    /// Plugs in a display of the catalog `preset` under a new id (the preset's name, then `-2`, `-3`…).
    private func plug(_ preset: String) throws(PlayerError) {
        var id = preset, n = 2
        while plugged.contains(where: { $0.id == id }) {
            id = "\(preset)-\(n)"
            n += 1
        }
        guard let coordinator, let known = DisplayCatalog.preset(named: preset),
              coordinator.platform.connect(preset: preset, as: DisplayID(id)) != nil else {
            throw PlayerError("unknown display preset '\(preset)'; external displays: "
                                    + DisplayCatalog.presets.map(\.name).joined(separator: ", ")
                                    + (DisplayCatalog.device(named: preset) != nil ? " (a device such as '\(preset)' "
                                       + "can only be the first entry of --simulate)" : ""))
        }
        plugged.append((id, known))
    }

    /// What the engine reported since the last call, as the playback core's events (attached displays by the
    /// catalog's name, so `--display "HDMI TV"` finds them).
    private func takeDisplayEvents() -> [VideoPlaybackEvent] {
        (reporter?.take() ?? []).compactMap { change in
            switch change {
            case .attached(let id):
                let name = plugged.first { $0.id == id.rawValue }?.preset.displayName ?? id.rawValue
                return .displayAttached(VideoDisplay(id: id.rawValue, name: name))
            case .detached(let id, _):
                return .displayDetached(id: id.rawValue)
            case .laidOut:
                // Snapshots are drawn afresh at every step, in the layout the engine holds then.
                return nil
            }
        }
    }

    private func perform(_ step: PlayStep) async throws(PlayerError) {
        switch step {
        case .play: apply([.play])
        case .pause: apply([.pause])
        case .toggle: apply([.togglePlayPause])
        case .seek(let seconds): apply([.seek(to: seconds)])
        case .seekBy(let seconds): apply([.seekBy(seconds)])
        case .wait(let seconds): advance(by: seconds)
        case .listen(let seconds): await listen(seconds)
        case .unplug(let id):
            guard let index = plugged.firstIndex(where: { $0.id == id }) else {
                throw PlayerError("unplug:\(id): no display '\(id)' is plugged in; plugged: "
                                        + plugged.map(\.id).joined(separator: ", "))
            }
            plugged.remove(at: index)
            coordinator?.platform.disconnect(DisplayID(id))
            apply(takeDisplayEvents())
        case .plug(let preset):
            try plug(preset)
            apply(takeDisplayEvents())
        case .external: apply([.moveToExternalDisplay])
        case .main: apply([.moveToMainWindow])
        case .rate(let rate): apply([.setRate(rate)])
        case .volume(let volume): apply([.setVolume(volume)])
        case .quit: break
        case .press(let press): runtime.send(.press(press))
        }
    }

    /// Hands a batch to the application core at the current instant; the film's effects come back through
    /// ``perform(_:)``.
    func apply(_ events: [VideoPlaybackEvent]) {
        guard !events.isEmpty else { return }
        runtime.send(.playback(events))
    }

    /// Carries out what the core decided.
    private func carryOut(_ effect: VideoPlaybackEffect) {
        switch effect {
        case .timeline(let message): scheduler?.follow(message.timeline, discontinuity: message.discontinuity)
        case .close:
            decoder = nil
            frame = nil
            frameIndex = nil
        case .failed(let error): report(error.message)
        default: break
        }
    }

    private func report(_ problem: String) {
        problems.append(problem)
        log("problem: \(problem)")
    }

    /// The frame the scheduler picks for this instant, decoded; the end of the film and decoder failures go to
    /// the core as events.
    private func advanceFrame() {
        if playback.status == .playing, let duration = playback.timeline.duration, playback.position(at: now) >= duration {
            apply([.endOfMedia])
        }
        guard let decoder, var scheduler else { return }
        let decision = scheduler.frame(forVsyncAt: now)
        self.scheduler = scheduler
        guard case .present(let presentation) = decision else { return }
        // A quarter of a frame into the frame: its first instant may round to the frame before.
        do {
            frame = try decoder.frame(at: presentation.mediaTime + 0.25 / scheduler.framesPerSecond)
            frameIndex = presentation.index
        } catch {
            if case .endOfStream = error {
                // The file ends before its stated length: said once per place, the film stops where it ends.
                if problems.last != error.description { report(error.description) }
                if playback.status == .playing { apply([.endOfMedia]) }
            } else {
                apply([.mediaFailed(error.description)])
            }
        }
    }

    private func show(step: Int, label: String, device: PixelSize, title: String,
                      _ directory: URL?) throws(PlayerError) -> [Snapshot] {
        advanceFrame()
        let name = String(format: "%03d-%@", step, label)
        var out: [Snapshot] = []
        let console = try canvas("console", device)
        let shownHere = playback.placement == .mainWindow ? frame : nil
        if let fontProblem = PlayerConsole(title: title, playback: playback, now: now, frame: shownHere,
                                           problem: problems.last).draw(on: console), step == 0 {
            log("warning: text not drawn: \(fontProblem)")
        }
        out.append(try write(console, "\(name)-console", directory, Snapshot(step: step, label: label, display: "console",
                                                                            frameTime: shownHere?.time)))
        for attachment in attached {
            let id = attachment.display.id.rawValue
            let canvas = try canvas(id, attachment.layout.frame.size)
            // Drawn as live `play` draws its film window.
            let shownFrame = playback.placement?.display?.id == id ? frame : nil
            FilmPicture.draw(shownFrame, on: canvas, layout: attachment.layout)
            let shown = shownFrame?.time
            out.append(try write(canvas, "\(name)-\(id)", directory,
                                 Snapshot(step: step, label: label, display: id, frameTime: shown)))
        }
        let place = playback.placement?.display?.id ?? (playback.item == nil ? "nowhere" : "the main window")
        log("\(name): \(playback.status.rawValue) at \(String(format: "%.3f", playback.position(at: now))) s on \(place)"
            + (frameIndex.map { ", frame \($0)" } ?? ""))
        for snapshot in out { if let file = snapshot.file { log("  wrote \(file.path)") } }
        return out
    }

    private func canvas(_ key: String, _ size: PixelSize) throws(PlayerError) -> Canvas {
        if let canvas = canvases[key], canvas.size == size { return canvas }
        do {
            let canvas = try Canvas(width: size.width, height: size.height)
            canvases[key] = canvas
            return canvas
        } catch {
            throw PlayerError("cannot draw a \(size.width)×\(size.height) snapshot: \(error.description)")
        }
    }

    private func write(_ canvas: Canvas, _ name: String, _ directory: URL?,
                       _ snapshot: Snapshot) throws(PlayerError) -> Snapshot {
        guard let directory else { return snapshot }
        var written = snapshot
        let url = directory.appendingPathComponent(name + ".png")
        do { try AtomicFile.write(canvas.snapshotPNG(), to: url) } catch {
            throw PlayerError(error.description)
        }
        written.file = url
        return written
    }
}
#endif
