#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The presenter on a real desktop: the console in a borderless window on the main display, the audience view
/// in the platform's window on every external display, keys from SDL, and a loop that sleeps until the next
/// key, display event or visible change (one redraw a second for a static slide with a running timer).
///
/// ```swift
/// let platform = SDLVideoPlatform()
/// let live = try LivePresenter(deck: deck, platform: platform, consoleFrame: platform.mainBounds,
///                              output: { $0 })
/// await live.run()
/// ```
@MainActor
public final class LivePresenter<Platform: DisplayPlatform> {
    /// The controller (state, layouts); also driven by the remote control.
    public let controller: PresenterController
    private let coordinator: DisplayCoordinator<Platform>
    private let console: SDLWindowSurface
    private let outputFor: (Platform.Surface) -> (any AudienceOutput)?
    private let startTime: Double
    private var scheduler = RedrawScheduler()
    private var outputIdentities: [DisplayID: ObjectIdentifier] = [:]
    private var flipLog = FlipLog()
    private let onDisplayEvent: () -> Void
    private var pump: (() -> Void)?
    private let wakes: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation
    /// Called after each pass of the loop (the remote control publishes metadata from here).
    public var afterPass: (() -> Void)?
    /// Sees every SDL event before the presenter handles it (e.g. to drop an audience window's stale canvas
    /// when the compositor resized or exposed it).
    public var onSDLEvent: ((SDL_Event) -> Void)?
    /// Extra drawing on top of the console (e.g. a QR code of a served URL), given the console's size; part of
    /// the console's list, so a change redraws it.
    public var consoleOverlay: ((PixelSize) -> [DrawOperation])?
    /// Sees each key press before the presenter's own keys (with whether Ctrl is held); returns true when it
    /// used the key, which then means nothing else.
    public var onKey: ((SDL_Keycode, Bool) -> Bool)?

