#if canImport(CGStreamer) && canImport(CSDL2)
import DesktopFiles
internal import CSDL2
import DesktopImages
public import DesktopVideo
public import ExternalDisplayKit
import ExternalDisplayWayland
import ExtDisplayCore
public import ExternalDisplayMedia
public import ExternalDisplayPresenter
public import Foundation
import Dispatch
import SDLWindows
import X11Outputs

/// `extdisplay play FILE` on an X server or a Wayland compositor: the film in a window on an external display, the
/// controls in a window on the main output.
///
/// The external displays go through the engine as `present`'s do: a ``ExternalDisplayKit/DisplayCoordinator`` over
/// RandR (``X11Outputs/DesktopDisplayPlatform``) or the Wayland output API
/// (``ExternalDisplayWayland/WaylandDisplayPlatform``) decides which displays are connected, gives them windows in the
/// mode `--mode` asks (none switched without it), lays them out, follows hotplug and prints its diagnostics. The film
/// plays on the display ``VideoPlayback`` places it on; every other external display is handed back to the system
/// (the engine's `mirror`) and taken again (`extend`) when the film goes there. The controls window goes where the
/// console of `present` would (``ExtDisplayCore/ConsoleOutputRule``, never on the output `--display` names) and its
/// keys mean what the playing mode's ``ExtDisplayCore/PlayerKeyTable`` says (Space play/pause, Left/Right 5 s, E and
/// M, Esc never quits, Q twice or Ctrl-Q quits), decided by ``ExtDisplayCore/PlayerCore``.
///
/// It is the playing mode of the one runtime: a ``PresenterRuntime`` over a store in the playing mode
/// (``ExternalDisplayPresenter/PresenterController/init(playing:title:mainDisplay:)``), with this player as its
/// host beside the ``SignalHost``. Keys, remotes and displays go to ``PresenterRuntime/send(_:)`` as `present`'s
/// do; what they mean is the application core's (``ExternalDisplayPresenter/ApplicationCore``), and the film's
/// effects come back through ``perform(_:)``.
///
/// ``VideoFrameScheduler`` picks the frame for each refresh of the display the film plays on; the ``VideoDecoder``
/// streams ahead while playing and prerolls one frame while paused, and the loop never waits for it (a stalled
/// decoder leaves the last frame on screen and the keys working). Without vsync here, the runtime's passes follow a
/// ``RefreshGrid`` of the output's refresh rate on the runtime's clock: this host's deadline is the next refresh
/// instant (every 2 ms while the frame due is not decoded yet, so the first frame after a seek goes out as soon as
/// it is); keys wake the loop through the controls window's display connection, remotes through their inbox, the
/// engine's display changes through its delegate. Frames come from the decoder in the X visual's byte order (BGRx)
/// and are copied straight into the window's own surface, scaled only when the letterbox is not the frame's size.
@MainActor
public final class LivePlayer: PresenterHost {
    private let file: URL
    /// The runtime the player runs on: its store holds the application core in the playing mode.
    private let runtime: PresenterRuntime
    private let configuration: VideoPlaybackConfiguration
    /// The runtime's clock, for what follows the film from elsewhere (a browser server's timeline).
    public nonisolated var timeSource: @Sendable () -> Double { clock.now }
    /// The film's playback, as the application core decided it.
    private var playback: VideoPlayback {
        runtime.controller.player?.playback ?? VideoPlayback(configuration: configuration)
    }
    private var scheduler: VideoFrameScheduler?
    private var decoder: VideoDecoder?
    private let server: PlayerDisplayServer
    /// What the engine is asked for the external displays: the mode policy (`--mode`; none switched without it)
    /// and no overscan compensation (the film is letterboxed in the safe frame instead).
    private let displayConfiguration: DisplayConfiguration
    /// The external displays, through the engine.
    private var displays: (any VideoDisplays)?
    private let reporter = VideoDisplayReporter()
    /// Drains SDL's event queue into ``handle(_:)`` (on X11 through the platform, which also redraws its exposed
    /// windows).
    private var drainEvents: () -> Void = {}
    /// The displays the film's core knows (connected, with a window or handed back), by id.
    private var known: Set<DisplayID> = []
    private var console: DesktopSurface?
    /// The window of the display the film plays on, and that display.
    private var audience: DesktopSurface?
    private var audienceDisplay: DisplayID?
    private var frame: VideoFrame?
    private var problems: [String] = []
    private var lastConsoleDraw = 0.0
    /// Frames the scheduler asked for that the decoder had not delivered yet (an older one was shown).
    private var lateFrames = 0
    /// The runtime's clock, as the media code reads it (MPRIS positions, the refresh grid).
    private let clock: RuntimeMediaClock
    private var grid: RefreshGrid?
    private var served = -Double.infinity
    private var connection: (any DispatchSourceRead)?
    /// While the sound plays, the picture follows it (the pipeline's clock is the sound server's).
    private var soundClock = SoundClockFollower()
    private var hasSound = false
    private let log: (String) -> Void
    /// Called after a new frame went to the external display's window, with its media time and the host-clock
    /// instant the window was presented: how late this display shows frames (``PresentationLatency``).
    public var onFramePresented: ((_ mediaTime: Double, _ hostTime: Double) -> Void)?
    /// The film's remotes, a host of the runtime beside this one: MPRIS (`playerctl -p extdisplay_play`) when
    /// there is a session bus, and the browser remote of `--serve` (its ``RemoteControlHost/requests``).
    public let remotes: RemoteControlHost
    /// The media time of a frame drawn into the audience window but not presented yet.
    private var unpresented: Double?
    /// The media time (decoder's `upTo`) of the frame due at the last refresh that was not decoded yet.
    private var awaitedFrame: Double?
    /// Where the last full draw of the audience window put the picture (its letterbox bars are drawn).
    private var audienceBox: Rect?

