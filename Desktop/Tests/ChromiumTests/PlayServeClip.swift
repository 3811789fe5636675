import ExtDisplayTestSupport
import Foundation

/// A clip made by the test with `gst-launch-1.0`, never by the code under test: one solid colour per second,
/// cycling through ``palette``, 160×90 at 30 fps, in the container and codec asked for. The colours are the oracle:
/// second `s` shows `palette[s % palette.count]`.
struct PlayServeClip {
    /// Colours with every channel far from the others' (so VP8's and 4:2:0's small shifts never confuse two).
    static let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0),
                                                    (255, 0, 255), (0, 255, 255)]

    /// How a clip is encoded: `encoder ! muxer` and the file's extension.
    enum Format: String {
        /// VP8 in WebM: what Chromium plays.
        case vp8WebM = "vp8enc deadline=1 ! webmmux"
        /// Motion JPEG in AVI: a container Chromium does not play.
        case mjpegAVI = "jpegenc ! avimux"
        /// Motion JPEG in Matroska: a container Chromium reads, with a codec it does not decode.
        case mjpegMatroska = "jpegenc ! matroskamux"

        var fileExtension: String { self == .vp8WebM ? "webm" : self == .mjpegAVI ? "avi" : "mkv" }
    }

    let url: URL

    /// Makes `seconds` seconds of colours in `format`; throws with gst-launch-1.0's output when it fails.
    static func make(seconds: Int, format: Format = .vp8WebM) throws -> PlayServeClip {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("colours.\(format.fileExtension)")
        var pipeline = "concat name=c ! videoconvert ! \(format.rawValue) ! filesink location=\(url.path)"
        for second in 0..<seconds {
            let (r, g, b) = palette[second % palette.count]
            let argb = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            pipeline += " videotestsrc pattern=solid-color foreground-color=\(argb) num-buffers=30"
                + " ! video/x-raw,width=160,height=90,framerate=30/1,format=I420 ! c."
        }
        let result = try Shell.run(["timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q"]
                                   + pipeline.split(separator: " ").map(String.init))
        guard result.status == 0, FileManager.default.fileExists(atPath: url.path) else {
            throw SupportError("gst-launch-1.0 could not make the clip (status \(result.status)): \(result.output); "
                               + "install gstreamer1.0-tools, -plugins-base and -plugins-good (scripts/install-deps.sh)")
        }
        return PlayServeClip(url: url)
    }

    /// The second (mod the palette's length) whose colour r, g, b is, or nil for any other colour.
    static func colourIndex(_ r: Int, _ g: Int, _ b: Int) -> Int? {
        palette.firstIndex { abs(Int($0.0) - r) <= 60 && abs(Int($0.1) - g) <= 60 && abs(Int($0.2) - b) <= 60 }
    }
}
