#if canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation
import Testing

/// Random clip files (seeded): a small Motion-JPEG AVI or VP8 WebM made by gst-launch-1.0, its headers then set to
/// extreme values — picture sizes (0, 1, 8192, 8193, 65535, random), frame rates (0, a zero scale, −1 through the
/// signed fraction, a million, 1/1000), lengths (0, −1, 10³⁰⁰ ms, NaN, a frame count of 2³²−1), codecs (another
/// codec's four-character code on JPEG frames, an unknown one, 0 with an odd bit depth) — and cut short.
/// Each is opened by the decoder in this process, played by `extdisplay play` headless — a clean message or a
/// picture, an exit status the CLI documents (0, 1, 2), never "negotiation problem", never a signal, and the
/// child's peak memory under a bound (a small one when a limit refused the file) — and put on the first slide of a
/// Markdown deck for `extdisplay present` headless, whose talk goes on to slide 2 with status 0. Each child runs
/// under a hang guard; nothing is timed.
///
/// `EDK_CLIP_SEED=N` replays one seed, `EDK_CLIP_COUNT=N` runs N seeds (default 4, a few seconds).
@Suite("random clip files against the decoder, extdisplay play and present", .serialized)
struct RandomClipFileTests {
    /// The most one input may cost `extdisplay play`, MiB: an accepted 8192×8192 picture (the limit) is decoded,
    /// converted to RGBA (256 MiB) and copied; a 65535² one refused costs nothing of it (decoded, it would be 6 GiB).
    static let peakMiB = 1_536.0

    /// What the refusals by a limit say: a refused file must cost no more than ``DecodingLimitsTests/refusedPeakMiB``
    /// (its picture never allocated).
    static let limitMessages = ["pixels a side", "frames per second;", "streams;", "declares a length of"]

