import Foundation

/// The app's Now Playing: owns the current item and timeline and tells the platform only what it cannot
/// work out by itself.
///
/// The session publishes on a new item, a rate change (play, pause, stop, speed), a seek, or when the real
/// player drifts from the computed position by more than ``driftTolerance``. Steady playback publishes
/// nothing: an hour of uninterrupted playback is one publication. The session reads time only from its
/// ``MediaClock``.
///
/// Use it from one isolation domain (for example the main actor); it is not `Sendable`.
///
/// ```swift
/// let session = NowPlayingSession(clock: MonotonicMediaClock(), publisher: infoCenterBinding)
/// session.load(NowPlayingMetadata(identifier: "1", title: "Intro", duration: 180), playing: true)
/// session.report(observedPosition: player.currentTime) // call as often as you like; publishes only on drift
/// session.pause()
/// ```
public final class NowPlayingSession {
    /// How far the real player may drift from the computed position, in seconds, before a correction is
    /// published.
    public let driftTolerance: TimeInterval
    /// The clock that gives "now".
    public let clock: any MediaClock
    /// Where publications go.
    public let publisher: any NowPlayingPublisher

    /// What the platform was last told (the session's current state).
    public private(set) var state: NowPlayingState = .empty
    /// How many publications the session has made: a direct measure of the traffic it causes.
    public private(set) var publicationCount = 0

    /// Creates a session with nothing loaded; publishes nothing until something is loaded.
    public init(clock: any MediaClock, publisher: any NowPlayingPublisher, driftTolerance: TimeInterval = 1) {
        self.clock = clock
        self.publisher = publisher
        self.driftTolerance = driftTolerance.isFinite && driftTolerance > 0 ? driftTolerance : 1
    }

    /// The position now, computed from the timeline.
    public var position: TimeInterval { state.timeline.position(at: clock.now()) }

    /// Loads an item at `position`, paused unless `playing` is true. Publishes ``NowPlayingPublicationReason/newItem``.
    public func load(_ metadata: NowPlayingMetadata, at position: TimeInterval = 0, playing: Bool = false) {
        let now = clock.now()
        let rate = playing ? state.preferredRate : 0
        let timeline = PlaybackTimeline(elapsed: metadata.isLiveStream ? 0 : position, at: now, rate: rate,
                                        duration: metadata.duration)
        state = NowPlayingState(metadata: metadata, timeline: timeline, status: playing ? .playing : .paused,
                                preferredRate: state.preferredRate)
        emit(.newItem)
    }

    /// Replaces the current item's descriptive fields (title, artwork…) without touching the timeline.
    /// Publishes only if something changed.
    public func updateMetadata(_ metadata: NowPlayingMetadata) {
        guard state.metadata != nil, state.metadata != metadata else { return }
        state.metadata = metadata
        state.timeline.duration = metadata.duration
        emit(.newItem)
    }

    /// Starts or resumes playback at the preferred rate. Does nothing if nothing is loaded or already playing.
    public func play() {
        guard state.metadata != nil, state.status != .playing else { return }
        let now = clock.now()
        var timeline = state.timeline
        if state.status == .stopped { timeline = timeline.seeking(to: 0, at: now) }
        state.timeline = timeline.changingRate(to: state.preferredRate, at: now)
        state.status = .playing
        emit(.rateChange)
    }

    /// Pauses, keeping the position. Does nothing unless playing.
    public func pause() {
        guard state.status == .playing else { return }
        state.timeline = state.timeline.changingRate(to: 0, at: clock.now())
        state.status = .paused
        emit(.rateChange)
    }

    /// Plays if paused or stopped, pauses if playing.
    public func togglePlayPause() {
        if state.status == .playing { pause() } else { play() }
    }

    /// Stops: the position returns to the start and the item stays loaded. Does nothing if already stopped.
    public func stop() {
        guard state.metadata != nil, state.status != .stopped else { return }
        state.timeline = PlaybackTimeline(elapsed: 0, at: clock.now(), rate: 0, duration: state.timeline.duration)
        state.status = .stopped
        emit(.rateChange)
    }

    /// Sets the speed used while playing (must be finite and positive). Publishes when an item is loaded
    /// (the platform shows the rate); before that, the rate is simply remembered for the next item.
    public func setPreferredRate(_ rate: Double) {
        guard rate.isFinite, rate > 0, rate != state.preferredRate else { return }
        state.preferredRate = rate
        guard state.metadata != nil else { return }
        if state.status == .playing {
            state.timeline = state.timeline.changingRate(to: rate, at: clock.now())
        }
        emit(.rateChange)
    }

    /// Moves the position to `position` (clamped to the item's range). Does nothing for live streams or when
    /// nothing is loaded.
    public func seek(to position: TimeInterval) {
        guard let metadata = state.metadata, !metadata.isLiveStream, position.isFinite else { return }
        state.timeline = state.timeline.seeking(to: position, at: clock.now())
        if state.status == .stopped { state.status = .paused }
        emit(.seek)
    }

    /// Tells the session where the real player is; publishes a correction only if the computed position is
    /// off by more than ``driftTolerance``. Call it as often as convenient.
    public func report(observedPosition: TimeInterval) {
        guard state.metadata != nil, observedPosition.isFinite else { return }
        let now = clock.now()
        guard state.timeline.drift(ofObservedPosition: observedPosition, at: now) > driftTolerance else { return }
        state.timeline = state.timeline.seeking(to: observedPosition, at: now)
        emit(.drift)
    }

    /// Removes the item: nothing is playing. Does nothing if nothing is loaded.
    public func clear() {
        guard state.metadata != nil else { return }
        state = NowPlayingState(metadata: nil, timeline: .idle, status: .stopped, preferredRate: state.preferredRate)
        emit(.cleared)
    }

    private func emit(_ reason: NowPlayingPublicationReason) {
        publicationCount += 1
        publisher.publish(NowPlayingPublication(state: state, reason: reason, instant: clock.now()))
    }
}
