#if canImport(CGStreamer)
import CGStreamer
import Foundation

/// What this machine can play, asked of GStreamer's registry without opening a file: which video decoders are
/// installed (and under which licence their plugin is), whether a sound server answers, and whether the decoder
/// process is where the players look for it. `extdisplay doctor` prints it.
///
/// ```swift
/// switch PlaybackCapabilities.decoders() {
/// case .success(let codecs): codecs.first?.decoder   // "vp8dec" on a machine with gstreamer1.0-plugins-good
/// case .failure(let reason): print(reason)
/// }
/// ```
public enum PlaybackCapabilities {
    /// One codec: the decoders this program would use for it, which of them is installed, and what to install.
    public struct Codec: Sendable, Hashable {
        /// The codec as a user knows it ("VP8", "H.264/AVC").
        public var name: String
        /// The first installed decoder of the codec's candidates (GStreamer's factory name), nil when none is.
        public var decoder: String?
        /// The licence the decoder's plugin declares in GStreamer's registry ("LGPL", "BSD"), nil when none is
        /// installed.
        public var licence: String?
        /// What is special about the decoder found (FFmpeg's ranked down, GPL as Debian builds it), or empty.
        public var note: String
        /// The Debian package that brings the codec's preferred decoder.
        public var package: String
    }

    /// A decoder this program may use: GStreamer's factory name, the Debian package, and a note.
    struct Candidate {
        var factory: String
        var package: String
        var note: String = ""
    }

    /// FFmpeg's decoders: present but not used unless the user allows them.
    static let avdecNote = "FFmpeg (gstreamer1.0-libav), GPL-2+ as Debian builds it: used only with EXTDISPLAY_ALLOW_AVDEC=1"

    /// The codecs `play` and slide clips meet most, each with its decoders in the order decodebin takes them
    /// here (FFmpeg's last: ranked down).
    static let codecs: [(name: String, candidates: [Candidate])] = [
        ("VP8", [Candidate(factory: "vp8dec", package: "gstreamer1.0-plugins-good")]),
        ("VP9", [Candidate(factory: "vp9dec", package: "gstreamer1.0-plugins-good")]),
        ("AV1", [Candidate(factory: "dav1ddec", package: "gstreamer1.0-plugins-bad"),
                 Candidate(factory: "av1dec", package: "gstreamer1.0-plugins-bad")]),
        ("H.264/AVC", [Candidate(factory: "openh264dec", package: "gstreamer1.0-plugins-bad"),
                       Candidate(factory: "avdec_h264", package: "gstreamer1.0-libav", note: avdecNote)]),
        ("H.265/HEVC", [Candidate(factory: "libde265dec", package: "gstreamer1.0-plugins-bad"),
                        Candidate(factory: "avdec_h265", package: "gstreamer1.0-libav", note: avdecNote)]),
        ("Theora", [Candidate(factory: "theoradec", package: "gstreamer1.0-plugins-base")]),
        ("Motion JPEG", [Candidate(factory: "jpegdec", package: "gstreamer1.0-plugins-good")]),
    ]

    /// Every codec of the table with the decoder found for it, or why GStreamer could not be asked.
    public static func decoders() -> Result<[Codec], GStreamerUnavailable> {
        if let failure = GStreamerLibrary.startFailure { return .failure(GStreamerUnavailable(reason: failure)) }
        return .success(codecs.map { codec in
            for candidate in codec.candidates {
                guard let licence = edk_gst_factory_licence(candidate.factory) else { continue }
                defer { g_free(licence) }
                return Codec(name: codec.name, decoder: candidate.factory, licence: String(cString: licence),
                             note: candidate.note, package: candidate.package)
            }
            return Codec(name: codec.name, decoder: nil, licence: nil, note: "",
                         package: codec.candidates.first?.package ?? "gstreamer1.0-plugins-good")
        })
    }

    /// Whether the sound server answers the way `play` reaches it (GStreamer's `pulsesink`): nil when it does,
    /// else what is missing.
    public static func soundServerProblem() -> String? {
        GStreamerPipeline.soundServerCheck()
    }

    /// Where the players look for the decoder process (`extdisplay-decoder` next to the running program, or
    /// `EDK_DECODER_WORKER`).
    public static var decoderProcessPath: String { DecoderProcess.workerPath() }

    /// GStreamer did not start.
    public struct GStreamerUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
        /// GStreamer's own reason.
        public var reason: String
        /// The reason, for a line of output.
        public var description: String { "GStreamer did not start: \(reason)" }
    }
}
#endif
