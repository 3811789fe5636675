/// When the camera (`present --share camera`) sends a frame: a changed picture at once, and the last picture again
/// at a low steady rate while nothing changes, because call applications expect a live feed (a source that
/// sends nothing for seconds is shown as frozen or dropped, and a consumer that connects mid-talk needs a frame
/// soon). Pure: the caller gives the time (the runtime's clock) and asks for its next deadline; nothing here
/// waits or keeps a clock.
///
/// The steady rate is 5 frames a second (``defaultRepeatsPerSecond``): a consumer that connects gets a picture
/// within 200 ms, and a repeat costs one colour conversion of a frame that is not redrawn nor copied.
///
/// A live picture in the frame (the speaker's webcam, `--webcam`): each new webcam frame waiting makes a new
/// picture due once ``liveInterval`` (the camera's advertised rate) has passed since the last frame sent — the
/// camera then moves at the webcam's rate, capped to its own; a changed slide is still sent at once. A live source
/// that sends nothing for ``liveSilenceLimit`` seconds (from when it was asked for, then from its last frame sent)
/// is silent (``liveIsSilent(at:)``): a format that cannot be read, a stalled device — the caller drops it.
///
/// ```swift
/// var pacing = CameraPacing()
/// pacing.decision(pictureChanged: true, at: 10.0)    // .sendNew
/// pacing.sent(at: 10.0)
/// pacing.decision(pictureChanged: false, at: 10.1)   // .wait
/// pacing.nextDeadline                                 // 10.2
/// pacing.decision(pictureChanged: false, at: 10.2)   // .repeatLast
/// ```
public struct CameraPacing: Sendable, Hashable {
    /// What to do at a moment.
    public enum Decision: Sendable, Hashable {
        /// Draw and send the new picture now.
        case sendNew
        /// Send the last picture again now.
        case repeatLast
        /// Send nothing now.
        case wait
    }

    /// The steady rate while the picture does not change, in frames per second.
    public static let defaultRepeatsPerSecond = 5.0

    /// Seconds between two frames while the picture does not change.
    public let repeatInterval: Double
    /// The least seconds between two frames made for a new live (webcam) frame: one over the camera's rate.
    public let liveInterval: Double
    /// When a frame was last sent (nil: none yet).
    public private(set) var lastSent: Double?

    /// Pacing at `repeatsPerSecond` while nothing changes (clamped to 0.5…30: a slower feed looks dead to call
    /// applications, a faster one is the advertised rate), and live frames at most `liveFramesPerSecond` (the
    /// camera's advertised rate, clamped to 1…60).
    public init(repeatsPerSecond: Double = CameraPacing.defaultRepeatsPerSecond,
                liveFramesPerSecond: Double = CameraPacing.defaultLiveFramesPerSecond) {
        let rate = repeatsPerSecond.isFinite ? min(30, max(0.5, repeatsPerSecond)) : Self.defaultRepeatsPerSecond
        repeatInterval = 1 / rate
        let live = liveFramesPerSecond.isFinite ? min(60, max(1, liveFramesPerSecond)) : Self.defaultLiveFramesPerSecond
        liveInterval = 1 / live
    }

    /// The live rate cap unless asked: 30 frames a second, the camera's default advertised rate.
    public static let defaultLiveFramesPerSecond = 30.0

    /// How early a repeat still counts as due, in seconds: a timer that wakes the loop a little before the
    /// deadline repeats then, instead of asking for another pass a few microseconds later.
    public static let slack = 0.001

    /// What to send at `now`: a changed picture at once; with a new live frame waiting (`liveFrameWaiting`), a
    /// new picture once ``liveInterval`` has passed since the last frame; else the last one again once
    /// ``repeatInterval`` has passed; else nothing (and nothing before the first picture). Deadlines count as met
    /// within ``slack``.
    public func decision(pictureChanged: Bool, liveFrameWaiting: Bool = false, at now: Double) -> Decision {
        if pictureChanged { return .sendNew }
        guard let lastSent else { return .wait }
        if liveFrameWaiting, now + Self.slack >= lastSent + liveInterval { return .sendNew }
        return now + Self.slack >= lastSent + repeatInterval ? .repeatLast : .wait
    }

    /// How long a live source may send nothing before it counts as silent: 10 s.
    public static let liveSilenceLimit = 10.0

    /// When the live source was last heard of: when it was asked for, then when its newest frame was sent (nil:
    /// no live source).
    public private(set) var liveHeard: Double?

    /// Records that the live source was asked for, or that a frame of it was sent, at `now`.
    public mutating func heardLive(at now: Double) { liveHeard = now }

    /// Forgets the live source (it ended).
    public mutating func forgetLive() { liveHeard = nil }

    /// Whether the live source has sent nothing for ``liveSilenceLimit`` seconds at `now` (within ``slack``).
    public func liveIsSilent(at now: Double) -> Bool {
        guard let liveSilenceDeadline else { return false }
        return now + Self.slack >= liveSilenceDeadline
    }

    /// When the live source counts as silent if nothing comes (nil: no live source).
    public var liveSilenceDeadline: Double? { liveHeard.map { $0 + Self.liveSilenceLimit } }

    /// Records that a frame (new or repeated) was sent at `now`.
    public mutating func sent(at now: Double) { lastSent = now }

    /// When the next repeat is due (nil before the first picture).
    public var nextDeadline: Double? { nextFrameDeadline(liveFrameWaiting: false) }

    /// When the next frame is due: with a live frame waiting, the earlier of the live frame's and the repeat's
    /// moment; else the repeat's (nil before the first picture).
    public func nextFrameDeadline(liveFrameWaiting: Bool) -> Double? {
        guard let lastSent else { return nil }
        return lastSent + (liveFrameWaiting ? min(liveInterval, repeatInterval) : repeatInterval)
    }
}
