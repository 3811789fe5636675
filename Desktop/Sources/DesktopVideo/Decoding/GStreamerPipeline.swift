#if canImport(CGStreamer)
import CGStreamer
import ExtDisplayCore
import Foundation

/// A video file opened with GStreamer: `filesrc ! decodebin ! videoconvert ! appsink` (RGBA, or the X server's
/// BGRx for a player that copies frames straight to a window; at most two buffers queued, none dropped;
/// videoconvert on as many threads as there are cores, at most 4); sound and other streams go to fakesinks. The pipeline stays paused: each
/// ``frame(at:)`` is an accurate flushing seek and the picture prerolled there, so what is shown comes from the
/// caller's timeline, never from the pipeline's clock.
///
/// Every wait is bounded (``timeout``): a stalled decoder gives ``VideoDecodingError/timedOut(path:seconds:doing:)``,
/// a broken, truncated or foreign file a message; nothing traps.
///
/// ```swift
/// let decoder = try GStreamerPipeline(opening: URL(fileURLWithPath: "film.webm"))
/// let frame = try decoder.frame(at: 12.5)   // the picture shown 12.5 s into the film
/// ```
///
/// This is the decoding itself, run where ``VideoDecoder`` puts it: in `extdisplay-decoder`, the decoder process
/// (``DecoderWorker``), or in this process when in-process decoding is chosen (``VideoDecoder/Isolation``).
final class GStreamerPipeline {
    /// The file played.
    public let file: URL
    /// The stream's size, frame rate and length.
    public private(set) var info: VideoStreamInfo
    /// The longest the decoder waits for GStreamer in one call, in seconds.
    public let timeout: Double
    /// The last frame decoded (returned again when the same time is asked for).
    public private(set) var lastFrame: VideoFrame?

    let pipeline: UnsafeMutablePointer<GstElement>
    private let sink: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>
    private var lastRequest: Double?
    /// Whether the pipeline runs (``startStreaming(from:)``) rather than prerolls one frame per seek.
    private var isStreaming = false
    /// The time ``requestFrame(at:)`` asked for, until its frame is taken.
    private var pendingRequest: Double?
    /// A streamed frame taken from the sink before its time.
    private var ahead: VideoFrame?
    /// Frames per second of the last sample's caps, if fixed.
    private var frameRate: Double?
    /// The byte order frames come in.
    public let layout: VideoFrame.Layout
    /// Whether ``startStreaming(from:rate:)`` sought in the paused pipeline and it plays once that seek has prerolled
    /// (``playIfPrerolled()``).
    private var playsWhenPrerolled = false
    /// When the sound last (re)started (the pipeline set playing, or a seek made while it plays), monotonic seconds:
    /// ``soundPosition()`` says nothing until ``soundSettlingSeconds`` after it.
    private(set) var soundStartedAt: Double?