    /// A xorshift generator (the seed's sequence is the same on every machine).
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
    }

    /// One input: the file's bytes and what was done to them (for the failure message).
    static func clip(seed: UInt64, avi: [UInt8], webm: [UInt8]) -> (bytes: [UInt8], name: String, what: [String]) {
        var g = Generator(seed: seed)
        var what: [String] = []
        let sides = [0, 1, 16, 8192, 8193, 65535]
        func side() -> Int { g.chance(80) ? g.pick(sides) : g.below(65536) }
        var bytes: [UInt8]
        let name: String
        if g.chance(60) {
            name = "clip-\(seed).avi"
            bytes = avi
            if g.chance(60) {
                let (w, h) = (side(), side())
                bytes = ClipFiles.settingJPEGSize(bytes, width: w, height: h)
                what.append("JPEG SOF \(w)×\(h)")
            }
            if g.chance(30) {
                let values: [UInt32] = [0, 1, 16, 8192, 8193, 65535, 0x7FFF_FFFF, 0xFFFF_FFFF]
                let (w, h) = (g.pick(values), g.pick(values))
                bytes = ClipFiles.settingAVISize(bytes, width: w, height: h)
                what.append("AVI header \(w)×\(h)")
            }
            if g.chance(40) {
                let pairs: [(UInt32, UInt32)] = [(0, 1), (1, 0), (0xFFFF_FFFF, 1), (1, 0xFFFF_FFFF), (1_000_000, 1), (30, 1),
                                                 (30000, 1001), (1, 1000), (UInt32(truncatingIfNeeded: g.next()), UInt32(truncatingIfNeeded: g.next()))]
                let (rate, scale) = g.pick(pairs)
                bytes = ClipFiles.settingAVIRate(bytes, rate: rate, scale: scale)
                what.append("AVI rate \(rate)/\(scale)")
            }
            if g.chance(20) {
                // Another codec's name on JPEG frames, one nobody knows, or 0 (uncompressed, in an odd bit depth).
                let fourcc = g.pick(["H264", "VP80", "XVID", "EDKX", "\u{0}\u{0}\u{0}\u{0}"])
                bytes = ClipFiles.settingAVICodec(bytes, fourcc: fourcc)
                if let strf = ClipFiles.chunk("strf", in: bytes), strf + 16 <= bytes.count {
                    bytes[strf + 14] = UInt8(g.pick([1, 4, 24, 64]))
                }
                what.append("AVI codec \(fourcc.debugDescription)")
            }
            if g.chance(25) {
                let frames = g.pick([UInt32(0), 1, 0xFFFF_FFFF])
                if let strh = ClipFiles.chunk("strh", in: bytes) { bytes = ClipFiles.setting32(bytes, at: strh + 32, frames) }
                if let avih = ClipFiles.chunk("avih", in: bytes) { bytes = ClipFiles.setting32(bytes, at: avih + 16, frames) }
                what.append("AVI length \(frames) frames")
            }
        } else {
            name = "clip-\(seed).webm"
            bytes = webm
            if g.chance(60) {
                let (w, h) = (g.pick([0, 1, 16, 8192, 8193, 16383]), g.pick([0, 1, 16, 8192, 8193, 16383]))
                bytes = ClipFiles.settingVP8Size(bytes, width: w, height: h)
                what.append("VP8 key frame \(w)×\(h)")
            }
            if g.chance(40) {
                let milliseconds = g.pick([0, -1, 1e300, Double.nan, Double.infinity, 1e12, 100, 6.048e8])
                bytes = ClipFiles.settingMatroskaDuration(bytes, milliseconds: milliseconds)
                what.append("Matroska duration \(milliseconds) ms")
            }
        }
        if g.chance(30) {
            let keep = max(1, g.below(bytes.count))
            bytes = Array(bytes.prefix(keep))
            what.append("cut to \(keep) bytes")
        }
        return (bytes, name, what.isEmpty ? ["unchanged"] : what)
    }

    @Test("random clip files (seeded; EDK_CLIP_SEED=N replays one, EDK_CLIP_COUNT=N runs N seeds)")
    func randomClipFilesGetCleanMessagesWithBoundedMemory() throws {
        let environment = ProcessInfo.processInfo.environment
        let fixed = environment["EDK_CLIP_SEED"].flatMap(UInt64.init)
        let count = environment["EDK_CLIP_COUNT"].flatMap(Int.init) ?? 4
        let seeds: [UInt64] = fixed.map { [$0] } ?? (0..<max(1, count)).map { UInt64($0) &* 7919 &+ 3 }
        let folder = try ClipFiles.folder("random-clips")
        let avi = try ClipFiles.mjpegAVI(in: folder)
        let webmFile = folder.appendingPathComponent("base.webm")
        try ClipFiles.gstLaunch(["videotestsrc", "num-buffers=3", "!", "video/x-raw,width=16,height=16,framerate=30/1", "!",
                                 "vp8enc", "deadline=1", "!", "webmmux", "!", "filesink", "location=\(webmFile.path)"],
                                what: "the WebM clip")
        let webm = [UInt8](try Data(contentsOf: webmFile))
        var outcomes: [String: Int] = [:]
        var highest = 0.0
        for seed in seeds {
            let input = Self.clip(seed: seed, avi: avi, webm: webm)
            let replay = "seed \(seed) (\(input.what.joined(separator: ", "))); replay with EDK_CLIP_SEED=\(seed) swift test "
                + "--package-path Desktop --skip-build --filter RandomClipFileTests"
            let file = folder.appendingPathComponent(input.name)
            try Data(input.bytes).write(to: file)
            do {
                let decoder = try VideoDecoder(opening: file, timeout: 5)
                #expect((1...DecodingLimits.maxSide).contains(decoder.info.width)
                        && (1...DecodingLimits.maxSide).contains(decoder.info.height), "\(decoder.info): \(replay)")
                outcomes["opened", default: 0] += 1
            } catch {
                #expect(!error.description.isEmpty && !error.description.contains("negotiat"), "\(error.description): \(replay)")
                outcomes["refused", default: 0] += 1
            }
            let run = try ClipFiles.play(file)
            #expect([0, 1, 2].contains(run.status), "status \(run.status): \(run.errors): \(replay)")
            #expect(run.status == 0 || !run.errors.isEmpty, "status \(run.status) without a message: \(replay)")
            #expect(!run.errors.contains("negotiat"), "\(run.errors): \(replay)")
            #expect(run.peakMiB < Self.peakMiB, "peak \(run.peakMiB) MiB: \(replay)")
            if Self.limitMessages.contains(where: run.errors.contains) {
                #expect(run.peakMiB < DecodingLimitsTests.refusedPeakMiB,
                        "refused by a limit, yet peak \(run.peakMiB) MiB (checked after allocating?): \(replay)")
            }
            highest = max(highest, run.peakMiB)
            print("seed \(seed): \(input.what.joined(separator: ", ")) → play status \(run.status), \(Int(run.peakMiB)) MiB")
            // The clip on a slide: the talk goes on past it (status 0, slide 2 reached), whatever the clip is.
            let deck = folder.appendingPathComponent("talk-\(seed).md")
            try "# Clip\n![clip](\(input.name))\n---\n# After\nstill here\n".write(to: deck, atomically: true, encoding: .utf8)
            let talk = try ClipFiles.present(deck, keys: "wait:0.2,next")
            #expect(talk.status == 0 && talk.output.contains("next: slide 2 of 2"),
                    "present: status \(talk.status): \(talk.output)\n\(talk.errors): \(replay)")
            #expect(!(talk.output + talk.errors).contains("negotiat"), "present: \(talk.output): \(replay)")
            #expect(talk.peakMiB < Self.peakMiB, "present: peak \(talk.peakMiB) MiB: \(replay)")
            highest = max(highest, talk.peakMiB)
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: deck)
        }
        print("random clip files: \(outcomes.sorted { $0.key < $1.key }), highest peak \(Int(highest)) MiB, over seeds \(seeds)")
    }
}
#endif
