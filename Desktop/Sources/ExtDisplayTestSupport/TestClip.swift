import Foundation

/// A video made by the test with `gst-launch-1.0` (never by the code under test): solid-colour segments of one
/// second each, concatenated, VP8 in WebM (libvpx through gst-plugins-good: no GPL code), optionally with a
/// Vorbis sound track. The colours are the oracle: segment `i` fills `i ..< i + 1` seconds. Shared by the tests
/// that play it under Xorg (GStreamerTests) and on Wayland compositors (SwayTests).
public struct TestClip: Sendable {
    /// The colours, one per second, as 0xRRGGBB.
    public static let palette: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF, 0xFFFF00, 0xFF00FF, 0x00FFFF, 0x808080]

    /// The file.
    public let url: URL
    /// The colours, one per second.
    public let colors: [UInt32]
    /// Frames per second.
    public let fps: Int

    /// Makes the clip in a fresh folder: `colors` one second each at `fps`, 160×90 (16:9), with a sound track
    /// when `audio` is true. Fails with the tool's output when gst-launch-1.0 or a plugin is missing.
    public static func make(fps: Int, colors: [UInt32] = palette, audio: Bool = false, name: String = "clip.webm") throws -> TestClip {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gst-clip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        var arguments = ["gst-launch-1.0", "-q", "concat", "name=c", "!", "videoconvert", "!", "vp8enc", "deadline=1",
                         "!", "m.", "webmmux", "name=m", "!", "filesink", "location=\(url.path)"]
        for color in colors {
            arguments += ["videotestsrc", "pattern=solid-color", "foreground-color=\(0xFF00_0000 | color)",
                          "num-buffers=\(fps)", "!", "video/x-raw,width=160,height=90,framerate=\(fps)/1", "!", "c."]
        }
        if audio {
            let buffers = (colors.count * 44_100 + 1023) / 1024
            arguments += ["audiotestsrc", "num-buffers=\(buffers)", "samplesperbuffer=1024", "!",
                          "audio/x-raw,rate=44100", "!", "audioconvert", "!", "vorbisenc", "!", "m."]
        }
        let result = try Shell.run(["timeout", "-s", "KILL", "60"] + arguments)
        guard result.status == 0, FileManager.default.fileExists(atPath: url.path) else {
            throw SupportError("gst-launch-1.0 could not make the test clip (status \(result.status)): \(result.output); "
                               + "install gstreamer1.0-tools and gstreamer1.0-plugins-good (scripts/install-deps.sh)")
        }
        return TestClip(url: url, colors: colors, fps: fps)
    }

    /// The colour the clip shows at `seconds`.
    public func color(at seconds: Double) -> UInt32 { colors[max(0, min(colors.count - 1, Int(seconds.rounded(.down))))] }

    /// A copy of the clip cut after `fraction` of its bytes.
    public func truncated(to fraction: Double) throws -> URL {
        let data = try Data(contentsOf: url)
        let cut = url.deletingLastPathComponent().appendingPathComponent("truncated.webm")
        try data.prefix(Int(Double(data.count) * fraction)).write(to: cut)
        return cut
    }

    /// Whether an RGB colour is within `tolerance` per channel of 0xRRGGBB (VP8 and 4:2:0 shift solid colours a
    /// little).
    public static func matches(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ expected: UInt32, tolerance: Int = 40) -> Bool {
        let want = [Int((expected >> 16) & 0xFF), Int((expected >> 8) & 0xFF), Int(expected & 0xFF)]
        return zip([Int(r), Int(g), Int(b)], want).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// `#RRGGBB`.
    public static func hex(_ color: UInt32) -> String { String(format: "#%06X", color) }
}