    /// What live `play` asks of the engine without `--mode`: every display keeps the mode it runs, and the film is
    /// letterboxed in the safe frame (no overscan compensation).
    public static let defaultDisplayConfiguration = DisplayConfiguration(modeSelection: PresenterModeRequest.keep.selection,
                                                                        overscanCompensation: .none)

    /// A player of `file` on the external output `display` chooses, on `server`'s outputs, the engine configured by
    /// `displays`, reporting through `log`.
    public init(file: URL, display: VideoPlaybackConfiguration.DisplayChoice, server: PlayerDisplayServer = .x11,
                displays: DisplayConfiguration = LivePlayer.defaultDisplayConfiguration,
                log: @escaping (String) -> Void) {
        self.file = file
        self.server = server
        displayConfiguration = displays
        configuration = VideoPlaybackConfiguration(display: display)
        let controller = PresenterController(playing: configuration,
                                             title: file.deletingPathExtension().lastPathComponent)
        runtime = PresenterRuntime(controller: controller, clock: ContinuousClock())
        clock = RuntimeMediaClock(runtime.timeSource)
        self.log = log
        remotes = .playing(title: file.deletingPathExtension().lastPathComponent, configuration: configuration,
                           clock: clock, log: log)
        runtime.onSay = log
    }

    /// Adds a host to the runtime the film plays on (browser pages, ``BrowserVideoHost``); before ``run()``.
    public func add(_ host: any PresenterHost) { runtime.add(host) }

    /// Plays until Q twice, Ctrl-Q, the window's close or a signal; returns the media problems met on the way.
    /// Throws when the file cannot be opened or the display server cannot be used.
    public func run() async throws(PlayerError) -> [String] {
        SignalHost.captureEarly()
        try open()
        runtime.add(self)
        runtime.add(remotes)
        runtime.add(SignalHost())
        await runtime.run()
        return problems
    }

