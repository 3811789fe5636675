import Foundation

/// What to put on screen at one vsync: the answer of ``VideoFrameScheduler/frame(forVsyncAt:)``.
///
/// ```swift
/// switch scheduler.frame(forVsyncAt: tick.targetTimestamp) {
/// case .present(let frame): upload(decoder.frame(frame.index)); present()
/// case .hold: break                  // the frame on screen stays; nothing to decode or upload
/// case .idle: clock.pause()          // paused, hidden or nothing loaded: stop waking up
/// }
/// ```
public enum FrameDecision: Sendable, Hashable {
    /// Show a new frame at this vsync.
    case present(FramePresentation)
    /// Keep the frame that is on screen (its index is given); a 24 fps film on 60 Hz holds every frame for two
    /// or three vsyncs.
    case hold(frame: Int)
    /// Show nothing new and decode nothing, for the reason given.
    case idle(FrameIdleReason)

    /// The frame on screen after this vsync, if any: the presented or held index.
    public var frameOnScreen: Int? {
        switch self {
        case .present(let presentation): presentation.index
        case .hold(let frame): frame
        case .idle: nil
        }
    }
}

/// A frame to present, and the frames passed over to reach it.
public struct FramePresentation: Sendable, Hashable {
    /// The frame's index in the stream: frame `n` covers media time `n / fps ..< (n + 1) / fps`.
    public var index: Int
    /// The frame's presentation timestamp in media seconds (`index / fps`).
    public var mediaTime: TimeInterval
    /// How many frames between the previously presented one and this one were never shown (dropped): they need
    /// not be decoded into pictures. Zero after a seek, a load or becoming visible (nothing was due then).
    public var droppedBefore: Int

    /// Creates a presentation.
    public init(index: Int, mediaTime: TimeInterval, droppedBefore: Int) {
        self.index = index
        self.mediaTime = mediaTime
        self.droppedBefore = droppedBefore
    }
}

/// Why a vsync shows nothing new.
public enum FrameIdleReason: String, Sendable, Hashable, CaseIterable {
    /// No timeline has been given yet (nothing loaded).
    case noTimeline
    /// The timeline stands still and its frame is already on screen.
    case paused
    /// The video's surface is hidden (the app is in the background, the slide is not shown).
    case hidden
    /// The vsync timestamp is not a finite number of seconds within ±10¹² s: a bug in the caller's clock.
    case invalidTimestamp
    /// The vsync timestamp is not later than the previous one (a repeated or reordered tick).
    case staleTimestamp
    /// The timeline's position is not a finite number of frames below 2⁴⁰ (a corrupt timeline).
    case positionOutOfRange
}
