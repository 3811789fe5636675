public import ExternalDisplayKit
public import ExternalDisplayPresenter
public import Foundation

/// The one presenter loop, for every host: X11 and Wayland desktops, browsers served beside them or with the
/// console in the terminal, and headless snapshots (the same loop on a ``ManualClock``).
///
/// Inputs from any source go to ``send(_:)``: the ``ExternalDisplayPresenter/PresenterCore`` handles them at
/// once and the runtime carries out the effects, then wakes the loop. Each pass draws what changed — the
/// audience displays first, then the console — publishes to remotes and pages, prepares the next flip while idle,
/// and sleeps on the injected clock until the next input or the next moment the picture changes by itself (the
/// timer's next second, the wall clock's next minute, a host's deadline). Nothing polls.
///
/// ```swift
/// let runtime = PresenterRuntime(controller: PresenterController(deck: deck, startedAt: 0),
///                                clock: ContinuousClock())
/// runtime.add(console)      // an SDL console window, the terminal, snapshots
/// runtime.add(projectors)   // a CableAudienceHost on the desktop platform
/// await runtime.run()       // until Q Q, Ctrl-Q, or a stop input
/// ```
@MainActor
public final class PresenterRuntime {
    /// The store: deck, core, layouts.
    public let controller: PresenterController
    /// What every canvas of the run draws from (pages, images, clip frames): made with the runtime, passed to
    /// each host that draws.
    public let caches: DrawingCaches
    /// The hosts, in the order they were added (drawn in that order; stopped in reverse).
    public private(set) var hosts: [any PresenterHost] = []
    /// Gets the status line at the start and after every change of state.
    public var onStatus: (String) -> Void = { _ in }
    /// Gets lines the core wants the speaker to read (hints) and hosts' notices.
    public var onSay: (String) -> Void = { _ in }
    /// Called with the slide index after every change of state (hosts that read the position off the loop).
    public var onSlideChange: [(Int) -> Void] = []
    /// Passes of the loop so far.
    public private(set) var passes = 0
    /// Whether the loop is running.
    public private(set) var isRunning = false

    private nonisolated let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    /// On the live clock (`ContinuousClock`), the loop's sleep is one timer on the main queue, set again each
    /// pass: its expiry wakes the dispatch manager and the main queue, and nothing else — no task made and
    /// cancelled a pass, no hop through the concurrency pool's threads (4 thread wakeups a tick on Linux
    /// before). Nil on any other clock (a ``ManualClock``), whose `sleep` is used.
    private var liveTimer: (any DispatchSourceTimer)?
    private let usesLiveTimer: Bool
    private let wallClock: () -> Date
    private let wakes: AsyncStream<Void>
    private nonisolated let wakeContinuation: AsyncStream<Void>.Continuation
    private var passWaiters: [CheckedContinuation<Void, Never>] = []
    private var flipLog = FlipTimingLog()
    private var statusChanged = false