    /// A presenter on `platform`; the console covers `consoleFrame`; `output` shows lists on a surface; with
    /// `only`, every other external display is handed back to mirroring;
    /// `onDisplayEvent` runs when SDL reports a display change (e.g. to let an SDL-based platform rescan).
    public init(deck: Deck, platform: Platform, configuration: DisplayConfiguration = DisplayConfiguration(),
                consoleFrame: Rect, mainDisplay: String,
                output: @escaping (Platform.Surface) -> (any AudienceOutput)?,
                only: DisplayID? = nil, onDisplayEvent: @escaping () -> Void = {}) throws(PresenterCanvasError) {
        Self.keepLargeBuffersOutOfTheHeap()
        let start = Self.monotonic()
        startTime = start
        controller = PresenterController(deck: deck, startedAt: 0, mainDisplay: mainDisplay,
                                         now: { Self.monotonic() - start })
        coordinator = DisplayCoordinator(platform: platform, configuration: configuration)
        console = try SDLWindowSurface(title: "extdisplay present: console", frame: consoleFrame)
        outputFor = output
        self.onDisplayEvent = onDisplayEvent
        if let only {
            let coordinator = self.coordinator
            controller.accepts = { $0 == only }
            controller.onRejected = { coordinator.send(.mirror($0)) }
        }
        (wakes, wakeContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The platform the presenter runs on.
    public var platform: Platform { coordinator.platform }

    /// The console's SDL window (e.g. to make it fullscreen on a Wayland output before ``run(log:)``).
    public var consoleWindow: OpaquePointer { console.window }

    /// Replaces the way SDL events are drained (default: `SDL_PollEvent` here); a platform that pumps SDL
    /// itself forwards each event to ``handle(_:)``.
    public func setPump(_ pump: @escaping () -> Void) { self.pump = pump }

    /// Wakes the loop now (a key, a display change or a remote command arrived from elsewhere).
    public func wake() { wakeContinuation.yield() }

    /// Applies an action from outside the loop (a remote control) and wakes the loop to draw it.
    public func apply(_ action: PresenterAction) {
        controller.apply(action, at: now)
        wake()
    }

    /// Seconds since the presenter started.
    public var now: Double { Self.monotonic() - startTime }

    /// Runs until Q/Esc or the window is closed; stops the platform (which restores what it changed).
    /// `log` gets one status line at the start and after every change of state.
    public func run(log: @escaping (String) -> Void = { _ in }) async {
        controller.onChange = { [unowned self] _ in
            log(self.controller.statusLine(at: self.now))
            self.wake()
        }
        coordinator.delegate = controller
        coordinator.start()
        console.show()
        SDL_RaiseWindow(console.window)
        SDL_SetWindowInputFocus(console.window)
        log(controller.statusLine(at: now))
        var wakeups = wakes.makeAsyncIterator()
        while !controller.state.wantsQuit {
            passes += 1
            if let pump { pump() } else { pumpEvents() }
            draw()
            afterPass?()
            if controller.state.wantsQuit { break }
            let wall = Date().timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT())
            let wake = RedrawScheduler.nextChange(after: now, state: controller.state, wallClock: wall)
            // Sleep until the next visible change, a wake() (platform events, remote control), or at most
            // 100 ms while SDL events are polled here (nothing else tells this loop about a key press).
            let cap = pump == nil ? 0.1 : 3600
            let nanoseconds = UInt64(max(0, min(cap, wake - now)) * 1e9)
            let timer = Task { [wakeContinuation] in
                // A cancelled timer must not wake the loop: that would spin.
                guard (try? await Task.sleep(nanoseconds: nanoseconds)) != nil else { return }
                wakeContinuation.yield()
            }
            _ = await wakeups.next()
            timer.cancel()
        }
        console.close()
        coordinator.stop()
    }

    /// Passes of the loop so far (each wakeup: input, a display change, a visible change, or a poll for keys).
    public private(set) var passes = 0

    /// Frames drawn so far, per display (`console` and external ids).
    public var draws: [String: Int] { scheduler.draws }

    private func pumpEvents() {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 { handle(event) }
    }

    /// Handles one SDL event: keys, quit, exposure, display changes.
    public func handle(_ event: SDL_Event) {
        onSDLEvent?(event)
        switch event.type {
        case SDL_QUIT.rawValue:
            controller.apply(.key(.quit), at: now)
        case SDL_KEYDOWN.rawValue:
            let ctrl = (UInt32(event.key.keysym.mod) & UInt32(KMOD_CTRL.rawValue)) != 0
            if let onKey, onKey(event.key.keysym.sym, ctrl) { break }
            if let key = Self.key(for: event.key.keysym.sym, ctrl: ctrl) {
                flipLog.key(at: now, sdlTicks: event.key.timestamp)
                controller.apply(.key(key), at: now)
            }
        case SDL_WINDOWEVENT.rawValue:
            let kind = UInt32(event.window.event)
            if kind == SDL_WINDOWEVENT_LEAVE.rawValue { controller.apply(.pointer(nil), at: now) }
            if kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue {
                console.invalidate()
                scheduler = RedrawScheduler(keepingCountsOf: scheduler)
            }
        case SDL_DISPLAYEVENT.rawValue:
            onDisplayEvent()
        case SDL_MOUSEMOTION.rawValue:
            guard event.motion.windowID == SDL_GetWindowID(console.window), let size = console.canvas()?.size else { return }
            controller.apply(.pointer(controller.slidePoint(consoleX: Int(event.motion.x), y: Int(event.motion.y),
                                                            consoleSize: size)), at: now)
        default:
            return
        }
        wake()
    }

    /// Draws what changed: the audience displays first (a flip reaches the room before the console is drawn),
    /// then the console, of which only the changed rectangle is redrawn (a ticking timer: its digits).
    private func draw() {
        let t = now
        let clock = presenterClock(Date(), seconds: false)
        let before = flipLog.isOn ? PageRasterCache.shared.counters : nil
        for display in controller.state.audienceDisplays {
            guard let surface = coordinator.surface(for: display.id), let output = outputFor(surface),
                  let metrics = output.metrics,
                  let list = controller.externalList(for: display.id, at: t, clock: clock, metrics: metrics) else { continue }
            // A new window (the display came back) has never been drawn.
            if outputIdentities.updateValue(ObjectIdentifier(output), forKey: display.id) != ObjectIdentifier(output) {
                scheduler.forget(display.id.rawValue)
            }
            if scheduler.needsDraw(display.id.rawValue, list) { output.present(list) }
        }
        let audienceDone = now
        let middle = before == nil ? nil : PageRasterCache.shared.counters
        if let canvas = console.canvas() {
            var list = controller.mainList(size: canvas.size, at: t, clock: clock, metrics: canvas)
            if let consoleOverlay { list.operations += consoleOverlay(canvas.size) }
            if scheduler.needsDraw("console", list) { console.present(list) }
        }
        let consoleDone = now
        // Idle work last, once the room and the console have their pictures: the next flip's page made ready.
        for display in controller.state.audienceDisplays {
            if let surface = coordinator.surface(for: display.id) { outputFor(surface)?.prepareAhead() }
        }
        if let before, let middle {
            let after = PageRasterCache.shared.counters
            flipLog.drew(at: t, audienceMs: (audienceDone - t) * 1000, page: controller.state.audienceSlideIndex + 1,
                         cache: (middle.hits - before.hits, middle.waits - before.waits, middle.renders - before.renders),
                         consoleWaits: after.waits - middle.waits, consoleMs: (consoleDone - audienceDone) * 1000)
        }
    }

    /// The presenter key for an SDL key code (``PresenterKey`` says what each does); Ctrl-Q quits at once,
    /// Q must come twice, Esc and F5 (what clickers send) never quit.
    static func key(for sym: SDL_Keycode, ctrl: Bool = false) -> PresenterKey? {
        let code = UInt32(bitPattern: sym)
        if code >= SDLK_0.rawValue, code <= SDLK_9.rawValue { return PresenterKey.digits[Int(code - SDLK_0.rawValue)] }
        if code >= SDLK_KP_1.rawValue, code <= SDLK_KP_9.rawValue {
            return PresenterKey.digits[Int(code - SDLK_KP_1.rawValue) + 1]
        }
        switch code {
        case SDLK_RIGHT.rawValue, SDLK_SPACE.rawValue, SDLK_PAGEDOWN.rawValue: return .next
        case SDLK_LEFT.rawValue, SDLK_PAGEUP.rawValue: return .previous
        case SDLK_DOWN.rawValue: return .down
        case SDLK_UP.rawValue: return .up
        case SDLK_HOME.rawValue: return .first
        case SDLK_END.rawValue: return .last
        case SDLK_b.rawValue, SDLK_PERIOD.rawValue: return .blackout
        case SDLK_w.rawValue: return .whiteout
        case SDLK_p.rawValue: return .pauseTimer
        case SDLK_m.rawValue: return .mirror
        case SDLK_a.rawValue: return .audienceOnMain
        case SDLK_TAB.rawValue, SDLK_o.rawValue: return .overview
        case SDLK_RETURN.rawValue, SDLK_KP_ENTER.rawValue: return .confirm
        case SDLK_ESCAPE.rawValue, SDLK_F5.rawValue: return .cancel
        case SDLK_BACKSPACE.rawValue: return .backspace
        case SDLK_f.rawValue: return .freeze
        case SDLK_KP_0.rawValue: return .digit0
        case SDLK_q.rawValue: return ctrl ? .quit : .quitRequest
        default: return nil
        }
    }

    /// Rendered pages are megabytes each and are made on background threads: glibc would keep them in
    /// per-thread heaps that never shrink (RSS grew to 470 MB over a 50-page PDF under a 192 MB cache budget).
    /// A fixed mmap threshold gives every buffer of 256 KB or more its own mapping, returned to the system
    /// when the cache drops it. The presenter calls it itself; a program that renders frames off the main actor
    /// without a ``LivePresenter`` (the browser console) calls it once at start.
    public static func keepLargeBuffersOutOfTheHeap() {
        #if canImport(Glibc)
        // mallopt is declared in <malloc.h>, which Swift's Glibc module does not import.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        if let symbol = dlsym(nil, "mallopt") { _ = unsafeBitCast(symbol, to: MallOpt.self)(mmapThreshold, 256 * 1024) }
        #endif
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
#endif
