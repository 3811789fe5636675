public import ExternalDisplayMedia
import Foundation

/// The clip playing on the slide the audience sees: a `VideoPlayback` of its own (the library's film reducer:
/// play, pause, seek, rate, its timeline) and the rules of a slide's clip that `VideoPlayback` lacks — the
/// clip's start and stop (its window), looping, the problem that keeps it from playing and the console's line.
/// The platform shows the frame at ``position(at:)``; nothing here waits for a decoder.
///
/// Requests reach the clip as `VideoPlaybackEvent`s (``handle(_:at:)``), the way ``ApplicationCore`` scopes a
/// film's events to its player: the wrapper applies the window to each one (a seek is clamped to start…end,
/// play at the end starts again from the start, a looping clip is wrapped round first) and hands the result to
/// ``playback`` as one batch. The child's timeline is the clip's only timeline. It is unbounded (the child is
/// not told the file's length): ``position(at:)`` holds it at ``end``, or for a clip that loops wraps it round to
/// ``start``, because the clip's end is the earlier of its stop and its length and a loop has none.
///
/// ```swift
/// var clip = SlideClipPlayback(slideIndex: 2, clip: demo, isPlaying: true, anchorPosition: 0, anchorTime: 10)
/// clip.position(at: 12.5)                       // 2.5 s into the clip (held at its end, or looped, once known)
/// clip.handle([.durationFound(30)], at: 13)     // its length: the end is now known
/// clip.handle([.seekBy(60)], at: 14)            // held at 30, the end
/// ```
public struct SlideClipPlayback: Hashable, Sendable {
    /// The slide (0-based) the clip is on.
    public let slideIndex: Int
    /// The clip.
    public let clip: SlideClip
    /// The clip's playback: status, and the timeline its position follows (unbounded: see ``position(at:)``).
    /// Nothing is loaded while the clip has a ``problem``.
    public private(set) var playback: VideoPlayback
    /// The clip's length in seconds, once the platform opened it (nil until then, or when the file does not say).
    public private(set) var duration: Double?
    /// Why the clip cannot be played, once the platform found out (its stand-in is shown instead).
    public private(set) var problem: String?

    /// Creates the playback of `clip` on slide `slideIndex`: loaded at `anchorPosition` (0 when not finite or
    /// negative) at the runtime's time `anchorTime` (0 when not finite), playing when `isPlaying`. A clip with a
    /// `problem` is not loaded.
    public init(slideIndex: Int, clip: SlideClip, isPlaying: Bool, anchorPosition: Double, anchorTime: Double,
                duration: Double? = nil, problem: String? = nil) {
        self.slideIndex = slideIndex
        self.clip = clip
        self.duration = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.problem = problem
        playback = VideoPlayback()
        guard problem == nil else { return }
        let position = anchorPosition.isFinite ? max(0, anchorPosition) : 0
        _ = playback.handle([.load(Self.item(for: clip), at: position, playing: isPlaying)],
                            at: anchorTime.isFinite ? anchorTime : 0)
    }

    /// What the clip is to its `VideoPlayback`: an incidental video inline on the slide (never Now Playing,
    /// never sent to a display of its own), named after its file; its length is the wrapper's (``duration``).
    public static func item(for clip: SlideClip) -> VideoItem {
        VideoItem(metadata: NowPlayingMetadata(identifier: clip.url.path, title: clip.url.lastPathComponent,
                                               mediaType: .video),
                  content: .incidentalVideo, isFullScreen: false)
    }

    /// Whether the clip plays (false: paused, waiting for the play key, or not loaded).
    public var isPlaying: Bool { playback.status == .playing }

    /// The media position, in seconds, at ``anchorTime``: where the timeline was last anchored.
    public var anchorPosition: Double { playback.timeline.elapsed }

    /// The runtime's time, in seconds, of ``anchorPosition``.
    public var anchorTime: Double { playback.timeline.referenceInstant }

    /// Where the clip starts: its `start`, when that is a finite position ≥ 0, else 0.
    public var start: Double { clip.start.isFinite ? max(0, clip.start) : 0 }

