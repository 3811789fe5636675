import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay doctor` and `--version` run as a user runs them, headless (no display server): what it says is
/// missing in an environment the test makes (a PATH without poppler, fontconfig without CJK fonts, a record left
/// behind), and the version from its one source.
@Suite("extdisplay doctor and --version")
struct DoctorTests {
    /// A fresh folder of this test's own.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs the built binary with `environment` over this process's (no display server unless it says so).
    static func run(_ arguments: [String], _ environment: [String: String?]) throws -> CommandResult {
        var merged: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]
        merged.merge(environment) { $1 }
        return try runToEnd("/usr/bin/timeout", ["-s", "KILL", "120", try Repository.extdisplay().path] + arguments,
                            environment: merged)
    }

    /// The lines that start with `status` and name `topic`.
    static func lines(_ output: String, _ status: String, _ topic: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(status + " ") && $0.contains(" \(topic) ") }
    }

    @Test("--version prints the version Version.swift holds, and only that")
    func versionFromItsOneSource() throws {
        let source = try String(contentsOf: Repository.desktop.appendingPathComponent("Sources/extdisplay/Version.swift"),
                                encoding: .utf8)
        let declared = try #require(source.split(separator: "\n").first { $0.contains("static let current") }?
            .split(separator: "\"").dropFirst().first.map(String.init))
        let result = try Self.run(["--version"], [:])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == declared + "\n")
        #expect(declared.split(separator: ".").count == 3 && declared.split(separator: ".").allSatisfy { Int($0) != nil })
    }

    @Test("a PATH without poppler and MuPDF: each tool is named missing with its package; a PDF deck makes it essential")
    func pathWithoutPDFTools() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deck = dir.appendingPathComponent("talk.pdf")
        try MiniPDF.manyPages(1).write(to: deck)
        let result = try Self.run(["doctor", deck.path], ["PATH": dir.path, "EXTDISPLAY_STATE_DIR": dir.path])
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        let missing = Self.lines(result.stdout, "missing", "pdf tools")
        #expect(missing.count == 3, "\(result.stdout)")
        #expect(missing.contains { $0.contains("pdftoppm") && $0.hasSuffix("install poppler-utils") }, "\(missing)")
        #expect(missing.contains { $0.contains("pdfinfo") && $0.hasSuffix("install poppler-utils") }, "\(missing)")
        #expect(missing.contains { $0.contains("mutool") && $0.hasSuffix("install mupdf-tools") }, "\(missing)")
        #expect(result.stderr.contains("an essential is missing"), "\(result.stderr)")
    }

    @Test("a pdftoppm on PATH is found with the version it prints")
    func toolVersionIsRead() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tool = dir.appendingPathComponent("pdftoppm")
        try "#!/bin/sh\necho 'pdftoppm version 99.1.2' >&2\nexit 99\n".write(to: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        let result = try Self.run(["doctor"], ["PATH": dir.path, "EXTDISPLAY_STATE_DIR": dir.path])
        let ok = Self.lines(result.stdout, "ok", "pdf tools")
        #expect(ok == ["ok       pdf tools     pdftoppm 99.1.2 at \(tool.path) (PDF pages)"], "\(result.stdout)")
        #expect(Self.lines(result.stdout, "missing", "pdf tools").count == 2, "\(result.stdout)")
    }

    @Test("a deck in a script no font has: the script and the package are named, and doctor fails")
    func deckScriptWithoutFont() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // fontconfig that knows DejaVu only: no CJK font, as on a machine without fonts-noto-cjk.
        let config = dir.appendingPathComponent("fonts.conf")
        try """
        <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
        <fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>\(dir.path)/cache</cachedir></fontconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        let deck = dir.appendingPathComponent("talk.md")
        try "# Hello\n\n中文 and Ελληνικά\n".write(to: deck, atomically: true, encoding: .utf8)
        let result = try Self.run(["doctor", deck.path], ["FONTCONFIG_FILE": config.path, "EXTDISPLAY_STATE_DIR": dir.path])
        let missing = Self.lines(result.stdout, "missing", "deck fonts")
        #expect(missing.count == 1, "\(result.stdout)")
        #expect(missing.first?.contains("2 character(s) of script Hani") == true, "\(missing)")
        #expect(missing.first?.hasSuffix("install fonts-noto-cjk") == true, "\(missing)")
        #expect(result.status == 1)

        // With the system's fonts (fonts-noto-cjk is installed by scripts/install-deps.sh) every character has one.
        let full = try Self.run(["doctor", deck.path], ["EXTDISPLAY_STATE_DIR": dir.path])
        #expect(Self.lines(full.stdout, "ok", "deck fonts").count == 1, "\(full.stdout)")
    }

    @Test("a mode record left behind is named with `extdisplay restore`; nothing is restored or removed")
    func recordLeftBehind() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let record = dir.appendingPathComponent("modes-_99.json")
        try "{}".write(to: record, atomically: true, encoding: .utf8)
        let result = try Self.run(["doctor"], ["EXTDISPLAY_STATE_DIR": dir.path])
        #expect(Self.lines(result.stdout, "ok", "state") == ["ok       state         mode records go to \(dir.path)"],
                "\(result.stdout)")
        let warnings = Self.lines(result.stdout, "warning", "mode record")
        #expect(warnings.count == 1 && warnings.first?.contains(record.path) == true, "\(result.stdout)")
        #expect(warnings.first?.contains("extdisplay restore") == true)
        #expect(FileManager.default.fileExists(atPath: record.path))
    }

    @Test("the camera: EXTDISPLAY_CAMERA_DEVICE that names nothing is a warning, a device that is not there and no PipeWire are missing, none essential")
    func cameraLine() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base: [String: String?] = ["EXTDISPLAY_STATE_DIR": dir.path, "XDG_RUNTIME_DIR": dir.path]
        var bad = base
        bad["EXTDISPLAY_CAMERA_DEVICE"] = "webcam"
        let warned = try Self.run(["doctor"], bad)
        #expect(Self.lines(warned.stdout, "warning", "camera").first?.contains("EXTDISPLAY_CAMERA_DEVICE=webcam is neither `pipewire` nor a device path") == true,
                "\(warned.stdout)")
        var gone = base
        gone["EXTDISPLAY_CAMERA_DEVICE"] = "/dev/video-extdisplay-absent"
        let missingDevice = try Self.run(["doctor"], gone)
        #expect(Self.lines(missingDevice.stdout, "missing", "camera").first?.contains("names /dev/video-extdisplay-absent, which does not exist") == true,
                "\(missingDevice.stdout)")
        var noDaemon = base
        noDaemon["EXTDISPLAY_CAMERA_DEVICE"] = "pipewire"
        let result = try Self.run(["doctor"], noDaemon)
        let line = Self.lines(result.stdout, "missing", "camera")
        #expect(line.count == 1 && line.first?.contains("no PipeWire daemon") == true, "\(result.stdout)")
        // Not essential: the only essential missing here is the display server (status 1 for that alone, as below).
        #expect(Self.lines(result.stdout, "missing", "display").count == 1 && result.status == 1)
    }

    @Test("no display server: one missing display line, essential (status 1)")
    func noDisplayServer() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.run(["doctor"], ["EXTDISPLAY_STATE_DIR": dir.path])
        #expect(result.status == 1)
        #expect(Self.lines(result.stdout, "missing", "display").count == 1, "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").first?.hasPrefix("missing  display") == true)
    }
}