    /// Opens `file` and decodes its first frame, waiting at most `timeout` seconds. With `playsSound`, the file's
    /// first sound stream plays through the desktop's sound server while streaming (see ``playsSound``). Frames
    /// come in `layout`'s byte order.
    public init(opening file: URL, timeout: Double = 10, playsSound: Bool = false,
                layout: VideoFrame.Layout = .rgba) throws(VideoDecodingError) {
        try GStreamerLibrary.start()
        try Self.checkReadable(file)
        guard let pipeline = gst_pipeline_new("extdisplay-video") else {
            throw .gstreamerUnavailable("cannot create a pipeline")
        }
        var elements: [String: UnsafeMutablePointer<GstElement>] = [:]
        for (factory, name) in [("filesrc", "edk-source"), ("decodebin", "edk-decode"), ("videoconvert", "edk-convert"),
                                ("appsink", "edk-sink")] {
            guard let element = gst_element_factory_make(factory, name) else {
                gst_object_unref(pipeline)
                throw .gstreamerUnavailable("the \(factory) element is missing")
            }
            _ = gst_bin_add(edk_gst_bin(pipeline), element)
            elements[name] = element
        }
        self.file = file
        self.layout = layout
        self.timeout = timeout.isFinite && timeout > 0 ? timeout : 10
        self.pipeline = pipeline
        self.sink = elements["edk-sink"]!
        self.bus = gst_element_get_bus(pipeline)
        info = VideoStreamInfo(width: 0, height: 0, framesPerSecond: nil, duration: nil)

        edk_gst_set_string(elements["edk-source"]!, "location", file.path)
        let appSink = edk_gst_app_sink(sink)
        // The conversion (I420 to RGB: about as costly as decoding a 1080p VP8 frame) on several threads, so a
        // 1080p60 frame is ready well within its refresh.
        edk_gst_set_uint(elements["edk-convert"]!, "n-threads", UInt32(min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))))
        if let caps = gst_caps_from_string("video/x-raw,format=\(layout.rawValue)") {
            gst_app_sink_set_caps(appSink, caps)
            gst_caps_unref(caps)
        }
        gst_app_sink_set_max_buffers(appSink, 2)
        gst_app_sink_set_drop(appSink, 0)
        edk_gst_set_bool(sink, "sync", 0)
        guard gst_element_link(elements["edk-source"]!, elements["edk-decode"]!) != 0,
              gst_element_link(elements["edk-convert"]!, sink) != 0 else {
            throw .gstreamerUnavailable("cannot link filesrc, decodebin, videoconvert and appsink")
        }
        edk_gst_connect_decodebin(elements["edk-decode"]!, pipeline)
        Self.guardDecoding(elements["edk-decode"]!, in: pipeline)
        if playsSound { edk_gst_enable_sound(pipeline) }

        if gst_element_set_state(pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE {
            try checkBus()
            throw .undecodable(path: file.path, reason: "GStreamer could not start reading it")
        }
        let first = try preroll(doing: "opening the file")
        guard first.width > 0, first.height > 0 else {
            throw .unsupportedSize(path: file.path, width: first.width, height: first.height)
        }
        var nanoseconds: gint64 = 0
        let duration = gst_element_query_duration(pipeline, GST_FORMAT_TIME, &nanoseconds) != 0 && nanoseconds > 0
            ? Double(nanoseconds) / 1e9 : nil
        let decoderName = edk_gst_video_decoder_name(pipeline)
        defer { g_free(decoderName) }
        info = VideoStreamInfo(width: first.width, height: first.height, framesPerSecond: frameRate, duration: duration,
                               decoder: decoderName.map { String(cString: $0) },
                               decoderIsHardware: decoderName.map { edk_gst_factory_is_hardware($0) != 0 } ?? false)
    }

    deinit {
        gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_object_unref(bus)
        gst_object_unref(pipeline)
    }

    /// The picture shown `seconds` into the video: an accurate seek and the frame prerolled there. Positions at or
    /// past the end give the last frame.
    public func frame(at seconds: Double) throws(VideoDecodingError) -> VideoFrame {
        guard seconds.isFinite, seconds >= 0 else { throw .invalidPosition(seconds) }
        if seconds == lastRequest, let lastFrame { return lastFrame }
        stopStreaming()
        try checkBus()
        let target = try seek(to: seconds)
        let frame = try preroll(doing: "seeking to \(String(format: "%.3f", target)) s", position: target)
        lastRequest = seconds
        return frame
    }

    /// Starts decoding ahead from `seconds` for a player that shows frames as its clock reaches them: an accurate
    /// flushing seek, then the pipeline runs (unsynchronised: the appsink's two buffers hold it back, so a player
    /// that stops taking frames stops the decoding). Frames come from ``streamFrame(upTo:)``. The sound, if it
    /// plays, plays at `rate` (its pitch kept).
    ///
    /// From a pause the seek is made in the paused pipeline, which plays once it has prerolled there (checked, never
    /// waited for, by ``streamFrame(upTo:)``): playing first and seeking then would uncork the sound stream and cork
    /// it again at once, and the seek would read the pipeline's clock — pulsesink's — just after the uncork, when
    /// libpulse answers a wrapped negative time and keeps it (see ``soundPosition()``): the sound stayed silent
    /// for good after such a resume, once in about ten on PipeWire.
    public func startStreaming(from seconds: Double, rate: Double = 1) throws(VideoDecodingError) {
        guard seconds.isFinite, seconds >= 0 else { throw .invalidPosition(seconds) }
        try checkBus()
        ahead = nil
        lastRequest = nil
        pendingRequest = nil
        try seek(to: seconds, rate: rate)
        if isStreaming, !playsWhenPrerolled {
            soundStartedAt = Self.monotonicSeconds()
        } else {
            isStreaming = true
            playsWhenPrerolled = true
            try playIfPrerolled()
        }
    }

    /// After a seek in the paused pipeline (``startStreaming(from:rate:)``): sets it playing once the seek has
    /// prerolled; nothing while it is still prerolling.
    private func playIfPrerolled() throws(VideoDecodingError) {
        guard playsWhenPrerolled else { return }
        var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        switch gst_element_get_state(pipeline, &state, &pending, 0) {
        case GST_STATE_CHANGE_ASYNC:
            return
        case GST_STATE_CHANGE_FAILURE:
            try checkBus()
            throw .undecodable(path: file.path, reason: "GStreamer could not seek in it")
        default:
            break
        }
        playsWhenPrerolled = false
        guard gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            try checkBus()
            throw .undecodable(path: file.path, reason: "GStreamer could not start playing it")
        }
        soundStartedAt = Self.monotonicSeconds()
    }

    /// While streaming: the latest decoded frame whose time is at most `seconds`, taking (and dropping) the
    /// frames before it; `nil` when none has been decoded that far yet. Never waits; `endOfStream` once the
    /// decoder has delivered its last frame and nothing is left up to `seconds`.
    public func streamFrame(upTo seconds: Double) throws(VideoDecodingError) -> VideoFrame? {
        try checkBus()
        try playIfPrerolled()
        let appSink = edk_gst_app_sink(sink)
        var shown: VideoFrame?
        while true {
            if let next = ahead {
                guard next.time <= seconds + 1e-6 else { break }
                shown = next
                ahead = nil
            }
            guard let sample = gst_app_sink_try_pull_sample(appSink, 0) else {
                if shown == nil, gst_app_sink_is_eos(appSink) != 0 { throw .endOfStream(path: file.path, at: seconds) }
                break
            }
            defer { gst_sample_unref(sample) }
            ahead = try decodeSample(sample)
        }
        if let shown { lastFrame = shown }
        return shown
    }

    /// Stops decoding ahead (a pause): the pipeline is paused at once, so its sound stops now. Without this a paused
    /// player that kept its picture (the still frame it already shows) left the pipeline playing until its queues
    /// filled, and the sound went on for up to a second. Nothing when it is not streaming.
    public func pauseStreaming() {
        stopStreaming()
    }

    /// Asks for the picture shown `seconds` into the video without waiting for it: an accurate flushing seek in
    /// the paused pipeline; ``prerolledFrame()`` then returns the frame once it is decoded. For a player whose
    /// loop must not stop while the decoder works (or stalls).
    public func requestFrame(at seconds: Double) throws(VideoDecodingError) {
        guard seconds.isFinite, seconds >= 0 else { throw .invalidPosition(seconds) }
        try checkBus()
        stopStreaming()
        try seek(to: seconds)
        lastRequest = nil
        pendingRequest = seconds
    }

    /// The frame ``requestFrame(at:)`` asked for, once decoded; `nil` until then (and when nothing is asked for).
    /// Never waits.
    public func prerolledFrame() throws(VideoDecodingError) -> VideoFrame? {
        guard let requested = pendingRequest else { return nil }
        try checkBus()
        let appSink = edk_gst_app_sink(sink)
        guard let sample = gst_app_sink_try_pull_preroll(appSink, 0) else {
            if gst_app_sink_is_eos(appSink) != 0 {
                pendingRequest = nil
                throw .endOfStream(path: file.path, at: requested)
            }
            return nil
        }
        defer { gst_sample_unref(sample) }
        pendingRequest = nil
        let frame = try decodeSample(sample)
        lastFrame = frame
        return frame
    }

    /// An accurate flushing seek to `seconds` (positions at or past the end go to the last frame); returns the
    /// position sought.
    @discardableResult
    private func seek(to seconds: Double, rate: Double = 1) throws(VideoDecodingError) -> Double {
        var target = seconds
        if let duration = info.duration, target >= duration {
            target = max(0, duration - 0.5 / AssumedFrameRate.rate(info.framesPerSecond))
        }
        let flags = GstSeekFlags(GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        let speed = rate.isFinite && rate > 0 ? rate : 1
        guard gst_element_seek(pipeline, speed, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(target * 1e9),
                               GST_SEEK_TYPE_NONE, -1) != 0 else {
            try checkBus()
            throw .undecodable(path: file.path, reason: "it cannot seek to \(String(format: "%.3f", target)) s")
        }
        return target
    }

    /// Back to one prerolled frame per seek: the pipeline paused, the frame taken ahead forgotten.
    private func stopStreaming() {
        guard isStreaming else { return }
        gst_element_set_state(pipeline, GST_STATE_PAUSED)
        isStreaming = false
        playsWhenPrerolled = false
        soundStartedAt = nil
        ahead = nil
    }

    /// Waits (bounded) for the frame the pipeline prerolls, watching the bus for errors.
    private func preroll(doing: String, position: Double = 0) throws(VideoDecodingError) -> VideoFrame {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        let appSink = edk_gst_app_sink(sink)
        while true {
            try checkBus()
            if let sample = gst_app_sink_try_pull_preroll(appSink, 50_000_000) {
                defer { gst_sample_unref(sample) }
                let frame = try decodeSample(sample)
                lastFrame = frame
                return frame
            }
            try checkBus()
            if gst_app_sink_is_eos(appSink) != 0 { throw .endOfStream(path: file.path, at: position) }
            if DispatchTime.now().uptimeNanoseconds > deadline {
                throw .timedOut(path: file.path, seconds: timeout, doing: doing)
            }
        }
    }

    /// Throws the first error (or no-video notice) waiting on the bus.
    private func checkBus() throws(VideoDecodingError) {
        let types = GstMessageType(GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_APPLICATION.rawValue)
        while let message = gst_bus_pop_filtered(bus, types) {
            defer { gst_message_unref(message) }
            if message.pointee.type == GST_MESSAGE_APPLICATION {
                if edk_gst_is_no_video(message) != 0 { throw undecodableVideo() ?? .noVideoStream(path: file.path) }
                var width: Int32 = 0, height: Int32 = 0
                if edk_gst_is_too_large(message, &width, &height) != 0 {
                    throw .unsupportedSize(path: file.path, width: Int(width), height: Int(height))
                }
                if let refusal = Self.refusal(in: message, path: file.path) { throw refusal }
                continue
            }
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_error(message, &error, &debug)
            g_free(debug)
            let text = edk_gst_take_error_message(error)
            defer { g_free(text) }
            var reason = text.map { String(cString: $0) } ?? "GStreamer reported an error"
            while reason.hasSuffix(".") { reason.removeLast() }
            if edk_gst_message_from(message, "edk-sound") != 0 { throw .soundLost(reason: reason) }
            if let plain = plainError(message) { throw plain }
            throw .undecodable(path: file.path, reason: reason)
        }
    }

    /// Copies a sample's picture (rows may be padded) into a frame.
    private func decodeSample(_ sample: OpaquePointer) throws(VideoDecodingError) -> VideoFrame {
        var width: Int32 = 0, height: Int32 = 0, numerator: Int32 = 0, denominator: Int32 = 1
        guard edk_gst_sample_geometry(sample, &width, &height, &numerator, &denominator) != 0 else {
            throw .undecodable(path: file.path, reason: "the decoder gave a picture without a size")
        }
        let w = Int(width), h = Int(height)
        frameRate = numerator > 0 && denominator > 0 ? Double(numerator) / Double(denominator) : nil
        guard (1...DecodingLimits.maxSide).contains(w), (1...DecodingLimits.maxSide).contains(h) else {
            throw .unsupportedSize(path: file.path, width: w, height: h)
        }
        guard let buffer = gst_sample_get_buffer(sample) else {
            throw .undecodable(path: file.path, reason: "the decoder gave a sample without a picture")
        }
        let pts = buffer.pointee.pts
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else {
            throw .undecodable(path: file.path, reason: "the decoded picture cannot be read")
        }
        defer { gst_buffer_unmap(buffer, &map) }
        let size = Int(map.size), row = w * 4
        let stride = size / h
        guard stride >= row, let data = map.data else {
            throw .undecodable(path: file.path, reason: "the decoded picture has \(size) bytes, not \(w)×\(h) \(layout.rawValue)")
        }
        // Written once, never zeroed first (a 1080p frame is 8 MB: the zeroing was a second pass over it).
        let pixels = [UInt8](unsafeUninitializedCapacity: row * h) { out, count in
            guard let base = out.baseAddress else { return }
            for y in 0..<h { (UnsafeMutableRawPointer(base) + y * row).copyMemory(from: data + y * stride, byteCount: row) }
            count = row * h
        }
        return VideoFrame(width: w, height: h, pixels: pixels, time: pts == UInt64.max ? 0 : Double(pts) / 1e9,
                          layout: layout)
    }

    /// A regular, readable file, or a message saying what it is instead.
    static func checkReadable(_ file: URL) throws(VideoDecodingError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            throw .unreadableFile(path: file.path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .unreadableFile(path: file.path, reason: "it is a folder") }
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw .unreadableFile(path: file.path, reason: "permission denied")
        }
        // stat(2), which follows links (a link to a clip, or /proc/self/fd/N for a name that is not UTF-8, is the
        // file it points at); FileManager's attributesOfItem would look at the link itself.
        var info = stat()
        if stat(file.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw .unreadableFile(path: file.path, reason: "not a regular file")
        }
    }
}
#endif
