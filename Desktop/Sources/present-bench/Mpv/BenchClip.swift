// The clips the mpv benchmark plays: every frame shows its number as a ``FrameIndexCode`` (the same on every row),
// written as raw I420 to `gst-launch-1.0 fdsrc ! rawvideoparse ! vp8enc ! webmmux` (one key frame a second).
import Foundation

/// A benchmark clip: its size, rate and length.
struct BenchClip {
    let width: Int
    let height: Int
    let fps: Int
    let seconds: Int

    var frames: Int { fps * seconds }
    var name: String { "\(height)p\(fps)-\(seconds)s.webm" }

    /// One I420 frame showing `index` (BT.601 studio-range values: rawvideoparse's default colorimetry for the
    /// players to convert is what they pick; only "clearly red/white/black" matters to the decoder).
    func frame(_ index: Int) -> Data {
        let blocks = FrameIndexCode.blocks(of: index)
        func yuv(_ b: FrameIndexCode.Block) -> (UInt8, UInt8, UInt8) {
            switch b {
            case .red: (82, 90, 240)
            case .white: (235, 128, 128)
            case .black: (16, 128, 128)
            }
        }
        let lumaRow = (0..<width).map { yuv(blocks[FrameIndexCode.block(atColumn: $0, width: width)]).0 }
        let uRow = (0..<width / 2).map { yuv(blocks[FrameIndexCode.block(atColumn: $0 * 2, width: width)]).1 }
        let vRow = (0..<width / 2).map { yuv(blocks[FrameIndexCode.block(atColumn: $0 * 2, width: width)]).2 }
        var data = Data(capacity: width * height * 3 / 2)
        for _ in 0..<height { data.append(contentsOf: lumaRow) }
        for _ in 0..<height / 2 { data.append(contentsOf: uRow) }
        for _ in 0..<height / 2 { data.append(contentsOf: vRow) }
        return data
    }

    /// Writes the clip into `directory` (kept there: a second run reuses it) and returns its path.
    func make(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let partial = directory.appendingPathComponent(name + ".part")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q", "fdsrc", "fd=0", "!",
                             "rawvideoparse", "width=\(width)", "height=\(height)", "format=i420", "framerate=\(fps)/1", "!",
                             "vp8enc", "deadline=1", "cpu-used=16", "threads=2", "keyframe-max-dist=\(fps)",
                             "target-bitrate=4000000", "!", "webmmux", "!", "filesink", "location=\(partial.path)"]
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gst-launch-1.0") else {
            throw BenchError("gst-launch-1.0 is missing: scripts/install-deps.sh (gstreamer1.0-tools, plugins-good)")
        }
        try process.run()
        for index in 0..<frames { try pipe.fileHandleForWriting.write(contentsOf: frame(index)) }
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("gst-launch-1.0 could not make \(name) (exit \(process.terminationStatus))") }
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }
}
