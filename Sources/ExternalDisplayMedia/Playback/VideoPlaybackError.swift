import Foundation

/// Why a ``VideoPlayback`` refused a request or gave up on an item. Each value's ``message`` says what is
/// wrong and what to do; the playback state is left as it was.
public enum VideoPlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A request that needs an item (named) arrived while nothing was loaded.
    case nothingLoaded(request: String)
    /// A position (seek target, seek offset or load position) is not a finite number.
    case nonFinitePosition(Double)
    /// The item is a live stream: its position cannot be moved.
    case notSeekable(title: String)
    /// A rate is not a finite number above zero.
    case invalidRate(Double)
    /// A rate is valid but outside the rates the player supports.
    case unsupportedRate(Double, supported: ClosedRange<Double>)
    /// A volume is not a finite number.
    case invalidVolume(Double)
    /// A duration reported by the decoder is not a finite, non-negative number of seconds.
    case invalidDuration(Double)
    /// A batch's host time is not finite; the last valid time was used.
    case invalidHostTime(Double)
    /// A batch's host time is earlier than the previous batch's; the previous time was used.
    case hostTimeWentBack(Double, previous: TimeInterval)
    /// A detached display was never attached.
    case unknownDisplay(id: String)
    /// The user asked for the external display but none is attached (or the named one is not).
    case noExternalDisplay
    /// The item may not play on an external display (an incidental clip, audio only).
    case externalPlaybackNotAllowed(ExternalPlaybackPolicy.Rule)
    /// The decoder gave up on the item; playback was closed and the app goes on.
    case mediaFailed(title: String?, reason: String)

    /// What is wrong and what to do, for the user or the log.
    public var message: String {
        switch self {
        case .nothingLoaded(let request):
            "cannot \(request): no video is loaded; open a file first"
        case .nonFinitePosition(let value):
            "the position \(value) is not a number of seconds; give a finite position (it is clamped to the video)"
        case .notSeekable(let title):
            "\"\(title)\" is a live stream: its position cannot be moved"
        case .invalidRate(let value):
            "the rate \(value) is not usable; give a finite rate above 0 (1 is normal speed; pause to stop)"
        case .unsupportedRate(let value, let supported):
            "the rate \(value) is not supported; choose one from \(supported.lowerBound) to \(supported.upperBound)"
        case .invalidVolume(let value):
            "the volume \(value) is not a number; give one from 0 (silent) to 1 (full)"
        case .invalidDuration(let value):
            "the decoder reported a duration of \(value) s; the length stays as it was"
        case .invalidHostTime(let value):
            "the host time \(value) is not finite; pass the monotonic clock's reading (the last valid time was used)"
        case .hostTimeWentBack(let value, let previous):
            "the host time \(value) is before the previous batch's \(previous); pass readings of one monotonic "
                + "clock (the previous time was used)"
        case .unknownDisplay(let id):
            "display \"\(id)\" was detached but never attached; nothing changed"
        case .noExternalDisplay:
            "no external display to play on; connect one (or name an attached one) and try again"
        case .externalPlaybackNotAllowed(let rule):
            "this video stays in the main window (external playback policy: \(rule.rawValue))"
        case .mediaFailed(let title, let reason):
            "\(title.map { "\"\($0)\"" } ?? "the video") cannot be played: \(reason); the video was closed, "
                + "check the file or choose another"
        }
    }

    /// The same as ``message``.
    public var description: String { message }
}
