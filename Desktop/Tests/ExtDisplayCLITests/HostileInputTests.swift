#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// `extdisplay` run as a careless or hostile user would, headless (no DISPLAY): every input gets a clear
/// message and an exit status, nothing traps (status 132–134 or a signal), nothing hangs (each run is bounded
/// by a generous guard), and a failed snapshot write leaves no file under its final name.
@Suite("Hostile inputs (headless)")
struct HostileInputTests {
    /// The binary under test (`Repository.extdisplay()`: never a missing or stale one).
    static var extdisplay: String { get throws { try Repository.extdisplay().path } }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs extdisplay headless under a 60 s hang guard; returns status, stdout and stderr.
    static func run(_ arguments: [String], in dir: URL, shell prefix: String = "") throws -> (Int32, String, String) {
        let out = dir.appendingPathComponent("stdout-\(UUID().uuidString)"), err = dir.appendingPathComponent("stderr-\(UUID().uuidString)")
        let quoted = ([try extdisplay] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = "cd '\(dir.path)' && \(prefix) exec timeout -s KILL 60 \(quoted.joined(separator: " ")) >'\(out.path)' 2>'\(err.path)'"
        let status = try Shell.run(["sh", "-c", script], environment: ["DISPLAY": ""]).status
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        return (status, (try? String(contentsOf: out, encoding: .utf8)) ?? "", (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    static func deck(in dir: URL, _ text: String = "# One\n- a\n---\n# Two\n") throws -> String {
        try text.write(to: dir.appendingPathComponent("deck.md"), atomically: true, encoding: .utf8)
        return "deck.md"
    }

    @Test func decksThatAreNotFilesAreRefusedByName() throws {
        let dir = try Self.folder()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("adir.md"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("zero.md").path, withDestinationPath: "/dev/zero")
        #expect(mkfifo(dir.appendingPathComponent("fifo.md").path, 0o644) == 0)
        try Data(count: 5 << 20).write(to: dir.appendingPathComponent("huge.md"))
        for (name, expected) in [("adir.md", "is a directory"), ("zero.md", "is a device"), ("fifo.md", "is a FIFO"),
                                 ("huge.md", "more than the limit of 4194304 bytes"), ("none.md", "does not exist")] {
            let (status, _, err) = try Self.run(["present", name, "--simulate", "laptop"], in: dir)
            #expect(status == 2, "\(name): status \(status)")
            #expect(err.contains(expected), "\(name): \(err)")
            #expect(!err.contains("NSCocoaErrorDomain") && !err.contains("permission"), "\(name): \(err)")
        }
    }

    @Test func unreadableImagesAreReportedWithSlideAndLineAndTheTalkGoesOn() throws {
        let dir = try Self.folder()
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        header += [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]  // 100000×100000
        try Data(header).write(to: dir.appendingPathComponent("huge.png"))
        try Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).write(to: dir.appendingPathComponent("logo.svg"))
        #expect(mkfifo(dir.appendingPathComponent("pipe.png").path, 0o644) == 0)
        let deck = try Self.deck(in: dir, "# Images\n![big](huge.png)\n---\n# More\n\n![logo](logo.svg)\n![pipe](pipe.png)\n")
        let (status, out, err) = try Self.run(["present", deck, "--simulate", "laptop,hdmi-tv-1080p", "--keys", "next,next"], in: dir)
        #expect(status == 0, "status \(status): \(err)")
        #expect(err.contains("deck.md: slide 1, line 2: image 'huge.png' cannot be shown: the image is 100000×100000"), "\(err)")
        #expect(err.contains("deck.md: slide 2, line 6: image 'logo.svg' cannot be shown: SVG images are not supported"), "\(err)")
        #expect(err.contains("deck.md: slide 2, line 7: image 'pipe.png' cannot be shown: is a FIFO"), "\(err)")
        #expect(out.contains("002 next: slide 2 of 2"), "\(out)")
    }

    @Test(arguments: [
        (["--keys", "next,wait:1e308"], "wait takes a number of seconds in 0…1000000000"),
        (["--keys", "wait:nan"], "wait takes a number of seconds"),
        (["--keys", "wait:-1"], "wait takes a number of seconds"),
        (["--keys", "mode:hdmi-tv-1080p:99999x99999"], "each side in 1…16384"),
        (["--mode", "99999x99999"], "each side must be 1…16384"),
        (["--mode", "0x0"], "each side must be 1…16384"),
        (["--simulate", "hdmi-tv-1080p,laptop"], "'laptop' in --simulate is a device"),
        (["--simulate", "laptop,projector-of-doom"], "unknown display preset 'projector-of-doom'"),
    ])
    func absurdValuesAreRefusedWithTheRange(extra: [String], expected: String) throws {
        let dir = try Self.folder()
        var arguments = ["present", try Self.deck(in: dir)] + extra
        if !extra.contains("--simulate") { arguments += ["--simulate", "laptop,hdmi-tv-1080p"] }
        let (status, _, err) = try Self.run(arguments, in: dir)
        #expect(status != 0 && status < 128, "\(extra): status \(status)")
        #expect(err.contains(expected), "\(extra): \(err)")
    }

    @Test func otherCommandsRefuseAbsurdNumbers() throws {
        let dir = try Self.folder()
        let cases: [([String], String)] = [
            (["watch", "--set-mode", "DUMMY1=1024x768@nan"], "refresh rate must be a number of Hz in 1…1000"),
            (["watch", "--set-mode", "DUMMY1=99999x99999"], "each side must be 1…16384"),
            (["nowplaying", "--title", "x", "--duration", "1e13"], "in (0, 1e9]"),
            (["nowplaying", "--title", "x", "--duration", "inf"], "in (0, 1e9]"),
        ]
        for (arguments, expected) in cases {
            let (status, _, err) = try Self.run(arguments, in: dir)
            #expect(status != 0 && status < 128, "\(arguments): status \(status)")
            #expect(err.contains(expected), "\(arguments): \(err)")
        }
    }

    @Test func optionsWithoutEffectGetAMessage() throws {
        let dir = try Self.folder()
        let (status, _, err) = try Self.run(["present", try Self.deck(in: dir), "--simulate", "laptop", "--display", "DUMMY1"], in: dir)
        #expect(status == 0)
        #expect(err.contains("--display DUMMY1 has no effect on simulated displays"), "\(err)")
    }

    @Test func aFullDiskLeavesNoSnapshotUnderItsFinalName() throws {
        let dir = try Self.folder()
        let shots = dir.appendingPathComponent("shots")
        // A file-size limit of 40 KB makes every large snapshot write fail with EFBIG, as a full disk would;
        // SIGXFSZ is ignored so the write returns the error instead of killing the process.
        let (status, _, err) = try Self.run(["present", try Self.deck(in: dir), "--simulate", "laptop,hdmi-tv-1080p",
                                             "--snapshot", shots.path], in: dir, shell: "trap '' XFSZ; ulimit -f 40;")
        #expect(status == 2, "status \(status): \(err)")
        #expect(err.contains("nothing was left under that name"), "\(err)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []
        for name in left {
            let data = try Data(contentsOf: shots.appendingPathComponent(name))
            // Whatever is there is whole: a PNG that ends with its IEND chunk, and no temporary files.
            #expect(!name.hasPrefix("."), "temporary file left: \(name)")
            #expect(data.suffix(12).prefix(8).elementsEqual([0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44]), "\(name) is truncated")
        }
    }
}
#endif
