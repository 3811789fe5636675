/// Why a video could not be opened or a frame could not be decoded. Each value's ``description`` says what is
/// wrong and what to do; nothing in ``VideoDecoder`` traps on a bad file. Codable: the decoder process sends the
/// errors of its pipeline as they are.
public enum VideoDecodingError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file is missing, not a regular file, or unreadable.
    case unreadableFile(path: String, reason: String)
    /// GStreamer could not start, or one of its base elements is not installed.
    case gstreamerUnavailable(String)
    /// GStreamer refused the file: not a video container it knows, broken, truncated, or a missing decoder.
    case undecodable(path: String, reason: String)
    /// The file has streams but no video stream (sound only, or subtitles).
    case noVideoStream(path: String)
    /// The video's size is zero or larger than the player accepts (``DecodingLimits/maxSide``).
    case unsupportedSize(path: String, width: Int, height: Int)
    /// The file declares a frame rate (`numerator`/`denominator` frames per second) outside
    /// ``DecodingLimits/framesPerSecond``.
    case unsupportedFrameRate(path: String, numerator: Int, denominator: Int)
    /// The file declares more streams than ``DecodingLimits/maxStreams`` (`count` is how many were seen when it
    /// was refused).
    case tooManyStreams(path: String, count: Int)
    /// The file declares a length longer than ``DecodingLimits/maxDuration``.
    case unsupportedDuration(path: String, seconds: Double)
    /// The file has a video stream that no installed decoder takes: `codec` names it (``VideoCodecAdvice``),
    /// `advice` says what to install or set.
    case noDecoder(path: String, codec: String, advice: String)
    /// The decoder gave no frame within the time allowed (a stalled or very slow decoder).
    case timedOut(path: String, seconds: Double, doing: String)
    /// The stream ended before the requested position (the file is shorter than it says, or truncated).
    case endOfStream(path: String, at: Double)
    /// A position that is not a finite, non-negative number of seconds.
    case invalidPosition(Double)
    /// The sound branch failed (the sound server went away): the pipeline stopped; reopen the file without sound.
    case soundLost(reason: String)
    /// The decoder process for the file crashed (a signal), ended, did not answer in time or broke the protocol
    /// (``VideoDecoder/Isolation/process``): `reason` says which ("crashed (signal 6, SIGABRT …)"). The process
    /// was stopped; this decoder gives no more frames (a new one may be opened).
    case decoderProcessFailed(path: String, reason: String)
    /// The decoder process could not be started (`extdisplay-decoder` missing next to the running program, or the
    /// system refused a process, a socket or shared memory).
    case decoderProcessUnavailable(String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason); check the path and its permissions"
        case .gstreamerUnavailable(let reason):
            "GStreamer is not usable: \(reason); install gstreamer1.0-plugins-base and gstreamer1.0-plugins-good "
                + "(scripts/install-deps.sh)"
        case .undecodable(let path, let reason):
            "\(path) cannot be played: \(reason); check that it is a complete video file (WebM/VP8/VP9, Matroska, "
                + "MP4) and that its decoder is installed"
        case .noVideoStream(let path):
            "\(path) has no video stream (sound or subtitles only); choose a video file"
        case .unsupportedSize(let path, let width, let height):
            "\(path) has a picture of \(width)×\(height) pixels; the player accepts 1…\(DecodingLimits.maxSide) pixels a side"
        case .unsupportedFrameRate(let path, let numerator, let denominator):
            "\(path) declares \(numerator)/\(denominator) frames per second; the player accepts "
                + "\(DecodingLimits.framesPerSecondText) (or a variable rate): the file's header is damaged, or "
                + "re-encode it at a usual rate (24, 25, 30, 60)"
        case .tooManyStreams(let path, let count):
            "\(path) declares at least \(count) streams; the player accepts at most \(DecodingLimits.maxStreams) "
                + "(video, sound and subtitles together): keep the tracks you need (ffmpeg -map, mkvmerge)"
        case .unsupportedDuration(let path, let seconds):
            "\(path) declares a length of \(DecodingLimits.durationText(seconds)); the player accepts at most "
                + "\(DecodingLimits.durationText(DecodingLimits.maxDuration)): the file's header is damaged; remux it "
                + "(ffmpeg -c copy) or re-encode it"
        case .noDecoder(let path, let codec, let advice):
            "\(path) has a video track in \(codec), and no installed decoder plays it; \(advice)"
        case .timedOut(let path, let seconds, let doing):
            "the decoder gave no frame of \(path) within \(seconds) s while \(doing); the file may be damaged or the "
                + "machine overloaded"
        case .endOfStream(let path, let at):
            "\(path) ends before \(String(format: "%.2f", at)) s (the file is shorter than it says, or truncated)"
        case .invalidPosition(let value):
            "the position \(value) is not a number of seconds ≥ 0"
        case .soundLost(let reason):
            "the sound stopped: \(reason); the film goes on without sound (start the sound server and play it again "
                + "for sound)"
        case .decoderProcessFailed(let path, let reason):
            "the decoder for \(path) \(reason); the file may be damaged or trip a bug in its decoder: re-encode it "
                + "(e.g. VP9 in WebM) or open it in another player"
        case .decoderProcessUnavailable(let reason):
            "the video decoder process cannot start: \(reason); build it with `swift build --product extdisplay-decoder` "
                + "next to extdisplay, or set EDK_DECODER=in-process"
        }
    }
}
