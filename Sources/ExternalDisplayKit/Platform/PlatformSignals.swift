/// Decisions about how platform signals become ``DisplayEvent``s: app lifecycle, screen capture and the
/// app's run-time switch for external content. Platforms call these instead of deciding.
///
/// ```swift
/// PlatformSignals.event(for: .willEnterForeground)   // .foreground
/// PlatformSignals.event(for: .didBecomeActive)       // nil: never key behaviour on activation
/// ```
public enum PlatformSignals {
    /// The event an app-lifecycle signal stands for, if any.
    ///
    /// Foreground is keyed on *will enter foreground*, never on *did become active*: an AirPlay external scene
    /// receives the former but not the latter, and a system alert makes the app inactive without leaving the
    /// foreground.
    public static func event(for signal: LifecycleSignal) -> DisplayEvent? {
        switch signal {
        case .didEnterBackground: .background
        case .willEnterForeground: .foreground
        case .didBecomeActive, .willResignActive: nil
        }
    }

    /// Whether the device screen counts as captured (recorded, mirrored, streamed), from the iOS 17+ scene
    /// capture state when it says, else from the screen's legacy flag.
    public static func isCaptured(sceneCaptureState: CaptureState?, screenIsCaptured: Bool) -> Bool {
        switch sceneCaptureState {
        case .active?: true
        case .inactive?: false
        case .unspecified?, nil: screenIsCaptured
        }
    }

    /// The platform's frame-rate request for a display link ticking at `fps` on a display that can do
    /// `maximum`: a range (minimum half the rate, so the system may throttle under load; maximum and
    /// preferred the rate) where ranges exist (iOS 15+), else a whole frames-per-second count.
    public static func frameRateRequest(fps: Double, maximum: Double, supportsRanges: Bool) -> FrameRateRequest {
        let rate = FrameRate.effective(preferred: fps, maximum: maximum)
        if supportsRanges {
            return .range(minimum: (rate / 2).rounded(.down), maximum: rate, preferred: rate)
        }
        return .framesPerSecond(Int(rate.rounded()))
    }
}

/// An app-lifecycle signal as a platform reports it.
public enum LifecycleSignal: Hashable, Sendable, CaseIterable {
    /// The app (all its scenes) entered the background.
    case didEnterBackground
    /// The app (its first scene) is about to enter the foreground.
    case willEnterForeground
    /// The app became active (not posted to AirPlay external scenes).
    case didBecomeActive
    /// The app is about to become inactive (an alert, Control Centre).
    case willResignActive
}

/// A platform's report of whether the device screen is captured (`UISceneCaptureState` on iOS 17+).
public enum CaptureState: Hashable, Sendable {
    /// The platform does not say.
    case unspecified
    /// Not captured.
    case inactive
    /// Captured: recorded, mirrored or streamed.
    case active
}

/// How to ask a display link for a rate.
public enum FrameRateRequest: Hashable, Sendable {
    /// A range: `preferredFrameRateRange` (iOS 15+).
    case range(minimum: Double, maximum: Double, preferred: Double)
    /// A whole rate: `preferredFramesPerSecond` (before iOS 15).
    case framesPerSecond(Int)
}

/// The app's run-time switch for external content (for example "Use external display" in its settings; with
/// Stage Manager users want to keep the monitor for themselves). Off hands every display back to system
/// mirroring; on takes them back.
///
/// ```swift
/// var external = ExternalContentSwitch()
/// let events = external.set(false, connected: engine.connectionOrder, mirrored: engine.mirroredDisplays)
/// coordinator.handle(events)        // [.mirror("screen-1")]
/// ```
public struct ExternalContentSwitch: Hashable, Sendable {
    /// Whether external content is on.
    public private(set) var isEnabled: Bool

    /// Creates the switch, on by default.
    public init(isEnabled: Bool = true) { self.isEnabled = isEnabled }

    /// Turns the switch and returns the events that carry it out: mirror every connected display that has
    /// the app's content (off), or extend every mirrored display (on). Nothing when it does not change.
    public mutating func set(_ enabled: Bool, connected: [DisplayID], mirrored: [DisplayID]) -> [DisplayEvent] {
        guard enabled != isEnabled else { return [] }
        isEnabled = enabled
        if enabled { return mirrored.map(DisplayEvent.extend) }
        let mirroredSet = Set(mirrored)
        return connected.filter { !mirroredSet.contains($0) }.map(DisplayEvent.mirror)
    }

    /// The events for a display that attaches: the connect, followed (in the same batch, so it never gets a
    /// window) by a mirror while the switch is off.
    public func events(connecting display: Display) -> [DisplayEvent] {
        isEnabled ? [.connect(display)] : [.connect(display), .mirror(display.id)]
    }
}
