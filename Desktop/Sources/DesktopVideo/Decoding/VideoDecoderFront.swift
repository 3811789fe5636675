#if canImport(CGStreamer)
public import Foundation

/// A video file opened for decoding: its first frame, then the picture at any time (accurate seeks), frames
/// streamed ahead for a player, and the sound. The decoding is GStreamer's (``GStreamerPipeline``), run by default
/// in a decoder process of its own, `extdisplay-decoder` (``Isolation/process``), so that a decoder that crashes
/// (a real case: libde265 corrupting the heap on a 12 KB HEVC 4:4:4 clip), hangs or floods ends that file with one
/// error naming it and the reason (``VideoDecodingError/decoderProcessFailed(path:reason:)``, or
/// ``VideoDecodingError/timedOut(path:seconds:doing:)``), and the talk or the player goes on. Frames come back
/// through shared memory, the sound plays from the decoder process (see ``DecoderProcess`` and
/// ``DecoderProtocol`` for the bounds).
///
/// Every wait is bounded (``timeout``): a stalled decoder gives ``VideoDecodingError/timedOut(path:seconds:doing:)``,
/// a broken, truncated or foreign file a message; nothing traps. Used from one thread at a time.
///
/// ```swift
/// let decoder = try VideoDecoder(opening: URL(fileURLWithPath: "film.webm"))
/// let frame = try decoder.frame(at: 12.5)   // the picture shown 12.5 s into the film
/// ```
public final class VideoDecoder {
    /// Where the decoding runs.
    public enum Isolation: String, Sendable, Hashable, CaseIterable {
        /// In a decoder process of ours (`extdisplay-decoder`, found next to the running program or named by
        /// `EDK_DECODER_WORKER`): a crash, hang or flood there ends the file, not this process. The default.
        case process
        /// In this process (GStreamer's threads here): what a decoder does to memory it does to ours. For
        /// comparisons (`present-bench decoder`) and where the decoder process cannot run.
        case inProcess = "in-process"

        /// `EDK_DECODER=in-process` chooses ``inProcess``; anything else (or nothing) ``process``.
        public static var fromEnvironment: Isolation {
            ProcessInfo.processInfo.environment["EDK_DECODER"] == Isolation.inProcess.rawValue ? .inProcess : .process
        }
    }

    private enum Backend {
        case inProcess(GStreamerPipeline)
        case process(DecoderProcess)
    }

    /// The file played.
    public let file: URL
    /// The stream's size, frame rate and length.
    public let info: VideoStreamInfo
    /// The longest the decoder waits for GStreamer in one call, in seconds.
    public let timeout: Double
    /// The byte order frames come in.
    public let layout: VideoFrame.Layout
    /// Where the decoding runs.
    public let isolation: Isolation
    private let backend: Backend
    private var processLastFrame: VideoFrame?
    /// Whether a still frame may be waiting (``requestFrame(at:)`` asked, ``prerolledFrame()`` not given it yet):
    /// when not, ``prerolledFrame()`` answers `nil` without asking the decoder process.
    private var mayHaveStill = false

    /// The last frame decoded (returned again when the same time is asked for).
    public var lastFrame: VideoFrame? {
        switch backend {
        case .inProcess(let pipeline): pipeline.lastFrame
        case .process: processLastFrame
        }
    }

    /// The decoder process's id while it runs (``Isolation/process``); `nil` in process and once it was stopped.
    public var processID: Int32? {
        if case .process(let process) = backend, process.failure == nil { return process.pid }
        return nil
    }