    /// Opens the outputs, the decoder, the controls window and the MPRIS remote.
    private func open() throws(PlayerError) {
        var named: String?
        if case .named(let name) = playback.configuration.display { named = name }
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        SDL_SetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN, "1")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
        let outputs = try openDisplays(audience: named)
        let opened: VideoDecoder
        let soundProblem = VideoDecoder.soundServerCheck()
        if let soundProblem {
            StandardStreams.errorLine(PrintableText.line("extdisplay play: \(soundProblem): playing without sound"))
        }
        do { opened = try VideoDecoder(opening: file, playsSound: soundProblem == nil, layout: .bgrx) } catch {
            throw PlayerError(error.description)
        }
        decoder = opened
        hasSound = opened.playsSound
        if soundProblem == nil { log(hasSound ? "sound: through the sound server (pulsesink)" : "sound: the file has none") }
        let fps = AssumedFrameRate.rate(opened.info.framesPerSecond)
        // The display the film goes to first (the one named, else the leftmost external one) sets the grid.
        let externals = outputs.externals.sorted { $0.left < $1.left }
        let first = externals.first { $0.name == named } ?? externals.first
        let refresh = RefreshRule.usableRate(first?.mode.refreshRate ?? outputs.main?.mode.refreshRate ?? 0)
        do { scheduler = try VideoFrameScheduler(framesPerSecond: fps, refreshRate: refresh) } catch {
            throw PlayerError("the video's frame rate \(fps) cannot be scheduled: \(error)")
        }
        let title = file.deletingPathExtension().lastPathComponent
        log("\(file.lastPathComponent): \(opened.info.width)×\(opened.info.height), \(fps) fps, decoder "
            + "\(opened.info.decoder ?? "unknown") (\(opened.info.decoderIsHardware ? "hardware" : "software")), "
            + "presented on a \(refresh) Hz refresh grid; outputs: main \(outputs.main?.name ?? "none"), external "
            + (externals.map(\.name).joined(separator: ", ").nilIfEmpty ?? "none"))
        if let named, !externals.contains(where: { $0.name == named }) {
            log("warning: no external output named \(named); the film plays in the main window until it is connected")
        }
        do {
            // On the window's own surface (X11's shared-memory image), as the film's windows: SDL then never backs
            // window surfaces with OpenGL textures (Mesa's software GL without a GPU), which it decides at the first.
            let window = try DesktopSurface(display: DisplayID("console"), name: "extdisplay play",
                                            frame: outputs.main?.bounds ?? ConsoleOutputRule.fallbackFrame,
                                            role: .console, title: "extdisplay play: \(title)", borderless: true,
                                            drawing: .windowSurface)
            window.onDraw = { [weak self] canvas in self?.drawConsole(on: canvas, title: title) }
            do { try outputs.placeConsole(window) } catch { log("warning: controls window: \(error.description)") }
            window.show()
            console = window
        } catch {
            throw PlayerError("cannot open the controls window: \(error.description)")
        }
        remotes.serveMPRIS()
        grid = RefreshGrid(refreshRate: refresh, origin: clock.now())
        self.title = title
        duration = opened.info.duration
    }

    /// An output as `play` reads it before the engine starts: its name, where it is, its mode.
    private struct OutputSummary {
        var name: String
        var bounds: Rect
        var mode: DisplayMode
        var left: Int { bounds.x }
    }

    /// The outputs read at start: the main one (the controls' output) and the external ones, and how the controls
    /// window is put on the main one.
    private struct OutputsAtStart {
        var main: OutputSummary?
        var externals: [OutputSummary]
        var placeConsole: (DesktopSurface) throws(PlayerError) -> Void
    }

    /// Chooses SDL's driver, opens the display server's platform under a coordinator (not started yet) and reads
    /// the outputs; throws with what to do when the server cannot be reached.
    private func openDisplays(audience named: String?) throws(PlayerError) -> OutputsAtStart {
        let configuration = displayConfiguration
        switch server {
        case .x11:
            SDLVideo.selectDriver(for: .x11)
            let platform: DesktopDisplayPlatform
            do { platform = try DesktopDisplayPlatform() } catch {
                throw PlayerError("cannot read the X server's outputs: \(error.description); use --simulate to play headless")
            }
            // The film's frames are copied straight into the X server's shared-memory image.
            platform.surfaceDrawing = .windowSurface
            platform.onSDLEvent = { [weak self] event in self?.handle(event) }
            drainEvents = { [weak platform] in platform?.pumpSDLEvents() }
            displays = CoordinatedVideoDisplays(platform: platform, configuration: configuration, surface: { $0 },
                                                left: { platform, id in platform.externals[id]?.bounds.x })
            let outputs = platform.session.outputs()
            let main = Self.consoleOutput(among: outputs, audience: named)
            return OutputsAtStart(
                main: main.map { OutputSummary(name: $0.outputName, bounds: $0.bounds, mode: $0.display.currentMode) },
                externals: outputs.filter { $0.id != main?.id && !$0.isPrimary }
                    .map { OutputSummary(name: $0.outputName, bounds: $0.bounds, mode: $0.display.currentMode) },
                placeConsole: { window in if let main { window.place(main.bounds) } })
        case .wayland:
            SDLVideo.selectDriver(for: .wayland)
            let source: any WaylandOutputSource
            do { source = try WaylandSession.open() } catch {
                let socket = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? ""
                throw PlayerError("cannot read the outputs of the Wayland compositor \(socket): \(error.description); "
                                  + "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR, or use --backend x11 or --simulate")
            }
            let outputs = source.presentOutputs()
            let main = WaylandPresentOutput.consoleOutput(of: outputs, audience: named)
            let platform = WaylandDisplayPlatform<VideoWindow>(source: source, console: main?.name) { title, frame in
                VideoWindow(try DesktopSurface(display: DisplayID(title), name: title, frame: frame, title: title,
                                               drawing: .windowSurface))
            }
            platform.windowTitle = { "ExternalDisplayKit: \($0.rawValue)" }
            let log = self.log
            platform.onDiagnostic = { log("warning: \($0)") }
            drainEvents = { [weak self] in SDLEventQueue.drain { event in self?.handle(event) } }
            displays = CoordinatedVideoDisplays(platform: platform, configuration: configuration, surface: { $0.surface },
                                                left: { platform, id in platform.externals[id]?.logical.x })
            return OutputsAtStart(
                main: main.map { OutputSummary(name: $0.name, bounds: $0.logical, mode: $0.display.currentMode) },
                externals: outputs.filter { $0.name != main?.name }
                    .map { OutputSummary(name: $0.name, bounds: $0.logical, mode: $0.display.currentMode) },
                placeConsole: { window throws(PlayerError) in
                    guard let main else { return }
                    do { try WaylandFullscreen.place(window.window, on: main) } catch { throw PlayerError("\(error)") }
                })
        }
    }

    private var title = ""
    private var duration: Double?

    /// Loads the film, follows the outputs and wakes the loop on keys and remotes.
    public func start(in runtime: PresenterRuntime) {
        let item = VideoItem(metadata: NowPlayingMetadata(identifier: file.path, title: title,
                                                          duration: duration, mediaType: .video))
        let wake = runtime.waker
        reporter.onChange = wake
        displays?.start(reporting: reporter)
        apply(displayEvents() + [.load(item, at: 0, playing: true)])
        followPlacement()
        if let window = console?.window { connection = SDLConnectionWatch.start(for: window) { [weak self] in self?.pump() } }
    }

    /// Keys and the window's close from the controls window, and what the engine said of the displays.
    public func pump() {
        drainEvents()
        let changed = displayEvents()
        if !changed.isEmpty { apply(changed) }
        followPlacement()
    }

    /// The frame for the refresh due (or the one awaited since the last refresh, as soon as it is decoded).
    public func drawAudience(at now: Double, clock: String) {
        guard let grid else { return }
        if let instant = grid.instant(servedAt: now), instant > served {
            served = instant
            pass(forRefreshAt: instant)
        } else if awaitedFrame != nil {
            catchUp()
        }
    }

    /// The next refresh instant (2 ms on while the frame due is not decoded yet).
    public func nextDeadline(after now: Double) -> Double? {
        grid?.wake(afterServing: served, awaitingFrame: awaitedFrame != nil, now: now)
    }

    /// What the application core decided for the film.
    public func perform(_ effect: PresenterEffect) {
        switch effect {
        case .playback(let effect): carryOut(effect, at: runtime.now)
        case .stateChanged: console?.setNeedsDisplay()
        default: break
        }
    }

    /// The film is over: counters said, windows closed, the remote's name released.
    public func stop() {
        connection?.cancel()
        connection = nil
        if let counters = scheduler?.counters {
            log("frames: \(counters.presented) presented, \(counters.dropped) dropped, \(counters.held) held, "
                + "\(lateFrames) shown late (not decoded in time)"
                + (hasSound ? "; picture moved to the sound \(soundClock.corrections) times" : "")
                + (soundClock.restarts > 0 ? "; sound restarted after a stall \(soundClock.restarts) times" : ""))
        }
        audience = nil
        displays?.stop()
        displays = nil
        console?.destroy()
        decoder = nil
    }

    /// The controls window's output: the console's, by the rule `present` uses (never the output `--display`
    /// names; the primary output, else the one at the origin, else the top-left-most).
    static func consoleOutput(among outputs: [DesktopOutput], audience: String?) -> DesktopOutput? {
        let candidates = outputs.map { ConsoleOutputRule.Candidate(name: $0.outputName, x: $0.bounds.x, y: $0.bounds.y,
                                                                   isMain: $0.isPrimary) }
        guard let chosen = ConsoleOutputRule.choose(among: candidates, audience: audience) else { return nil }
        return outputs.first { $0.outputName == chosen.name }
    }

    /// The engine's display changes since the last pass, as the film's events: displays that connected (the
    /// leftmost first) and went, whether the film's core knew them with a window or handed back.
    private func displayEvents() -> [VideoPlaybackEvent] {
        guard let displays else { return [] }
        for change in reporter.take() {
            // A new layout (the display's mode changed): the letterbox is drawn again.
            if case .laidOut(let id) = change, id == audienceDisplay {
                audienceBox = nil
                audience?.setNeedsDisplay()
            }
        }
        let engine = displays.engine
        var events: [VideoPlaybackEvent] = []
        for id in known.sorted() where engine.displays[id] == nil {
            known.remove(id)
            log("output: disconnect \(id)")
            events.append(.displayDetached(id: id.rawValue))
        }
        let arrived = engine.connectionOrder.filter { !known.contains($0) }
            .sorted { (displays.left(of: $0) ?? .max, $0) < (displays.left(of: $1) ?? .max, $1) }
        for id in arrived {
            guard let display = engine.displays[id] else { continue }
            known.insert(id)
            log("output: connect \(id) \(display.currentMode)")
            events.append(.displayAttached(VideoDisplay(id: id.rawValue, name: id.rawValue)))
        }
        return events
    }

    /// Only the display the film plays on keeps a window: every other one is handed back to the system, and the
    /// film's display taken back when it was. Its window is the audience window from then on.
    private func followPlacement() {
        guard let displays, playback.item != nil else { return }
        var target: DisplayID?
        if case .externalDisplay(let display) = playback.placement { target = DisplayID(display.id) }
        for attachment in displays.engine.attachments where attachment.display.id != target {
            displays.send(.mirror(attachment.display.id))
        }
        if let target, displays.engine.mirrorChoices.contains(target), displays.engine.displays[target] != nil {
            displays.send(.extend(target))
        }
        let window = target.flatMap { displays.engine.windows[$0] != nil ? displays.window(for: $0) : nil }
        guard window !== audience else { return }
        audience = window
        audienceDisplay = window == nil ? nil : target
        audienceBox = nil
        window?.onDraw = { [weak self] canvas in self?.drawAudience(on: canvas) }
        window?.setNeedsDisplay()
    }

    /// One SDL event from the controls window or a film window.
    private func handle(_ event: SDL_Event) {
        switch event.type {
        case SDL_QUIT.rawValue: runtime.send(.stop)
        case SDL_KEYDOWN.rawValue:
            if let press = KeyPress(sdlKeyCode: event.key.keysym.sym, modifiers: event.key.keysym.mod) {
                runtime.send(.press(press))
            }
        case SDL_WINDOWEVENT.rawValue:
            console?.setNeedsDisplay()
            audience?.setNeedsDisplay()
            runtime.wake()
        default: break
        }
    }

    /// Hands a batch of the film's events to the application core now; its effects come back through ``perform(_:)``.
    private func apply(_ events: [VideoPlaybackEvent]) {
        runtime.send(.playback(events))
    }

    /// Carries out one of the core's effects (decided at `now`).
    private func carryOut(_ effect: VideoPlaybackEffect, at now: Double) {
        switch effect {
        case .place: followPlacement()
        case .indicate(let indicator): log(indicator.message ?? "playing in the main window")
        case .timeline(let message):
            scheduler?.follow(soundClock.follow(message.timeline), discontinuity: message.discontinuity)
            if message.timeline.rate > 0 {
                do { try decoder?.startStreaming(from: message.timeline.position(at: now), rate: message.timeline.rate) } catch {
                    decoderFailed(error)
                }
            } else {
                // Paused: the pipeline stops now, whether or not a new still frame is asked for (the one shown may
                // already be the paused position's), so the sound stops with the picture.
                do { try decoder?.pauseStreaming() } catch { decoderFailed(error) }
            }
        case .close:
            decoder = nil
            frame = nil
        case .failed(let error): report(error.message)
        case .volume(let level): decoder?.setVolume(level)
        default: break
        }
        console?.setNeedsDisplay()
    }

    private func report(_ problem: String) {
        problems.append(problem)
        log("problem: \(problem)")
    }

    /// One pass: the end of the film, the frame for the refresh at `instant`, the windows that changed.
    private func pass(forRefreshAt instant: Double) {
        let now = clock.now()
        awaitedFrame = nil
        if playback.status == .playing, let duration = playback.timeline.duration, playback.position(at: now) >= duration {
            apply([.endOfMedia])
        }
        if let decoder, var scheduler {
            if hasSound, playback.status == .playing, let heard = decoder.soundPosition() {
                switch soundClock.decide(soundPosition: heard, at: now) {
                case .keep: break
                case .move(let moved): scheduler.follow(moved, discontinuity: false)
                case .restartSound(let position):
                    // The sound server stalled and no longer plays what it says it plays (pipewire-pulse after a
                    // stop of 50 ms or more): a flushing seek where the picture stands puts it back in step; the
                    // picture keeps its timeline and waits for the sound to be heard again.
                    log("sound: the sound server stalled; sound restarted at \(String(format: "%.2f", position)) s")
                    do { try decoder.startStreaming(from: position, rate: playback.timeline.rate) } catch {
                        decoderFailed(error)
                    }
                }
            }
            let decision = scheduler.frame(forVsyncAt: instant)
            self.scheduler = scheduler
            if case .present(let presentation) = decision {
                let time = presentation.mediaTime + 0.25 / scheduler.framesPerSecond
                do {
                    // Playing: the streamed frame due now. Paused: ask for the still frame and go on; it is taken
                    // on a later pass, so a slow or stalled decoder never stops the controls.
                    if playback.status == .playing {
                        let next = try decoder.streamFrame(upTo: time)
                        if (next ?? frame).map({ $0.time < presentation.mediaTime - 0.5 / scheduler.framesPerSecond }) ?? true {
                            lateFrames += 1
                            if next == nil { awaitedFrame = time }
                        }
                        show(next)
                    } else {
                        try decoder.requestFrame(at: time)
                    }
                } catch {
                    decoderFailed(error)
                }
            }
            do { show(try decoder.prerolledFrame()) } catch { decoderFailed(error) }
        }
        if now - lastConsoleDraw >= 0.1 {
            lastConsoleDraw = now
            console?.setNeedsDisplay()
        }
        finishPresenting()
        console?.displayIfNeeded()
    }

    /// Between refreshes, while the frame due at the last one is not decoded yet: shows it as soon as it is (the
    /// first frame after a seek or a start), not a refresh later.
    private func catchUp() {
        guard let time = awaitedFrame, let decoder, playback.status == .playing else {
            awaitedFrame = nil
            return
        }
        do {
            guard let next = try decoder.streamFrame(upTo: time) else { return }
            awaitedFrame = nil
            show(next)
        } catch {
            awaitedFrame = nil
            decoderFailed(error)
        }
        finishPresenting()
        if playback.placement == .mainWindow { console?.displayIfNeeded() }
    }

    /// Draws what the audience window still needs and reports the frame it presented.
    private func finishPresenting() {
        audience?.displayIfNeeded()
        if let time = unpresented, audience != nil {
            unpresented = nil
            onFramePresented?(time, clock.now())
        }
    }

    private func show(_ next: VideoFrame?) {
        guard let next else { return }
        frame = next
        unpresented = next.time
        // The letterbox bars are already on screen: only the picture's rectangle, copied straight in.
        if let audience, let box = audienceBox, audience.canPresentChangedRectangles, videoBox(of: next, on: audience) == box {
            audience.display(changedRects: [box]) { canvas, _ in
                canvas.drawOpaque(next.pixels, width: next.width, height: next.height, order: next.layout.canvasOrder, in: box)
            }
        } else {
            audience?.setNeedsDisplay()
        }
        if playback.placement == .mainWindow { console?.setNeedsDisplay() }
    }

    private func decoderFailed(_ error: VideoDecodingError) {
        if case .soundLost = error {
            carryOnWithoutSound(error)
        } else if case .endOfStream = error {
            if playback.status == .playing { apply([.endOfMedia]) }
        } else {
            apply([.mediaFailed(error.description)])
        }
    }

    /// The sound server went away mid-film (the pipeline stops with it): said once on standard error, the file
    /// reopened without sound where the film stands, the picture back on the core's timeline.
    private func carryOnWithoutSound(_ error: VideoDecodingError) {
        StandardStreams.errorLine(PrintableText.line("extdisplay play: \(error.description)"))
        hasSound = false
        decoder = nil
        do {
            let reopened = try VideoDecoder(opening: file, playsSound: false, layout: .bgrx)
            decoder = reopened
            let now = clock.now()
            scheduler?.follow(soundClock.follow(playback.timeline), discontinuity: true)
            if playback.status == .playing {
                try reopened.startStreaming(from: playback.position(at: now), rate: playback.timeline.rate)
            }
        } catch {
            apply([.mediaFailed(error.description)])
        }
    }

    private func drawAudience(on canvas: Canvas) {
        audienceBox = nil
        guard let layout = audienceLayout else {
            canvas.clear(.black)
            return
        }
        audienceBox = FilmPicture.draw(frame, on: canvas, layout: layout)
    }

    /// The layout the engine gave the film's display.
    private var audienceLayout: DisplayLayout? {
        audienceDisplay.flatMap { displays?.engine.windows[$0]?.attachment.layout }
    }

    /// Where `frame` goes in the audience window: letterboxed in its display's safe frame.
    private func videoBox(of frame: VideoFrame, on audience: DesktopSurface) -> Rect? {
        audienceLayout.map { FilmPicture.box(for: frame, in: $0) }
    }

    private func drawConsole(on canvas: Canvas, title: String) {
        _ = PlayerConsole(title: title, playback: playback, now: clock.now(),
                          frame: playback.placement == .mainWindow ? frame : nil, problem: problems.last).draw(on: canvas)
    }
}

private extension String {
    /// `nil` for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
#endif
