#if canImport(CGStreamer)
import CGStreamer
import Foundation

/// GStreamer started once per process: `gst_init_check`, then every `avdec_*` decoder (Debian's FFmpeg,
/// GPL-2+ as built) ranked down to none so decodebin picks LGPL/BSD decoders (vp8dec, vp9dec, av1dec,
/// openh264dec) — unless `EXTDISPLAY_ALLOW_AVDEC=1` is set; every hardware video decoder that is ranked at all
/// raised above the software ones (VA-API, V4L2: tried first where the machine has the device, skipped by
/// decodebin where it cannot start).
enum GStreamerLibrary {
    /// The outcome of starting GStreamer: `nil` when it started, else why not.
    static let startFailure: String? = {
        var error: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &error) != 0 else {
            let message = edk_gst_take_error_message(error)
            defer { g_free(message) }
            return message.map { String(cString: $0) } ?? "gst_init_check failed"
        }
        if ProcessInfo.processInfo.environment["EXTDISPLAY_ALLOW_AVDEC"] != "1" { _ = edk_gst_rank_down_avdec() }
        _ = edk_gst_prefer_hardware_decoders()
        return nil
    }()

    /// Starts GStreamer if it is not started yet.
    static func start() throws(VideoDecodingError) {
        if let startFailure { throw .gstreamerUnavailable(startFailure) }
    }
}
#endif