    /// Opens `file` and decodes its first frame, waiting at most `timeout` seconds. With `playsSound`, the file's
    /// first sound stream plays through the desktop's sound server while streaming (see ``playsSound``). Frames
    /// come in `layout`'s byte order. `isolation` says where the decoding runs (by default a decoder process, or
    /// this process with `EDK_DECODER=in-process`); `worker`, the decoder program to start for it (by default
    /// `EDK_DECODER_WORKER`, else `extdisplay-decoder` next to the running program; tests give stubs that crash,
    /// hang or flood).
    public init(opening file: URL, timeout: Double = 10, playsSound: Bool = false,
                layout: VideoFrame.Layout = .rgba, isolation: Isolation = .fromEnvironment,
                worker: URL? = nil) throws(VideoDecodingError) {
        self.file = file
        self.layout = layout
        self.timeout = timeout.isFinite && timeout > 0 ? timeout : 10
        self.isolation = isolation
        switch isolation {
        case .inProcess:
            let pipeline = try GStreamerPipeline(opening: file, timeout: self.timeout, playsSound: playsSound, layout: layout)
            info = pipeline.info
            backend = .inProcess(pipeline)
        case .process:
            // What can be told without decoding is told here, without a process.
            try GStreamerPipeline.checkReadable(file)
            let process = try DecoderProcess(path: file.path, timeout: self.timeout, worker: worker?.path ?? DecoderProcess.workerPath())
            let reply = try process.call(.open(path: file.path, timeout: self.timeout, playsSound: playsSound, layout: layout),
                                         doing: "opening the file")
            switch reply {
            case .opened(let info, let first):
                self.info = info
                processLastFrame = try first.map { (header) throws(VideoDecodingError) in try process.frame(header, layout: layout) }
            case .failed(let error):
                throw error
            default:
                throw process.fail("answered the opening with something else")
            }
            backend = .process(process)
        }
    }

    /// How long after the sound (re)starts ``soundPosition()`` says nothing, in seconds (libpulse's clock read
    /// just after an uncork; see ``GStreamerPipeline/soundSettlingSeconds``).
    public static let soundSettlingSeconds = GStreamerPipeline.soundSettlingSeconds

    /// Whether the desktop's sound server answers (PulseAudio, or PipeWire's pulse server, through `pulsesink`),
    /// or why not: checked once, in this process, before a player opens a file with sound; nothing is played.
    public static func soundServerCheck() -> String? { GStreamerPipeline.soundServerCheck() }

    /// The picture shown `seconds` into the video: an accurate seek and the frame prerolled there. Positions at or
    /// past the end give the last frame.
    public func frame(at seconds: Double) throws(VideoDecodingError) -> VideoFrame {
        switch backend {
        case .inProcess(let pipeline):
            return try pipeline.frame(at: seconds)
        case .process(let process):
            guard seconds.isFinite, seconds >= 0 else { throw .invalidPosition(seconds) }
            guard let frame = try frame(from: process.call(.frame(at: seconds), doing: "seeking to \(String(format: "%.3f", seconds)) s"),
                                        of: process) else {
                throw process.fail("answered a seek without a frame")
            }
            return frame
        }
    }

    /// Starts decoding ahead from `seconds` for a player that shows frames as its clock reaches them: an accurate
    /// flushing seek, then the pipeline runs (unsynchronised: the appsink's two buffers hold it back, so a player
    /// that stops taking frames stops the decoding). Frames come from ``streamFrame(upTo:)``. The sound, if it
    /// plays, plays at `rate` (its pitch kept). See ``GStreamerPipeline/startStreaming(from:rate:)``.
    public func startStreaming(from seconds: Double, rate: Double = 1) throws(VideoDecodingError) {
        switch backend {
        case .inProcess(let pipeline):
            try pipeline.startStreaming(from: seconds, rate: rate)
        case .process(let process):
            guard seconds.isFinite, seconds >= 0 else { throw .invalidPosition(seconds) }
            try done(process.call(.startStreaming(from: seconds, rate: rate.isFinite && rate > 0 ? rate : 1),
                                  doing: "starting to stream"), of: process)
            mayHaveStill = false
        }
    }

    /// While streaming: the latest decoded frame whose time is at most `seconds`, taking (and dropping) the
    /// frames before it; `nil` when none has been decoded that far yet. Never waits (beyond a round trip to the
    /// decoder process); `endOfStream` once the decoder has delivered its last frame and nothing is left up to
    /// `seconds`.
    public func streamFrame(upTo seconds: Double) throws(VideoDecodingError) -> VideoFrame? {
        switch backend {
        case .inProcess(let pipeline):
            return try pipeline.streamFrame(upTo: seconds)
        case .process(let process):
            let position = seconds.isFinite ? seconds : 0
            return try frame(from: process.call(.streamFrame(upTo: position), doing: "streaming"), of: process)
        }
    }

