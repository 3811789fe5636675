#if canImport(CSDL2)
import DesktopVideo
import ExtDisplayTestSupport
import Foundation

/// Clip files made at test time with hostile headers: a small Motion-JPEG AVI (gst-launch-1.0's jpegenc and avimux)
/// whose headers are then patched by hand (the JPEG frames' SOF size, the AVI stream's rate, size and codec), and
/// the `extdisplay play` run that measures what opening one costs.
enum ClipFiles {
    /// A folder of its own for a test's files.
    static func folder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs gst-launch-1.0 `pipeline` (its words) under a 60 s hang guard; throws its output when it fails.
    static func gstLaunch(_ pipeline: [String], what: String) throws {
        let made = try Shell.run(["timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q"] + pipeline)
        guard made.status == 0 else { throw SupportError("gst-launch-1.0 could not make \(what) (status \(made.status)): \(made.output)") }
    }

    /// A Motion-JPEG AVI of `frames` 16×16 frames at 30 fps, as bytes.
    static func mjpegAVI(in folder: URL, frames: Int = 3) throws -> [UInt8] {
        let file = folder.appendingPathComponent("base.avi")
        try gstLaunch(["videotestsrc", "num-buffers=\(frames)", "!", "video/x-raw,width=16,height=16,framerate=30/1", "!",
                       "jpegenc", "!", "avimux", "!", "filesink", "location=\(file.path)"], what: "the MJPEG AVI")
        return [UInt8](try Data(contentsOf: file))
    }

