import DesktopImages
import DesktopText
import ExternalDisplayKit
import Foundation

/// A `ExternalDisplayKit/FrameClock` for one desktop display: at the display's full rate each tick draws and
/// presents on the display's own window, and the vsync'd present paces the next tick; at lower rates (or
/// when the driver does not pace — presents returning faster than 1.5× the refresh rate) a timer paces.
///
/// ```swift
/// let clock = VSyncFrameClock(surface: surface, refreshRate: 60)
/// clock.start(preferredFramesPerSecond: 0, paused: false) { tick in model.advance(to: tick.targetTimestamp) }
/// clock.pause()     // a static slide: no wakeups
/// clock.stop()
/// ```
@MainActor
public final class VSyncFrameClock: FrameClock {
    /// The display's refresh rate.
    public let maximumFramesPerSecond: Double
    /// The rate it ticks at while running and not paused (0 before start).
    public private(set) var framesPerSecond = 0.0
    /// Whether it has been started and not stopped.
    public private(set) var isRunning = false
    /// Whether it is paused.
    public private(set) var isPaused = false
    /// Whether a timer paces the ticks (rate below the refresh, no surface, or the driver does not pace).
    public private(set) var isUsingTimer = false
    /// Ticks delivered since start.
    public private(set) var tickCount = 0

    private weak var surface: DesktopSurface?
    private var onTick: (@MainActor (FrameTick) -> Void)?
    private var timer: (any DispatchSourceTimer)?
    private var generation = 0
    private var driverDoesNotPace = false
    private var windowStart = 0.0
    private var windowFrames = 0

    /// A clock that presents on `surface` (nil: a pure timer, e.g. the app's shared refresh tick) for a
    /// display refreshing at `refreshRate` Hz.
    public init(surface: DesktopSurface?, refreshRate: Double) {
        self.surface = surface
        self.maximumFramesPerSecond = RefreshRule.usableRate(refreshRate)
    }

    /// Starts ticking at `preferredFramesPerSecond` (clamped; 0 = the display's rate).
    public func start(preferredFramesPerSecond: Double, paused: Bool,
                      onTick: @escaping @MainActor (FrameTick) -> Void) {
        self.onTick = onTick
        framesPerSecond = effectiveRate(for: preferredFramesPerSecond)
        isRunning = true
        isPaused = paused
        schedule()
    }

    /// Changes the rate of a running clock.
    public func setRate(_ preferredFramesPerSecond: Double) {
        framesPerSecond = effectiveRate(for: preferredFramesPerSecond)
        if isRunning { schedule() }
    }

    /// Stops delivering ticks until resumed (no wakeups).
    public func pause() {
        isPaused = true
        schedule()
    }

    /// Resumes delivering ticks.
    public func resume() {
        isPaused = false
        schedule()
    }

    /// Stops and releases the clock.
    public func stop() {
        isRunning = false
        onTick = nil
        schedule()
    }

    /// Cancels whatever drives ticks now and sets up what should.
    private func schedule() {
        generation += 1
        timer?.cancel()
        timer = nil
        guard isRunning, !isPaused, framesPerSecond > 0 else { return }
        windowStart = SDLVideo.now()
        windowFrames = 0
        let vsyncPaced = surface?.isVSynced == true && !driverDoesNotPace
            && framesPerSecond >= maximumFramesPerSecond * 0.99
        isUsingTimer = !vsyncPaced
        if vsyncPaced {
            let current = generation
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated { self?.vsyncFrame(current) }
            }
        } else {
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now(), repeating: 1 / framesPerSecond, leeway: .milliseconds(1))
            timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.fire() } }
            self.timer = timer
            timer.resume()
        }
    }

    /// One vsync-paced frame; queues the next one behind whatever else the main queue has.
    private func vsyncFrame(_ current: Int) {
        guard current == generation else { return }
        fire()
        guard current == generation else { return }
        windowFrames += 1
        let elapsed = SDLVideo.now() - windowStart
        if windowFrames >= 30 {
            if Double(windowFrames) / elapsed > maximumFramesPerSecond * 1.5 {
                driverDoesNotPace = true
                schedule()
                return
            }
            windowStart = SDLVideo.now()
            windowFrames = 0
        }
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated { self?.vsyncFrame(current) }
        }
    }

    private func fire() {
        let now = SDLVideo.now()
        let duration = 1 / framesPerSecond
        let tick = FrameTick(timestamp: now, targetTimestamp: now + duration, duration: duration)
        tickCount += 1
        onTick?(tick)
        surface?.frameTick(tick)
    }
}
