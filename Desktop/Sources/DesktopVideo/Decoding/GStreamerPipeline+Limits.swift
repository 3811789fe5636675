#if canImport(CGStreamer)
import CGStreamer
import Foundation

/// How the pipeline (``GStreamerPipeline``) turns what the checks of `edk_limits.h` leave on the bus and on the pipeline into
/// messages: the limits of ``DecodingLimits``, a video stream no installed decoder takes, and GStreamer's failed
/// negotiation (never shown as "negotiation problem").
extension GStreamerPipeline {
    /// Connects the checks to the pipeline's decodebin; before the pipeline leaves the NULL state.
    static func guardDecoding(_ decodebin: UnsafeMutablePointer<GstElement>, in pipeline: UnsafeMutablePointer<GstElement>) {
        edk_gst_guard_decodebin(decodebin, pipeline)
    }

    /// The refusal an application message says (a frame rate, stream count or duration over its limit), or `nil`.
    static func refusal(in message: UnsafeMutablePointer<GstMessage>, path: String) -> VideoDecodingError? {
        var what: UnsafeMutablePointer<CChar>?
        var numerator: Int32 = 0, denominator: Int32 = 1, count: Int32 = 0
        var nanoseconds: gint64 = 0
        guard edk_gst_parse_limit(message, &what, &numerator, &denominator, &count, &nanoseconds) != 0 else { return nil }
        defer { g_free(what) }
        switch what.map({ String(cString: $0) }) {
        case "frame rate": return .unsupportedFrameRate(path: path, numerator: Int(numerator), denominator: Int(denominator))
        case "streams": return .tooManyStreams(path: path, count: Int(count))
        case "duration": return .unsupportedDuration(path: path, seconds: Double(nanoseconds) / 1e9)
        default: return .undecodable(path: path, reason: "it declares a value over the player's limits")
        }
    }

    /// When no video stream is linked and one was found that no installed decoder takes: the message naming its
    /// codec and what to install; `nil` otherwise.
    func undecodableVideo() -> VideoDecodingError? {
        var caps: UnsafeMutablePointer<CChar>?, description: UnsafeMutablePointer<CChar>?, rankedDown: UnsafeMutablePointer<CChar>?
        guard edk_gst_undecodable_video(pipeline, &caps, &description, &rankedDown) != 0 else { return nil }
        defer {
            g_free(caps)
            g_free(description)
            g_free(rankedDown)
        }
        let advice = VideoCodecAdvice(caps: caps.map { String(cString: $0) } ?? "",
                                      gstreamerName: description.map { String(cString: $0) },
                                      rankedDownDecoder: rankedDown.map { String(cString: $0) })
        return .noDecoder(path: file.path, codec: advice.codec, advice: advice.advice)
    }

    /// An error message in words a user can act on, for the errors GStreamer's own words would not help with: a
    /// video stream without a decoder (decodebin says "no suitable plugins found" or stops), or a failed negotiation
    /// ("negotiation problem", "not-negotiated"); `nil` for the others.
    func plainError(_ message: UnsafeMutablePointer<GstMessage>) -> VideoDecodingError? {
        if let undecodable = undecodableVideo() { return undecodable }
        guard edk_gst_is_negotiation_error(message) != 0 else { return nil }
        return .undecodable(path: file.path, reason: "GStreamer found no way to turn its video into pictures the player "
                            + "takes (the stream declares a picture format or size its decoder cannot give)")
    }
}
#endif
