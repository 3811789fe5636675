#if canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// What `extdisplay doctor` reads of GStreamer's registry, against what the machine has: scripts/install-deps.sh
/// installs gstreamer1.0-plugins-good (vp8dec, vp9dec, jpegdec) and -base (theoradec); the oracle is
/// gst-inspect-1.0, run beside it.
@Suite("Playback capabilities from GStreamer's registry")
struct PlaybackCapabilitiesTests {
    /// gst-inspect-1.0's licence line for a factory, nil when it is not installed.
    static func inspectLicence(_ factory: String) throws -> String? {
        let result = try runToEnd("/usr/bin/gst-inspect-1.0", [factory])
        guard result.status == 0 else { return nil }
        return result.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("License") }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) ?? "" }
    }

    @Test("each codec's decoder and licence are gst-inspect-1.0's; VP8, VP9, Theora and Motion JPEG are there")
    func decodersMatchGstInspect() throws {
        let codecs = try PlaybackCapabilities.decoders().get()
        #expect(codecs.map(\.name) == ["VP8", "VP9", "AV1", "H.264/AVC", "H.265/HEVC", "Theora", "Motion JPEG"])
        for codec in codecs {
            if let decoder = codec.decoder {
                #expect(try Self.inspectLicence(decoder) == codec.licence, "\(codec)")
            } else {
                #expect(codec.licence == nil)
                #expect(codec.package.hasPrefix("gstreamer1.0-"), "\(codec)")
            }
        }
        let byName = Dictionary(uniqueKeysWithValues: codecs.map { ($0.name, $0) })
        #expect(byName["VP8"]?.decoder == "vp8dec")
        #expect(byName["VP9"]?.decoder == "vp9dec")
        #expect(byName["Theora"]?.decoder == "theoradec")
        #expect(byName["Motion JPEG"]?.decoder == "jpegdec")
    }
}
#endif
