#if canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// Limits before allocation (issue 35, item 2) and honest messages (item 8), on files made at test time: a clip's
/// declared picture size, frame rate, stream count and length are refused before a decoder allocates a picture,
/// with a message naming the file, the value and the limit (never "negotiation problem"); a video track nobody
/// decodes here is named with its codec and what to install, not "no video stream". Memory is read from the
/// `extdisplay play` child's peak (GNU time; about 46 MiB for a refused file in a debug build); each child runs
/// under a hang guard, nothing is timed.
@Suite("GStreamer decoder: limits before allocation and honest messages", .serialized)
struct DecodingLimitsTests {
    /// The most a refused file may cost `extdisplay play` (headless, `--simulate laptop`), MiB: its own start
    /// (GStreamer, SDL, the simulated display) stays far below; a 60000×20000 picture decoded is over 1,700.
    static let refusedPeakMiB = 300.0

    /// Before: jpegdec allocated the 1.7 GB picture (8 s), then "accepts 1…8192"; a 65500² header said only
    /// "GStreamer error: negotiation problem".
    @Test(arguments: [(60000, 20000), (65500, 65500), (8193, 16)])
    func aJPEGFrameHeaderClaimingAHugePictureIsRefusedBeforeDecoding(width: Int, height: Int) throws {
        let folder = try ClipFiles.folder("limits-sof")
        let file = folder.appendingPathComponent("huge.avi")
        try Data(ClipFiles.settingJPEGSize(try ClipFiles.mjpegAVI(in: folder), width: width, height: height)).write(to: file)
        let run = try ClipFiles.play(file)
        #expect(run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("huge.avi has a picture of \(width)×\(height) pixels; the player accepts 1…8192 pixels a side"),
                "\(run.errors)")
        #expect(!run.errors.contains("negotiation"), "\(run.errors)")
        #expect(run.peakMiB < Self.refusedPeakMiB, "peak \(run.peakMiB) MiB")
        #expect(throws: VideoDecodingError.unsupportedSize(path: file.path, width: width, height: height)) {
            _ = try VideoDecoder(opening: file, timeout: 30)
        }
    }

    /// The limit itself: 8192 a side plays (a picture of 8192×16 comes out).
    @Test func aJPEGOf8192PixelsASidePlays() throws {
        let folder = try ClipFiles.folder("limits-8192")
        let file = folder.appendingPathComponent("wide.mkv")
        try ClipFiles.gstLaunch(["videotestsrc", "num-buffers=2", "!", "video/x-raw,width=8192,height=16,framerate=30/1", "!",
                                 "jpegenc", "!", "matroskamux", "!", "filesink", "location=\(file.path)"],
                                what: "the 8192-wide Motion-JPEG Matroska file (avimux takes at most 4096)")
        let decoder = try VideoDecoder(opening: file, timeout: 30)
        #expect(decoder.info.width == 8192 && decoder.info.height == 16)
    }

    /// The container's header says the size (avidemux's caps): refused before a decoder is even plugged.
    @Test func anAVIHeaderClaimingAHugePictureIsRefused() throws {
        let folder = try ClipFiles.folder("limits-avih")
        let file = folder.appendingPathComponent("header.avi")
        try Data(ClipFiles.settingAVISize(try ClipFiles.mjpegAVI(in: folder), width: 9000, height: 16)).write(to: file)
        #expect(throws: VideoDecodingError.unsupportedSize(path: file.path, width: 9000, height: 16)) {
            _ = try VideoDecoder(opening: file, timeout: 30)
        }
    }

    /// Frame rates from the AVI headers: too fast, negative (0xFFFFFFFF/1 reads as −1/1), too slow (one frame in
    /// 200 s).
    @Test(arguments: [(UInt32(5000), UInt32(1), "5000/1"), (0xFFFF_FFFF, 1, "-1/1"), (1, 200, "1/200")])
    func aDeclaredFrameRateOutsideTheRangeIsRefused(rate: UInt32, scale: UInt32, said: String) throws {
        let folder = try ClipFiles.folder("limits-rate")
        let file = folder.appendingPathComponent("rate.avi")
        try Data(ClipFiles.settingAVIRate(try ClipFiles.mjpegAVI(in: folder), rate: rate, scale: scale)).write(to: file)
        do {
            _ = try VideoDecoder(opening: file, timeout: 30)
            Issue.record("\(said) frames per second was accepted")
        } catch {
            #expect(error.description.contains("rate.avi declares \(said) frames per second; the player accepts 0.01…1000 frames per second"),
                    "\(error.description)")
        }
        let run = try ClipFiles.play(file)
        #expect(run.status == 2 && run.errors.contains("declares \(said) frames per second"), "status \(run.status): \(run.errors)")
    }

    /// 65 sound tracks and a picture (Matroska): refused at the 65th stream, before its branch is built.
    @Test func moreStreamsThanTheLimitAreRefused() throws {
        let folder = try ClipFiles.folder("limits-streams")
        let file = folder.appendingPathComponent("tracks.mkv")
        var pipeline = ["matroskamux", "name=m", "!", "filesink", "location=\(file.path)", "videotestsrc", "num-buffers=2", "!",
                        "video/x-raw,width=16,height=16,framerate=30/1", "!", "vp8enc", "deadline=1", "!", "m."]
        for _ in 0..<65 {
            pipeline += ["audiotestsrc", "num-buffers=1", "samplesperbuffer=64", "!", "audio/x-raw,rate=8000,channels=1", "!", "m."]
        }
        try ClipFiles.gstLaunch(pipeline, what: "the Matroska file with 66 streams")
        let run = try ClipFiles.play(file)
        #expect(run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("tracks.mkv declares at least 65 streams; the player accepts at most 64"), "\(run.errors)")
        #expect(run.peakMiB < Self.refusedPeakMiB, "peak \(run.peakMiB) MiB")
    }

    /// Matroska's Duration (a float of milliseconds) patched to 10¹² ms (31 years).
    @Test func aDeclaredLengthOverTheLimitIsRefused() throws {
        let folder = try ClipFiles.folder("limits-duration")
        let base = folder.appendingPathComponent("base.webm")
        try ClipFiles.gstLaunch(["videotestsrc", "num-buffers=3", "!", "video/x-raw,width=16,height=16,framerate=30/1", "!",
                                 "vp8enc", "deadline=1", "!", "webmmux", "!", "filesink", "location=\(base.path)"], what: "the WebM clip")
        let file = folder.appendingPathComponent("long.webm")
        try Data(ClipFiles.settingMatroskaDuration([UInt8](try Data(contentsOf: base)), milliseconds: 1e12)).write(to: file)
        #expect(throws: VideoDecodingError.unsupportedDuration(path: file.path, seconds: 1e9)) {
            _ = try VideoDecoder(opening: file, timeout: 30)
        }
        let run = try ClipFiles.play(file)
        #expect(run.status == 2 && run.errors.contains("long.webm declares a length of 11574 d 1 h 46 min 40 s (1000000000 s); the player accepts at most 7 d (604800 s)"), "status \(run.status): \(run.errors)")
    }

    /// Before: "has no video stream (sound or subtitles only)". MPEG-4 Part 2 from FFmpeg's encoder, with Vorbis
    /// sound: its decoder (FFmpeg's avdec_mpeg4) is ranked down unless EXTDISPLAY_ALLOW_AVDEC=1.
    @Test func aVideoTrackWithoutADecoderIsNamedWithItsCodecAndWhatToDo() throws {
        let folder = try ClipFiles.folder("limits-codec")
        let file = folder.appendingPathComponent("divx.mkv")
        try ClipFiles.gstLaunch(["matroskamux", "name=m", "!", "filesink", "location=\(file.path)",
                                 "videotestsrc", "num-buffers=10", "!", "video/x-raw,width=64,height=48,framerate=10/1", "!",
                                 "avenc_mpeg4", "!", "m.", "audiotestsrc", "num-buffers=10", "!", "audioconvert", "!",
                                 "vorbisenc", "!", "m."], what: "the MPEG-4 Part 2 clip (gstreamer1.0-libav's avenc_mpeg4)")
        let run = try ClipFiles.play(file, environment: ["EXTDISPLAY_ALLOW_AVDEC": nil])
        #expect(run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("divx.mkv has a video track in MPEG-4 Part 2 (DivX, Xvid), and no installed decoder plays it"),
                "\(run.errors)")
        #expect(run.errors.contains("EXTDISPLAY_ALLOW_AVDEC=1"), "\(run.errors)")
        #expect(!run.errors.contains("no video stream"), "\(run.errors)")
    }

    /// The issue's row: H.264 High 4:4:4 with a sound track said "has no video stream". Made from an OpenH264 clip
    /// with Vorbis sound whose sequence parameter set (and the Matroska avcC copy of it) is patched to profile 244
    /// without constraint flags: h264parse's caps then say `profile=high-4:4:4`, which openh264dec does not take.
    @Test func anH264High444ClipWithSoundIsNamedNotSoundOnly() throws {
        let folder = try ClipFiles.folder("limits-h264")
        let base = folder.appendingPathComponent("base.mkv")
        try ClipFiles.gstLaunch(["matroskamux", "name=m", "!", "filesink", "location=\(base.path)",
                                 "videotestsrc", "num-buffers=10", "!", "video/x-raw,width=64,height=48,framerate=10/1", "!",
                                 "openh264enc", "!", "h264parse", "!", "m.", "audiotestsrc", "num-buffers=10", "!", "audioconvert", "!",
                                 "vorbisenc", "!", "m."], what: "the H.264 clip (gstreamer1.0-plugins-bad's openh264enc)")
        var bytes = [UInt8](try Data(contentsOf: base))
        // avcC: version 1, profile, constraint flags, level; the SPS NAL: 0x67, profile, constraint flags, level.
        let places = ClipFiles.offsets(of: [0x01, 0x42], in: bytes).prefix(1) + ClipFiles.offsets(of: [0x67, 0x42], in: bytes)
        try #require(places.count >= 2, "no avcC and SPS with the baseline profile in the clip")
        for at in places where at + 2 < bytes.count {
            bytes[at + 1] = 244
            bytes[at + 2] = 0
        }
        let file = folder.appendingPathComponent("high444.mkv")
        try Data(bytes).write(to: file)
        let run = try ClipFiles.play(file, environment: ["EXTDISPLAY_ALLOW_AVDEC": nil])
        #expect(run.status == 2, "status \(run.status): \(run.errors)")
        #expect(run.errors.contains("high444.mkv has a video track in H.264/AVC (High 4:4:4 profile), and no installed decoder plays it"),
                "\(run.errors)")
        #expect(run.errors.contains("gstreamer1.0-libav") && run.errors.contains("EXTDISPLAY_ALLOW_AVDEC=1"), "\(run.errors)")
        #expect(!run.errors.contains("no video stream"), "\(run.errors)")
    }

    /// A codec no GStreamer element knows (an AVI four-character code of our own), video only: decodebin's own
    /// "missing a plug-in" becomes the codec's name.
    @Test func anUnknownCodecIsNamedByItsFourCharacterCode() throws {
        let folder = try ClipFiles.folder("limits-fourcc")
        let file = folder.appendingPathComponent("odd.avi")
        try Data(ClipFiles.settingAVICodec(try ClipFiles.mjpegAVI(in: folder), fourcc: "EDKX")).write(to: file)
        do {
            _ = try VideoDecoder(opening: file, timeout: 30)
            Issue.record("a codec nobody decodes was opened")
        } catch {
            guard case .noDecoder(let path, let codec, let advice) = error else {
                Issue.record("not a missing decoder: \(error.description)")
                return
            }
            #expect(path == file.path)
            #expect(codec == "a codec GStreamer does not know (four-character code EDKX)")
            #expect(advice == "no GStreamer package decodes it: convert the clip to WebM (VP8 or VP9)", "\(advice)")
        }
    }

    /// The table and its fallbacks, without GStreamer.
    @Test func codecNamesAndAdviceComeFromTheCaps() {
        let hevc = VideoCodecAdvice(caps: "video/x-h265, stream-format=(string)hvc1, profile=(string)main-444, width=(int)64",
                                    gstreamerName: "H.265 (Main 4:4:4 Profile)", rankedDownDecoder: nil, avdecAllowed: false)
        #expect(hevc.codec == "H.265/HEVC (Main 444 profile)")
        #expect(hevc.advice.contains("install gstreamer1.0-libav") && hevc.advice.contains("EXTDISPLAY_ALLOW_AVDEC=1"))
        let avc = VideoCodecAdvice(caps: "video/x-h264, profile=(string)high-4:4:4", gstreamerName: nil,
                                   rankedDownDecoder: "avdec_h264", avdecAllowed: false)
        #expect(avc.codec == "H.264/AVC (High 4:4:4 profile)")
        #expect(avc.advice.hasPrefix("FFmpeg's avdec_h264 (gstreamer1.0-libav) is installed but not used by default"))
        let mpeg2 = VideoCodecAdvice(caps: "video/mpeg, mpegversion=(int)2, systemstream=(boolean)false", gstreamerName: nil,
                                     rankedDownDecoder: nil, avdecAllowed: false)
        #expect(mpeg2.codec == "MPEG-2 video" && mpeg2.advice.contains("gstreamer1.0-plugins-ugly"))
        let odd = VideoCodecAdvice(caps: "video/x-weird\u{1B}[2J, a=(int){ 1, 2 }", gstreamerName: nil, rankedDownDecoder: nil,
                                   avdecAllowed: false)
        #expect(odd.codec == "the codec video/x-weird\\u{1b}[2J", "control characters are shown escaped: \(odd.codec)")
        #expect(VideoCodecAdvice.fourcc("1481327685") == "EDKX" && VideoCodecAdvice.fourcc("-1") == "0xFFFFFFFF"
                && VideoCodecAdvice.fourcc("1") == "0x1")
        let raw = VideoCodecAdvice(caps: "video/x-avi-unknown, fourcc=(int)0", gstreamerName: nil, rankedDownDecoder: nil,
                                   avdecAllowed: false)
        #expect(raw.codec == "uncompressed AVI pixels in a layout GStreamer does not read (four-character code 0)")
        #expect(raw.advice == "no GStreamer package decodes it: convert the clip to WebM (VP8 or VP9)")
        let named = VideoCodecAdvice(caps: "video/x-cinepak", gstreamerName: "Cinepak Video", rankedDownDecoder: nil, avdecAllowed: false)
        #expect(named.codec == "Cinepak Video" && named.advice.contains("gst-inspect-1.0"))
    }
}
#endif
