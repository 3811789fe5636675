import Foundation

/// The clip playing on the slide the audience sees: which clip, whether it plays, and its timeline as an anchor
/// (the media position at a moment of the runtime's clock) from which the position at any time follows. The
/// platform shows the frame at ``position(at:)``; nothing here waits for a decoder.
///
/// ```swift
/// let clip = SlideClipPlayback(slideIndex: 2, clip: demo, isPlaying: true, anchorPosition: 0, anchorTime: 10)
/// clip.position(at: 12.5)   // 2.5 s into the clip (held at its end, or looped, once its length is known)
/// ```
public struct SlideClipPlayback: Hashable, Sendable {
    /// The slide (0-based) the clip is on.
    public var slideIndex: Int
    /// The clip.
    public var clip: SlideClip
    /// Whether the clip plays (false: paused, or waiting for the play key).
    public var isPlaying: Bool
    /// The media position, in seconds, at ``anchorTime``.
    public var anchorPosition: Double
    /// The runtime's time, in seconds, of ``anchorPosition``.
    public var anchorTime: Double
    /// The clip's length in seconds, once the platform opened it (nil until then, or when the file does not say).
    public var duration: Double?
    /// Why the clip cannot be played, once the platform found out (its stand-in is shown instead).
    public var problem: String?

    /// Creates the playback of `clip` on slide `slideIndex`.
    public init(slideIndex: Int, clip: SlideClip, isPlaying: Bool, anchorPosition: Double, anchorTime: Double,
                duration: Double? = nil, problem: String? = nil) {
        self.slideIndex = slideIndex
        self.clip = clip
        self.isPlaying = isPlaying
        self.anchorPosition = anchorPosition.isFinite ? max(0, anchorPosition) : 0
        self.anchorTime = anchorTime.isFinite ? anchorTime : 0
        self.duration = duration
        self.problem = problem
    }

    /// Where the clip starts: its `start`, when that is a finite position ≥ 0, else 0.
    public var start: Double { clip.start.isFinite ? max(0, clip.start) : 0 }

    /// Where the clip stops: the earlier of its `stop` (when after its start) and its length; nil while neither is
    /// known.
    public var end: Double? {
        let stop = clip.stop.flatMap { $0.isFinite && $0 > start ? $0 : nil }
        let length = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        switch (stop, length) {
        case let (s?, d?): return min(s, d)
        case let (s?, nil): return s
        case let (nil, d?): return d
        case (nil, nil): return nil
        }
    }

    /// The media position at `now`: the anchor while paused; while playing, the anchor plus the time since, held
    /// at ``end`` — or, for a clip that loops, wrapped round to ``start``.
    public func position(at now: Double) -> Double {
        guard isPlaying, problem == nil else { return clamped(anchorPosition) }
        let since = now - anchorTime
        let raw = anchorPosition + (since.isFinite ? max(0, since) : 0)
        guard let end, end > start, raw >= end else { return raw }
        guard clip.loops else { return end }
        return start + (raw - start).truncatingRemainder(dividingBy: end - start)
    }

    /// Whether a clip that does not loop has played to its end by `now`.
    public func hasEnded(at now: Double) -> Bool {
        guard !clip.loops, let end else { return false }
        return position(at: now) >= end
    }

    /// `position` kept within the clip (start…end).
    func clamped(_ position: Double) -> Double {
        let p = position.isFinite ? max(start, position) : start
        guard let end else { return p }
        return min(p, end)
    }

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