    /// A runtime over `controller` whose time comes from `clock` (`ContinuousClock()` live, a ``ManualClock``
    /// headless and in tests); `caches` are what its canvases draw from; `wallClock` labels the console's clock.
    public init<C: Clock>(controller: PresenterController, clock: C, caches: DrawingCaches = DrawingCaches(),
                          wallClock: @escaping () -> Date = Date.init) where C.Duration == Duration {
        self.controller = controller
        self.caches = caches
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleeper = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
        self.wallClock = wallClock
        (wakes, wakeContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        usesLiveTimer = C.self == ContinuousClock.self
    }

    /// Seconds since the runtime was made, on its clock.
    public var now: Double {
        let d = elapsed().components
        return Double(d.seconds) + Double(d.attoseconds) / 1e18
    }

    /// ``now`` as a function any thread may call (a decoder's thread placing frames on the runtime's clock).
    public nonisolated var timeSource: @Sendable () -> Double {
        let elapsed = self.elapsed
        return {
            let d = elapsed().components
            return Double(d.seconds) + Double(d.attoseconds) / 1e18
        }
    }

    /// The wall-clock time now (the console's clock), on the runtime's wall clock.
    public var wallTime: Date { wallClock() }

    /// Adds a host (before ``run()``).
    public func add(_ host: any PresenterHost) { hosts.append(host) }

    /// Handles an input now, carries out its effects and wakes the loop to draw the result.
    public func send(_ input: PresenterInput) {
        if case .press = input { flipLog.key(at: now) }
        perform(controller.handle(input, at: now))
        wake()
    }

    /// Wakes the loop for a pass (something changed that only the next pass shows).
    public func wake() { wakeContinuation.yield() }

    /// ``wake()`` as a function any thread may call (a remote's request left on its bus thread).
    public nonisolated var waker: @Sendable () -> Void {
        let continuation = wakeContinuation
        return { continuation.yield() }
    }

    /// Suspends until the loop has completed a pass that began after this call (tests and headless steps).
    public func nextPass() async {
        await withCheckedContinuation { passWaiters.append($0) }
    }

    /// Every host draws everything again at the next pass (a page shown as a placeholder is ready), and the loop
    /// wakes for it.
    public func invalidate() {
        for host in hosts { host.invalidate() }
        wake()
    }

    /// Everything hosts draw on top of the console (a served talk's QR code).
    public func consoleOverlay(size: PixelSize) -> [DrawOperation] { hosts.flatMap { $0.consoleOverlay(size: size) } }

    /// Carries out effects, in order.
    public func perform(_ effects: [PresenterEffect]) {
        for effect in effects {
            switch effect {
            case .stateChanged:
                statusChanged = true
                for observer in onSlideChange { observer(controller.state.slideIndex) }
            case .say(let line): onSay(line)
            case .quit: wake()
            case .handBack, .statistics, .cycleShareCode, .openClip, .closeClip, .playback, .saveInk: break
            }
            for host in hosts { host.perform(effect) }
        }
    }

    /// Runs until the talk is asked to end; then stops every host (last added first) and lets them go.
    public func run() async {
        isRunning = true
        for host in hosts { host.start(in: self) }
        onStatus(controller.statusLine(at: now))
        var wakeups = wakes.makeAsyncIterator()
        while !controller.wantsQuit {
            pass()
            if controller.wantsQuit { break }
            let t = now
            let wall = wallClock()
            let wallSeconds = wall.timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT(for: wall))
            // The talk's own changes (the timer's next second, the clock's next minute) while presenting; a film's
            // frames are its host's deadlines.
            var next = controller.application.mode == .presenting
                ? RedrawScheduler.nextChange(after: t, state: controller.state, wallClock: wallSeconds) : .infinity
            for host in hosts { if let deadline = host.nextDeadline(after: t) { next = min(next, deadline) } }
            let seconds = max(0, min(next, t + 3600))
            if usesLiveTimer {
                sleepOnMainQueue(for: seconds - t)
                // Awaited on the main actor (`isolation:`, as below): the plain `next()` is not isolated, so each
                // wakeup would hop through a pool thread and back to the main queue.
                _ = await wakeups.next(isolation: #isolation)
                continue
            }
            let sleeper = self.sleeper, wake = wakeContinuation
            let timer = Task {
                // A cancelled timer must not wake the loop: that would spin.
                guard (try? await sleeper(.nanoseconds(Int64(seconds * 1e9)))) != nil else { return }
                wake.yield()
            }
            _ = await wakeups.next(isolation: #isolation)
            timer.cancel()
        }
        liveTimer?.cancel()
        liveTimer = nil
        if statusChanged {
            statusChanged = false
            onStatus(controller.statusLine(at: now))
        }
        for host in hosts.reversed() { host.stop() }
        // Released once stopped: a host that holds its runtime (a player) and the runtime no longer keep each other.
        hosts = []
        isRunning = false
        resumePassWaiters()
    }

    /// Sets the live timer to wake the loop `seconds` from now (the one timer, made on the first call; setting it
    /// again replaces the previous expiry, so a pass woken early by a key leaves no stale wakeup behind).
    private func sleepOnMainQueue(for seconds: Double) {
        let timer: any DispatchSourceTimer
        if let liveTimer {
            timer = liveTimer
        } else {
            timer = DispatchSource.makeTimerSource(queue: .main)
            let wake = wakeContinuation
            timer.setEventHandler { wake.yield() }
            liveTimer = timer
            timer.schedule(deadline: .now() + max(0, seconds), repeating: .never, leeway: .nanoseconds(0))
            timer.resume()
            return
        }
        timer.schedule(deadline: .now() + max(0, seconds), repeating: .never, leeway: .nanoseconds(0))
    }

    /// One pass: input queued where it is only read when asked, the audience displays, the console, remotes
    /// and pages, then idle work, then input that arrived meanwhile.
    private func pass() {
        passes += 1
        for host in hosts { host.pump() }
        // One status line a pass, however many inputs changed the state (300 pages connecting are one line),
        // printed as soon as the pass begins: it says the key was handled, before the drawing.
        if statusChanged {
            statusChanged = false
            onStatus(controller.statusLine(at: now))
        }
        let t = now
        let clock = presenterClock(wallClock())
        let before = flipLog.isOn ? caches.pages.counters : nil
        for host in hosts { host.drawAudience(at: t, clock: clock) }
        let audienceDone = now
        let middle = before == nil ? nil : caches.pages.counters
        for host in hosts { host.drawConsole(at: t, clock: clock) }
        let consoleDone = now
        for host in hosts { host.afterPass(at: t) }
        for host in hosts { host.prepareAhead() }
        if let before, let middle {
            let after = caches.pages.counters
            flipLog.drew(at: t, audienceMs: (audienceDone - t) * 1000, page: controller.state.audienceSlideIndex + 1,
                         cache: (middle.hits - before.hits, middle.waits - before.waits, middle.renders - before.renders),
                         consoleWaits: after.waits - middle.waits, consoleMs: (consoleDone - audienceDone) * 1000)
        }
        // Input read while drawing (a compositor's events arrive with its frame callbacks) is handled now, not
        // at the next timer.
        for host in hosts { host.pump() }
        // Input read while drawing changed the state: its line now.
        if statusChanged {
            statusChanged = false
            onStatus(controller.statusLine(at: now))
        }
        resumePassWaiters()
    }

    private func resumePassWaiters() {
        let waiters = passWaiters
        passWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
