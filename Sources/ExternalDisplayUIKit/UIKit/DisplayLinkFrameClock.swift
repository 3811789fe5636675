#if canImport(UIKit)
import ExternalDisplayKit
import QuartzCore
import UIKit

/// A ``FrameClock`` on a screen's own `CADisplayLink`: ticks in step with that display's refresh, not the
/// device's.
///
/// The rate is asked for with `preferredFrameRateRange` on iOS 15 and later and `preferredFramesPerSecond`
/// before (never the deprecated `frameInterval`); the link runs in the `.common` run-loop mode so scrolling
/// on the device does not stall the external display.
///
/// ```swift
/// let clock = DisplayLinkFrameClock(screen: windowScene.screen)
/// clock.start(preferredFramesPerSecond: 30, paused: false) { tick in slideView.advance(to: tick.targetTimestamp) }
/// ```
@MainActor
public final class DisplayLinkFrameClock: FrameClock {
    private weak var screen: UIScreen?
    private var link: CADisplayLink?
    private var target: DisplayLinkTarget?
    private var onTick: (@MainActor (FrameTick) -> Void)?

    /// The display's refresh rate (`maximumFramesPerSecond`; 60 when it does not say).
    public let maximumFramesPerSecond: Double
    /// The rate asked for while running (0 before start).
    public private(set) var framesPerSecond: Double = 0
    /// Whether the link exists.
    public var isRunning: Bool { link != nil }
    /// Whether the link is paused.
    public var isPaused: Bool { link?.isPaused ?? false }

    /// Creates a clock for a screen; `nil` means the device's main display.
    public init(screen: UIScreen?) {
        self.screen = screen
        let maximum = screen?.maximumFramesPerSecond ?? 0
        self.maximumFramesPerSecond = RefreshRule.usableRate(Double(maximum))
    }

    /// Starts the display link (replacing a running one).
    public func start(preferredFramesPerSecond: Double, paused: Bool,
                      onTick: @escaping @MainActor (FrameTick) -> Void) {
        stop()
        self.onTick = onTick
        let target = DisplayLinkTarget()
        target.clock = self
        let selector = #selector(DisplayLinkTarget.step(_:))
        let link = screen?.displayLink(withTarget: target, selector: selector)
            ?? CADisplayLink(target: target, selector: selector)
        self.target = target
        self.link = link
        setRate(preferredFramesPerSecond)
        link.isPaused = paused
        link.add(to: .main, forMode: .common)
    }

    /// Changes the rate of the running link.
    public func setRate(_ preferred: Double) {
        guard let link else { return }
        framesPerSecond = effectiveRate(for: preferred)
        if #available(iOS 15.0, *) {
            let request = PlatformSignals.frameRateRequest(fps: preferred, maximum: maximumFramesPerSecond,
                                                           supportsRanges: true)
            if case .range(let minimum, let maximum, let wanted) = request {
                link.preferredFrameRateRange = CAFrameRateRange(minimum: Float(minimum), maximum: Float(maximum),
                                                                preferred: Float(wanted))
            }
        } else {
            let request = PlatformSignals.frameRateRequest(fps: preferred, maximum: maximumFramesPerSecond,
                                                           supportsRanges: false)
            if case .framesPerSecond(let fps) = request { link.preferredFramesPerSecond = fps }
        }
    }

    /// Pauses the link: no wakeups.
    public func pause() { link?.isPaused = true }

    /// Resumes the link.
    public func resume() { link?.isPaused = false }

    /// Invalidates the link (which releases its target).
    public func stop() {
        link?.invalidate()
        link = nil
        target = nil
        onTick = nil
        framesPerSecond = 0
    }

    fileprivate func fire(_ link: CADisplayLink) {
        onTick?(FrameTick(timestamp: link.timestamp, targetTimestamp: link.targetTimestamp,
                          duration: link.duration))
    }
}

/// The display link's target. The link retains its target, so the target holds the clock weakly.
@MainActor
private final class DisplayLinkTarget: NSObject {
    weak var clock: DisplayLinkFrameClock?

    /// The link's action; the sender is the `CADisplayLink` (typed `AnyObject`, which Objective-C represents
    /// as `id`, so the selector matches the documented `-(void)step:(CADisplayLink *)sender` shape).
    @objc func step(_ sender: AnyObject) {
        guard let link = sender as? CADisplayLink else { return }
        clock?.fire(link)
    }
}
#endif