    /// The offsets of every occurrence of `pattern` in `bytes`.
    static func offsets(of pattern: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard bytes.count >= pattern.count else { return [] }
        return (0...(bytes.count - pattern.count)).filter { start in
            pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] }
        }
    }

    /// Sets every JPEG frame header's (SOF0, `FF C0`) picture size; `width` and `height` are 16-bit.
    static func settingJPEGSize(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = bytes
        for at in offsets(of: [0xFF, 0xC0], in: bytes) where at + 9 <= out.count {
            out[at + 5] = UInt8((height >> 8) & 0xFF)
            out[at + 6] = UInt8(height & 0xFF)
            out[at + 7] = UInt8((width >> 8) & 0xFF)
            out[at + 8] = UInt8(width & 0xFF)
        }
        return out
    }

    /// Writes a little-endian 32-bit value at `offset` (the data of an AVI chunk starts 8 bytes after its name).
    static func setting32(_ bytes: [UInt8], at offset: Int, _ value: UInt32) -> [UInt8] {
        var out = bytes
        guard offset >= 0, offset + 4 <= out.count else { return out }
        for i in 0..<4 { out[offset + i] = UInt8((value >> (8 * UInt32(i))) & 0xFF) }
        return out
    }

    /// The offset of the data of the first AVI chunk named `name` (`avih`, `strh`, `strf`), if any.
    static func chunk(_ name: String, in bytes: [UInt8]) -> Int? {
        offsets(of: Array(name.utf8), in: bytes).first.map { $0 + 8 }
    }

    /// Sets the video stream's rate (`strh` dwScale and dwRate: `rate`/`scale` frames per second; 0xFFFFFFFF reads
    /// as −1 in GStreamer's signed fraction) and the main header's microseconds per frame to match (avidemux
    /// prefers that when the stream's rate is below 1 fps).
    static func settingAVIRate(_ bytes: [UInt8], rate: UInt32, scale: UInt32) -> [UInt8] {
        var out = bytes
        if let strh = chunk("strh", in: out) { out = setting32(setting32(out, at: strh + 20, scale), at: strh + 24, rate) }
        if let avih = chunk("avih", in: out), rate > 0 {
            out = setting32(out, at: avih, UInt32(min(Double(UInt32.max), Double(scale) * 1e6 / Double(rate))))
        }
        return out
    }

    /// Sets the AVI header's picture size (`strf` biWidth/biHeight and `avih` dwWidth/dwHeight).
    static func settingAVISize(_ bytes: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var out = bytes
        if let strf = chunk("strf", in: out) { out = setting32(setting32(out, at: strf + 4, width), at: strf + 8, height) }
        if let avih = chunk("avih", in: out) { out = setting32(setting32(out, at: avih + 32, width), at: avih + 36, height) }
        return out
    }

    /// Sets the video stream's codec (`strh` fccHandler and `strf` biCompression) to the four characters `fourcc`.
    static func settingAVICodec(_ bytes: [UInt8], fourcc: String) -> [UInt8] {
        let code = Array(fourcc.utf8.prefix(4))
        var out = bytes
        for at in [chunk("strh", in: out).map { $0 + 4 }, chunk("strf", in: out).map { $0 + 16 }].compactMap({ $0 })
        where at + 4 <= out.count {
            for i in 0..<code.count { out[at + i] = code[i] }
        }
        return out
    }

    /// Sets a Matroska file's Duration (element `44 89`, an 8-byte float of TimecodeScale units: milliseconds as
    /// matroskamux writes it).
    static func settingMatroskaDuration(_ bytes: [UInt8], milliseconds: Double) -> [UInt8] {
        var out = bytes
        guard let at = offsets(of: [0x44, 0x89, 0x88], in: bytes).first, at + 11 <= out.count else { return out }
        let bits = milliseconds.bitPattern
        for i in 0..<8 { out[at + 3 + i] = UInt8((bits >> (8 * UInt64(7 - i))) & 0xFF) }
        return out
    }

    /// Sets every VP8 key frame's declared picture size (the 14-bit fields after the start code `9D 01 2A`).
    static func settingVP8Size(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = bytes
        for at in offsets(of: [0x9D, 0x01, 0x2A], in: bytes) where at + 7 <= out.count {
            out[at + 3] = UInt8(width & 0xFF)
            out[at + 4] = UInt8((width >> 8) & 0x3F) | (out[at + 4] & 0xC0)
            out[at + 5] = UInt8(height & 0xFF)
            out[at + 6] = UInt8((height >> 8) & 0x3F) | (out[at + 6] & 0xC0)
        }
        return out
    }

    /// What one measured `extdisplay` run (headless) did.
    struct PlayRun {
        var status: Int32
        var output: String
        var errors: String
        /// The peak resident memory of the run, in MiB (GNU time's %M: the largest of the run and its children).
        var peakMiB: Double
    }

    /// Runs `extdisplay play` on `file` headless (`--simulate laptop --keys KEYS --snapshot …`), measured (``measured(_:in:environment:hangGuard:)``).
    static func play(_ file: URL, keys: String = "wait:0.2", environment: [String: String?] = [:],
                     hangGuard: Int = 120) throws -> PlayRun {
        try measured(["play", file.path, "--simulate", "laptop", "--keys", keys], in: file.deletingLastPathComponent(),
                     environment: environment, hangGuard: hangGuard)
    }

    /// Runs `extdisplay present` on `deck` headless (`--simulate laptop,hdmi-tv-1080p --keys KEYS --snapshot …`),
    /// measured.
    static func present(_ deck: URL, keys: String, hangGuard: Int = 120) throws -> PlayRun {
        try measured(["present", deck.path, "--simulate", "laptop,hdmi-tv-1080p", "--keys", keys],
                     in: deck.deletingLastPathComponent(), environment: [:], hangGuard: hangGuard)
    }

    /// Runs `extdisplay ARGUMENTS --snapshot FOLDER/…` headless under a hang guard (`timeout -s KILL`), measured by
    /// GNU time (`/usr/bin/time`, Debian's `time`). Not wait4's ru_maxrss of a child spawned from here: Linux carries
    /// the spawning process's high-water mark into the child at exec (posix_spawn shares this process's memory until
    /// then), so a test process that once decoded a big picture would be counted; `time` forks from a small process.
    /// `environment` is added (nil unsets).
    static func measured(_ arguments: [String], in folder: URL, environment: [String: String?],
                         hangGuard: Int) throws -> PlayRun {
        let binary = try Repository.extdisplay().path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw SupportError("/usr/bin/time is missing: install Debian's time package (scripts/install-deps.sh)")
        }
        let stem = folder.appendingPathComponent("run-\(UUID().uuidString)")
        let output = stem.appendingPathExtension("stdout"), errors = stem.appendingPathExtension("stderr")
        let peak = stem.appendingPathExtension("peak"), shots = stem.appendingPathExtension("shots")
        defer {
            for made in [output, errors, peak, shots] { try? FileManager.default.removeItem(at: made) }
        }
        var merged: [String: String?] = ["DISPLAY": "", "WAYLAND_DISPLAY": ""]
        for (key, value) in environment { merged[key] = value }
        let pid = try Shell.spawn(["/usr/bin/time", "-f", "%M", "-o", peak.path, "timeout", "-s", "KILL", "\(hangGuard)", binary]
                                  + arguments + ["--snapshot", shots.path],
                                  environment: merged, output: output.path, errors: errors.path)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        // time writes "Command exited with non-zero status N" or "Command terminated by signal N" before the figure.
        let kilobytes = ((try? String(contentsOf: peak, encoding: .utf8)) ?? "").split(separator: "\n").last.flatMap { Double($0) }
        guard let kilobytes else { throw SupportError("no peak memory from /usr/bin/time for \(arguments) (status \(exit)): \(text)") }
        return PlayRun(status: exit, output: printed, errors: text, peakMiB: kilobytes / 1024)
    }
}
#endif