    /// Stops decoding ahead (a pause): the pipeline pauses at once and its sound with it. Nothing when it is not
    /// streaming. See ``GStreamerPipeline/pauseStreaming()``.
    public func pauseStreaming() throws(VideoDecodingError) {
        switch backend {
        case .inProcess(let pipeline):
            pipeline.pauseStreaming()
        case .process(let process):
            try done(process.call(.pauseStreaming, doing: "pausing"), of: process)
        }
    }

    /// Asks for the picture shown `seconds` into the video without waiting for it: an accurate flushing seek in
    /// the paused pipeline; ``prerolledFrame()`` then returns the frame once it is decoded. For a player whose
    /// loop must not stop while the decoder works (or stalls).
    public func requestFrame(at seconds: Double) throws(VideoDecodingError) {
        switch backend {
        case .inProcess(let pipeline):
            try pipeline.requestFrame(at: seconds)
        case .process(let process):
            guard seconds.isFinite, seconds >= 0 else { throw .invalidPosition(seconds) }
            mayHaveStill = true
            try done(process.call(.requestFrame(at: seconds), doing: "seeking to \(String(format: "%.3f", seconds)) s"),
                     of: process)
        }
    }

    /// The frame ``requestFrame(at:)`` asked for, once decoded; `nil` until then (and when nothing is asked for).
    /// Never waits.
    public func prerolledFrame() throws(VideoDecodingError) -> VideoFrame? {
        switch backend {
        case .inProcess(let pipeline):
            return try pipeline.prerolledFrame()
        case .process(let process):
            guard mayHaveStill else { return nil }
            do {
                let frame = try frame(from: process.call(.prerolledFrame, doing: "seeking"), of: process)
                if frame != nil { mayHaveStill = false }
                return frame
            } catch {
                if case .endOfStream = error { mayHaveStill = false }
                throw error
            }
        }
    }

    /// Whether the file's sound plays: the decoder was opened with `playsSound` and the file has a sound stream
    /// (the sound branch exists once the file's streams are known, that is after opening).
    public var playsSound: Bool {
        switch backend {
        case .inProcess(let pipeline):
            return pipeline.playsSound
        case .process(let process):
            if case .flag(let plays)? = try? process.call(.playsSound, doing: "asking about the sound") { return plays }
            return false
        }
    }

    /// Sets the sound's volume, 0…1 (linear; values outside are clamped, non-finite ones ignored).
    public func setVolume(_ level: Double) {
        switch backend {
        case .inProcess(let pipeline):
            pipeline.setVolume(level)
        case .process(let process):
            guard level.isFinite else { return }
            _ = try? process.call(.setVolume(min(1, max(0, level))), doing: "setting the volume")
        }
    }

    /// Where the sound stands in the film, in seconds, as the sound sink reports it (see
    /// ``GStreamerPipeline/soundPosition()``): what is heard now. `nil` without sound, while paused or prerolling,
    /// shortly after the sound (re)starts, when the sink cannot tell, and once the decoder process has failed.
    public func soundPosition() -> Double? {
        switch backend {
        case .inProcess(let pipeline):
            return pipeline.soundPosition()
        case .process(let process):
            if case .position(let seconds)? = try? process.call(.soundPosition, doing: "asking where the sound is"),
               let seconds, seconds.isFinite {
                return seconds
            }
            return nil
        }
    }

    /// The frame a reply carries (kept as ``lastFrame``), `nil` for none; the pipeline's error thrown.
    private func frame(from reply: DecoderReply, of process: DecoderProcess) throws(VideoDecodingError) -> VideoFrame? {
        switch reply {
        case .frame(let header?):
            let frame = try process.frame(header, layout: layout)
            processLastFrame = frame
            return frame
        case .frame(nil):
            return nil
        case .failed(let error):
            throw error
        default:
            throw process.fail("answered a request for a frame with something else")
        }
    }

    /// Checks a reply that carries nothing; the pipeline's error thrown.
    private func done(_ reply: DecoderReply, of process: DecoderProcess) throws(VideoDecodingError) {
        switch reply {
        case .done: return
        case .failed(let error): throw error
        default: throw process.fail("answered with something else than done")
        }
    }
}
#endif
