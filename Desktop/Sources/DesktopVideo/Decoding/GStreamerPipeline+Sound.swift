#if canImport(CGStreamer)
import CGStreamer
import Dispatch

extension GStreamerPipeline {
    /// Whether the desktop's sound server answers (PulseAudio, or PipeWire's pulse server, through `pulsesink`),
    /// or why not: checked once before a player opens a file with sound; nothing is played.
    static func soundServerCheck() -> String? {
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

    /// How long after the sound (re)starts ``soundPosition()`` says nothing, in seconds. pulsesink's clock (the
    /// pipeline's) is libpulse's `pa_stream_get_time`, which (libpulse 16.1, Debian 12; PulseAudio and PipeWire
    /// alike) answers a wrapped negative time, about 2^64 µs, when read within the transport delay after the stream
    /// is uncorked, and keeps answering it (its time never goes back): a pipeline whose clock was read there takes a
    /// base time thousands of years ahead and its sound is silent for good. pulsesink uncorks once it has written
    /// its first buffer of sound (about 0.1 s, at once when the sound was prerolled); the delay measured here was
    /// 0.04–3.4 ms (87 of 100 reads made at once after an uncork were wrong on pipewire-pulse, 52 of 100 on
    /// PulseAudio 16.1; none made while corked).
    public static let soundSettlingSeconds = 0.5

    /// Where the sound stands in the film, in seconds, as the sound sink reports it from the pipeline's clock (the
    /// sound server's, while it plays): what is heard now. `nil` without sound, while paused or prerolling, within
    /// ``soundSettlingSeconds`` of the sound (re)starting, and when the sink cannot tell.
    public func soundPosition() -> Double? {
        guard let started = soundStartedAt,
              Self.monotonicSeconds() - started >= Self.soundSettlingSeconds,
              let sink = edk_gst_find(pipeline, "edk-soundsink") else { return nil }
        defer { gst_object_unref(sink) }
        var nanoseconds: gint64 = 0
        guard gst_element_query_position(sink, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds >= 0 else { return nil }
        return Double(nanoseconds) / 1e9
    }

    /// The monotonic clock, in seconds.
    static func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
#endif