    /// Where the clip stops: the earlier of its `stop` (when after its start) and its length; nil while neither is
    /// known.
    public var end: Double? {
        let stop = clip.stop.flatMap { $0.isFinite && $0 > start ? $0 : nil }
        switch (stop, duration) {
        case let (s?, d?): return min(s, d)
        case let (s?, nil): return s
        case let (nil, d?): return d
        case (nil, nil): return nil
        }
    }

    /// The media position at `now`: the timeline's position (never before its anchor: a time earlier than the
    /// anchor, or not finite, reads the anchor), kept within start…end while paused; while playing, held at
    /// ``end`` — or, for a clip that loops, wrapped round to ``start``.
    public func position(at now: Double) -> Double {
        let raw = playhead(at: now)
        guard isPlaying, problem == nil else { return clamped(raw) }
        guard let end, end > start, raw >= end else { return raw }
        guard clip.loops else { return end }
        return start + (raw - start).truncatingRemainder(dividingBy: end - start)
    }

    /// Whether a clip that does not loop has played to its end by `now`.
    public func hasEnded(at now: Double) -> Bool {
        guard !clip.loops, let end else { return false }
        return position(at: now) >= end
    }

    /// The timeline's position at `now`, unbounded above, never before the anchor.
    private func playhead(at now: Double) -> Double {
        let timeline = playback.timeline
        let instant = now.isFinite ? max(now, timeline.referenceInstant) : timeline.referenceInstant
        return timeline.position(at: instant)
    }

    /// `position` kept within the clip (start…end).
    func clamped(_ position: Double) -> Double {
        let p = position.isFinite ? max(start, position) : start
        guard let end else { return p }
        return min(p, end)
    }
}

// MARK: Events: the clip's rules in front of its VideoPlayback

extension SlideClipPlayback {
    /// The events a clip key asks of the clip in focus (V: play or pause, J and L: ``PresenterCore/clipSeekStep``
    /// back and forward), or nil for a key that is not a clip key. Which letter is which key is
    /// ``PresenterKeyTable``'s.
    public static func events(for key: PresenterKey) -> [VideoPlaybackEvent]? {
        switch key {
        case .clipPlayPause: [.togglePlayPause]
        case .clipBack: [.seekBy(-PresenterCore.clipSeekStep)]
        case .clipForward: [.seekBy(PresenterCore.clipSeekStep)]
        default: nil
        }
    }

    /// Handles the events that arrived together at `now` (seconds on the runtime's clock) and returns what the
    /// clip's `VideoPlayback` answered, with the wrapper's own refusals first. Each event is judged after the ones
    /// before it in the batch; the child gets them as one batch.
    ///
    /// - Play and play/pause at the clip's end (or after the decoder's end of media) start again from ``start``.
    /// - Seeks (``VideoPlaybackEvent/seek(to:)``, ``VideoPlaybackEvent/seekBy(_:)``, a load's position) are clamped
    ///   to start…end; non-finite ones go to the child, which refuses them.
    /// - Before play, pause and seeks, a timeline that ran past the end is settled where ``position(at:)`` says
    ///   (held at the end, or wrapped round for a loop).
    /// - ``VideoPlaybackEvent/durationFound(_:)`` sets ``duration`` (the child's timeline stays unbounded); a
    ///   length that is not finite and above 0 is refused and changes nothing.
    /// - ``VideoPlaybackEvent/mediaFailed(_:)`` sets ``problem`` (the first reason stays) and unloads the child.
    /// - The decoder's ``VideoPlaybackEvent/endOfMedia`` means nothing to a clip that loops.
    /// - While nothing is loaded (a clip with a problem) the events go to the child as they are: it refuses those
    ///   that need a loaded item.
    @discardableResult
    public mutating func handle(_ events: [VideoPlaybackEvent], at now: Double) -> [VideoPlaybackEffect] {
        var judged = self
        var batch: [VideoPlaybackEvent] = []
        var refusals: [VideoPlaybackEffect] = []
        for event in events {
            let time = judged.batchTime(now)
            let translated = judged.translate(event, at: time, refusals: &refusals)
            guard !translated.isEmpty else { continue }
            _ = judged.playback.handle(translated, at: now)
            batch += translated
        }
        duration = judged.duration
        problem = judged.problem
        guard !batch.isEmpty else { return refusals }
        return refusals + playback.handle(batch, at: now)
    }

