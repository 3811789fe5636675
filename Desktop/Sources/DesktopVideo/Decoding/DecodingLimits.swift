import Foundation

/// What a video file may declare before anything is decoded: the picture size, the frame rate, the number of
/// streams and the length. ``VideoDecoder`` reads them from the container's and the bitstream's headers (GStreamer's
/// caps, a JPEG frame's SOF header, a VP8 key frame's header, the duration upstream answers) and refuses a file
/// over a limit before a decoder allocates a picture, with a message naming the file, the value and the limit.
///
/// The same numbers are in `Sources/CGStreamer/edk_limits.h` and `shim.h` (`EDK_GST_MAX_SIDE`, `EDK_GST_MAX_FPS`,
/// `EDK_GST_MIN_FPS_HUNDREDTHS`, `EDK_GST_MAX_STREAMS`, `EDK_GST_MAX_DURATION_SECONDS`), where the checks run on
/// GStreamer's streaming threads; change both together.
public enum DecodingLimits {
    /// The largest picture side in pixels (the smallest is 1): 8192, as for images (an 8192×8192 RGBA picture is
    /// 256 MB).
    public static let maxSide = 8192
    /// The frame rates accepted, frames per second: ExternalDisplayMedia's `VideoFrameScheduler` range. A stream
    /// that says 0/1 (variable) passes; the player then assumes 30.
    public static let framesPerSecond: ClosedRange<Double> = 0.01...1_000
    /// The most streams a file may declare (video, sound and subtitles together): far above a film with every
    /// language's sound and subtitles, far below what makes GStreamer build thousands of branches.
    public static let maxStreams = 64
    /// The longest length a file may declare, in seconds: 7 days (a week-long recording plays; a header claiming
    /// centuries is damaged).
    public static let maxDuration: Double = 7 * 24 * 3600

    /// ``framesPerSecond`` as the messages say it.
    static var framesPerSecondText: String {
        "\(framesPerSecond.lowerBound)…\(Int(framesPerSecond.upperBound)) frames per second"
    }

    /// A length as the messages say it: the days, hours, minutes and seconds that are not 0, and the seconds
    /// (`7 d (604800 s)`).
    static func durationText(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "\(seconds) s" }
        let whole = seconds < 1e15 ? Int64(seconds) : Int64(1e15)
        let days = whole / 86_400, hours = whole % 86_400 / 3600, minutes = whole % 3600 / 60, rest = whole % 60
        let parts = [(days, "d"), (hours, "h"), (minutes, "min"), (rest, "s")].filter { $0.0 != 0 }
        let text = parts.isEmpty ? "0 s" : parts.map { "\($0.0) \($0.1)" }.joined(separator: " ")
        return days > 0 || hours > 0 || minutes > 0 ? "\(text) (\(whole) s)" : text
    }
}
