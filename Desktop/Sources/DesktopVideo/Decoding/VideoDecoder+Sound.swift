#if canImport(CGStreamer)
import CGStreamer

extension VideoDecoder {
    /// Whether the desktop's sound server answers (PulseAudio, or PipeWire's pulse server, through `pulsesink`),
    /// or why not: checked once before a player opens a file with sound; nothing is played.
    public static func soundServerCheck() -> String? {
        if let startFailure = GStreamerLibrary.startFailure { return "GStreamer did not start: \(startFailure)" }
        switch edk_gst_sound_server_answers() {
        case 1: return nil
        case -1: return "pulsesink is not installed (gstreamer1.0-plugins-good)"
        default: return "no sound server answered (PulseAudio, or PipeWire with pipewire-pulse)"
        }
    }

    /// Whether the file's sound plays: the decoder was opened with `playsSound` and the file has a sound stream
    /// (the sound branch exists once the file's streams are known, that is after opening).
    public var playsSound: Bool {
        guard let branch = edk_gst_find(pipeline, "edk-sound") else { return false }
        gst_object_unref(branch)
        return true
    }

    /// Sets the sound's volume, 0…1 (linear; values outside are clamped, non-finite ones ignored).
    public func setVolume(_ level: Double) {
        guard level.isFinite, let volume = edk_gst_find(pipeline, "edk-volume") else { return }
        edk_gst_set_double(volume, "volume", min(1, max(0, level)))
        gst_object_unref(volume)
    }

    /// Where the sound stands in the film, in seconds, as the sound sink reports it from the pipeline's clock (the
    /// monotonic system clock, on which the sink places each sample when it starts playing: what is heard now, to
    /// within the sound card's drift; never pulsesink's own clock, see the sound branch in CGStreamer's shim). `nil`
    /// without sound or when the sink cannot tell.
    public func soundPosition() -> Double? {
        guard let sink = edk_gst_find(pipeline, "edk-soundsink") else { return nil }
        defer { gst_object_unref(sink) }
        var nanoseconds: gint64 = 0
        guard gst_element_query_position(sink, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds >= 0 else { return nil }
        return Double(nanoseconds) / 1e9
    }
}
#endif