    /// The time the child will use for a batch at `now`: `now`, or its last batch's time when `now` is not finite
    /// or earlier (the child says so in a `failed` effect).
    private func batchTime(_ now: Double) -> Double {
        let last = playback.hostTime
        guard now.isFinite else { return last ?? 0 }
        guard let last else { return now }
        return max(now, last)
    }

    /// What `event` at `time` asks of the child, under the clip's rules; changes ``duration`` and ``problem``.
    private mutating func translate(_ event: VideoPlaybackEvent, at time: Double,
                                    refusals: inout [VideoPlaybackEffect]) -> [VideoPlaybackEvent] {
        switch event {
        case .durationFound(let length):
            guard length.isFinite, length > 0 else {
                refusals.append(.failed(.invalidDuration(length)))
                return []
            }
            duration = length
            return []
        case .mediaFailed(let reason):
            if problem == nil { problem = reason }
            return [event]
        case .load(let item, let position, let playing):
            return position.isFinite ? [.load(item, at: clamped(position), playing: playing)] : [event]
        default:
            break
        }
        guard playback.item != nil, problem == nil else { return [event] }
        switch event {
        case .play:
            return atTheEnd(time) ? [.seek(to: start), .play] : settled(time) + [.play]
        case .togglePlayPause:
            if atTheEnd(time) { return [.seek(to: start), .play] }
            return settled(time) + [isPlaying ? .pause : .play]
        case .pause:
            return settled(time) + [.pause]
        case .seek(let target):
            return target.isFinite ? [.seek(to: clamped(target))] : [event]
        case .seekBy(let offset):
            return offset.isFinite ? [.seek(to: clamped(position(at: time) + offset))] : [event]
        case .endOfMedia:
            return clip.loops ? [] : [event]
        default:
            return [event]
        }
    }

    /// Whether play must start again from the start: the clip played to its end, or the decoder reported its end.
    private func atTheEnd(_ time: Double) -> Bool {
        hasEnded(at: time) || playback.hasReachedEnd
    }

    /// A seek that puts the timeline where ``position(at:)`` says when it ran past the end (held, or wrapped round
    /// for a loop); nothing otherwise.
    private func settled(_ time: Double) -> [VideoPlaybackEvent] {
        let shown = position(at: time)
        return shown == playhead(at: time) ? [] : [.seek(to: shown)]
    }
}

// MARK: What the speaker reads

extension SlideClipPlayback {
    /// "clip: demo.webm 0:12 / 0:30 ▶" (⏸ paused, ■ at its end; "… cannot be played" when it failed: the
    /// speaker was told why in a line of its own).
    public func consoleLine(at now: Double) -> String {
        let name = clip.url.lastPathComponent
        if problem != nil { return "clip: \(name) cannot be played (the message says why); the slide goes on without it" }
        let mark = hasEnded(at: now) ? "■" : isPlaying ? "▶" : "⏸"
        return "clip: \(name) \(Self.format(position(at: now))) / \(end.map(Self.format) ?? "?:??") \(mark)"
            + "   (V play/pause, J/L 5 s back/forward)"
    }

    /// The line that tells the speaker a clip cannot be played: the decoder's message (which names the file and
    /// what to do) and that the talk goes on.
    public static func problemLine(_ reason: String) -> String {
        "slide video: \(reason) (the talk goes on without it)"
    }

    /// `m:ss` of a number of seconds (negative and non-finite values as 0:00).
    public static func format(_ seconds: Double) -> String {
        let s = seconds.isFinite ? Int(max(0, min(seconds, 359_999))) : 0
        let rest = s % 60
        return "\(s / 60):" + (rest < 10 ? "0\(rest)" : "\(rest)")
    }
}
