// present-bench decoder: what decoding in a process of its own (`extdisplay-decoder`, the default) costs next to
// decoding in this process, side by side in one run, on clips gst-launch-1.0 makes (videotestsrc, 10 s):
//
//   scripts/bench-decoder.sh [--runs 15]
//   (swift build -c release --product extdisplay-decoder && swift build -c release --product present-bench &&
//    Desktop/.build/release/present-bench decoder [--runs 15])
//
// For each clip and each way, interleaved run by run (so a busy moment of the machine falls on both): the first
// frame (`VideoDecoder(opening:)`: for the process, its start, GStreamer's start in it and the preroll), a seek
// (`frame(at:)`, an accurate seek to a random time, the frame copied back), and streaming (frames per second of
// `startStreaming` then `streamFrame` as fast as the decoder gives them). Medians and 90th percentiles.
#if canImport(CSDL2)
import DesktopVideo
import Foundation

func decoderBench(_ arguments: [String]) {
    var runs = 15
    var args = arguments[...]
    while let arg = args.popFirst() {
        guard arg == "--runs", let n = Int(args.popFirst() ?? ""), (1...1000).contains(n) else {
            FileHandle.standardError.write(Data("usage: present-bench decoder [--runs N, 1…1000]\n".utf8))
            exit(2)
        }
        runs = n
    }
    do { try DecoderBench(runs: runs).run() } catch {
        FileHandle.standardError.write(Data("present-bench decoder: \(error)\n".utf8))
        exit(2)
    }
}

struct DecoderBench {
    var runs: Int

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A clip made by gst-launch-1.0: `encoder` after videotestsrc at `width`×`height`, 30 fps, 10 s.
    static func makeClip(in folder: URL, name: String, width: Int, height: Int, encoder: [String], muxer: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gst-launch-1.0", "-q", "videotestsrc", "pattern=ball", "num-buffers=300", "!",
                             "video/x-raw,width=\(width),height=\(height),framerate=30/1", "!"] + encoder
            + ["!", muxer, "!", "filesink", "location=\(file.path)"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "gst-launch-1.0 could not make \(name)") }
        return file
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decoder-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clips = [
            ("VP8 1280×720", try Self.makeClip(in: folder, name: "720p.webm", width: 1280, height: 720,
                                               encoder: ["vp8enc", "deadline=1", "keyframe-max-dist=30"], muxer: "webmmux")),
            ("VP9 1920×1080", try Self.makeClip(in: folder, name: "1080p.webm", width: 1920, height: 1080,
                                                encoder: ["vp9enc", "deadline=1", "cpu-used=8", "keyframe-max-dist=30"],
                                                muxer: "webmmux")),
        ]
        let ways: [VideoDecoder.Isolation] = [.process, .inProcess]
        print("present-bench decoder: \(runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores; ms, median (p90)")
        print("| clip | decoding | first frame | seek | streaming |")
        print("| --- | --- | --- | --- | --- |")
        for (name, clip) in clips {
            // GStreamer started in this process, and its registry read, before anything is timed.
            for way in ways { _ = try VideoDecoder(opening: clip, isolation: way).frame(at: 1) }
            var first: [VideoDecoder.Isolation: [Double]] = [:]
            var seek: [VideoDecoder.Isolation: [Double]] = [:]
            var fps: [VideoDecoder.Isolation: [Double]] = [:]
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<runs {
                let times = (0..<5).map { _ in Double.random(in: 0.2...9.5, using: &generator) }
                for way in ways {
                    var decoder: VideoDecoder?
                    first[way, default: []].append(try Self.seconds { decoder = try VideoDecoder(opening: clip, isolation: way) })
                    guard let decoder else { continue }
                    for time in times {
                        seek[way, default: []].append(try Self.seconds { _ = try decoder.frame(at: time) })
                    }
                    var frames = 0
                    let streamed = try Self.seconds {
                        try decoder.startStreaming(from: 0)
                        while frames < 60 {
                            if try decoder.streamFrame(upTo: 100) != nil { frames += 1 } else { usleep(200) }
                        }
                    }
                    fps[way, default: []].append(Double(frames) / streamed)
                }
            }
            for way in ways {
                let f = first[way] ?? [], s = seek[way] ?? [], r = fps[way] ?? []
                print("| \(name) | \(way == .process ? "decoder process" : "in process") "
                      + String(format: "| %.1f (%.1f) | %.1f (%.1f) | %.0f fps (p10 %.0f) |",
                             Self.percentile(f, 0.5) * 1000, Self.percentile(f, 0.9) * 1000,
                             Self.percentile(s, 0.5) * 1000, Self.percentile(s, 0.9) * 1000,
                             Self.percentile(r, 0.5), Self.percentile(r, 0.1)))
            }
        }
    }
}
#endif
