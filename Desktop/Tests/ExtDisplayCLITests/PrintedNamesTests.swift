import DesktopFiles
import ExtDisplayTestSupport
import Foundation
import Testing
#if canImport(CSDL2)
@testable import ExternalDisplayPresenter
#endif

/// Names and text are data wherever they are printed: a clip's file name (`play`), a PDF annotation's path, a
/// scenario's device names and field names (`simulate`'s diagnostics and trace). ESC, BEL and CR (and the 8-bit
/// CSI) never reach the terminal raw: they are shown escaped (`\e`, `\a`, `\r`, `\u{9b}`), and the NDJSON trace
/// stays valid JSON that decodes to the original names.
@Suite("Printed names are data: controls escaped")
struct PrintedNamesTests {
    /// ESC [2J clears the screen, BEL rings, CR rewrites the line, U+009B is the 8-bit CSI.
    static let hostile = "tv\u{1B}[2J\u{07}\r\u{9B}31m"

    /// Scalars a terminal acts on, newlines apart: the oracle is written here, not taken from the code under test.
    static func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }.map(\.value)
    }

    static func run(_ arguments: [String], in dir: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runToEnd("/usr/bin/timeout", ["-s", "KILL", "60", try Repository.extdisplay().path] + arguments,
                                  environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], directory: dir)
        return (result.status, result.stdout, result.stderr)
    }

    /// Every string in a decoded JSON value.
    static func strings(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        if let array = value as? [Any] { return array.flatMap { strings(in: $0) } }
        if let object = value as? [String: Any] { return object.keys.map { $0 } + object.values.flatMap { strings(in: $0) } }
        return []
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A scenario whose display is named with controls: the timeline escapes them; the trace is JSON whose
    /// strings decode to the very name.
    @Test func simulateEscapesDeviceNamesAndTheTraceStaysJSON() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = try #require(String(data: JSONSerialization.data(withJSONObject: [Self.hostile]), encoding: .utf8))
            .dropFirst().dropLast()
        let json = #"{"device": "laptop", "steps": [{"at": 0, "event": "launch"}, "#
            + #"{"at": 1, "event": "connect", "display": \#(name), "preset": "hdmi-tv-1080p"}, "#
            + #"{"at": 2, "event": "disconnect", "display": \#(name)}, {"at": 3, "event": "end"}]}"#
        let scenario = dir.appendingPathComponent("scenario.json")
        try json.write(to: scenario, atomically: true, encoding: .utf8)

        let text = try Self.run(["simulate", scenario.path], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.rawControls(text.stdout + text.stderr).isEmpty, "raw controls: \(Self.rawControls(text.stdout))")
        #expect(text.stdout.contains(#"tv\e[2J\a\r\u{9b}31m"#), "\(text.stdout.prefix(800))")

        let trace = try Self.run(["simulate", scenario.path, "--format", "ndjson"], in: dir)
        #expect(trace.status == 0, "\(trace.stderr)")
        #expect(Self.rawControls(trace.stdout).isEmpty, "raw controls in the trace: \(Self.rawControls(trace.stdout))")
        var strings: [String] = []
        for line in trace.stdout.split(separator: "\n") {
            strings += Self.strings(in: try JSONSerialization.jsonObject(with: Data(line.utf8)))
        }
        let sawName = strings.contains(Self.hostile)
        #expect(sawName, "the trace's strings decode to the display's name")
    }

    /// A field name with an OSC title sequence in it: the message quotes it escaped.
    @Test func simulateEscapesFieldNamesInItsDiagnostics() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("bad.json")
        try #"{"device": "laptop", "bogus\u001b]0;owned\u0007\r": 1, "steps": []}"#.write(to: scenario, atomically: true, encoding: .utf8)
        let run = try Self.run(["simulate", scenario.path], in: dir)
        #expect(run.status == 2)
        #expect(Self.rawControls(run.stderr).isEmpty, "\(Self.rawControls(run.stderr))")
        #expect(run.stderr.contains(#"bogus\e]0;owned\a\r"#), "\(run.stderr)")
    }

    /// A clip whose file name holds controls: missing, the message escapes it; present, every line `play`
    /// prints about it does.
    @Test func playEscapesTheClipsName() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try Self.run(["play", "clip\u{1B}[2J\u{07}\r.webm", "--simulate", "laptop,hdmi-tv-1080p"], in: dir)
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(Self.rawControls(missing.stdout + missing.stderr).isEmpty, "\(missing.stderr)")
        #expect(missing.stderr.contains(#"clip\e[2J\a\r.webm"#), "\(missing.stderr)")

        let clip = try TestClip.make(fps: 10, colors: [0xFF0000, 0x00FF00])
        defer { try? FileManager.default.removeItem(at: clip.url.deletingLastPathComponent()) }
        let named = dir.appendingPathComponent("film\u{1B}[2J\u{07}\r.webm")
        try FileManager.default.moveItem(at: clip.url, to: named)
        let played = try Self.run(["play", named.path, "--simulate", "laptop,hdmi-tv-1080p", "--snapshot",
                                   dir.appendingPathComponent("shots").path, "--keys", "wait:1"], in: dir)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(Self.rawControls(played.stdout + played.stderr).isEmpty, "\(played.stdout.prefix(600))")
        #expect(played.stdout.contains(#"film\e[2J\a\r.webm"#), "\(played.stdout.prefix(600))")
    }

    /// The escaping itself, against hand-written expectations: each control's escape, a non-UTF-8 name's bytes,
    /// a bounded line, JSON kept JSON.
    @Test func printableTextEscapesBytesAndBoundsLines() throws {
        #expect(PrintableText.line("a\u{1B}[1m\u{07}\r\n\t\u{7F}\u{9B}\u{202E}\\b") == #"a\e[1m\a\r\n\t\x7f\u{9b}\u{202e}\b"#)
        #expect(PrintableText.line(PrintableText.line("a\u{1B}b")) == #"a\eb"#, "idempotent")
        #expect(PrintableText.name(bytes: [0xE9, 0x74, 0xE9, 0x2D, 0x64, 0x65, 0x6D, 0x6F, 0x2E, 0x6D, 0x70, 0x34]) == #"\xe9t\xe9-demo.mp4"#)
        #expect(PrintableText.name(bytes: Array("été.mp4".utf8)) == "été.mp4")
        let long = PrintableText.line(String(repeating: "x", count: 5_000) + "end", limit: 101)
        #expect(long.unicodeScalars.count == 101 && long.hasSuffix("end") && long.contains("…"))
        let json = PrintableText.json(#"{"name":"a\u001b"# + "\u{9B}\u{202E}" + #""}"#)
        #expect(json == #"{"name":"a\u001b\u009b\u202e"}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded?["name"] == "a\u{1B}\u{9B}\u{202E}")
    }

    #if canImport(CSDL2)
    /// A PDF annotation naming a missing video with controls in its path: the message's "looked for" path is
    /// escaped (the annotation's text was already cleaned; the path built from it was printed raw).
    @Test func aPDFClipsMissingPathIsEscaped() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = ClipLocator.locate(.file("demo\u{1B}[2J\u{07}\r.webm", embedded: false), certain: true, folder: dir)
        guard case .problem(let message) = outcome else {
            Issue.record("expected a problem, got \(outcome)")
            return
        }
        #expect(Self.rawControls(message).isEmpty, "\(message)")
        #expect(message.contains(#"demo\e[2J\a\r.webm); not played"#), "\(message)")
    }
    #endif

    /// A Markdown deck from a hostile author, in a file whose name holds controls, with controls in a slide's title
    /// and in an image's path. The deck's text is cleaned when it is read (the image is named without them); the
    /// file's name is printed in every diagnostic, and `present` headless prints the diagnostics, its status lines and
    /// the files it wrote: nothing reaches the terminal raw.
    @Test func presentEscapesWhatTheDeckNames() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deck = dir.appendingPathComponent("talk\(Self.hostile).md")
        try "# Title \(Self.hostile)\n\n![](missing\(Self.hostile).png)\n\n---\n\n# Two\n"
            .write(to: deck, atomically: true, encoding: .utf8)
        let result = try Self.run(["present", deck.path, "--simulate", "laptop,hdmi-tv-1080p", "--snapshot", dir.path,
                                   "--keys", "next"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.rawControls(result.stdout).isEmpty, "stdout: \(result.stdout)")
        #expect(Self.rawControls(result.stderr).isEmpty, "stderr: \(result.stderr)")
        // The file's name is still there, escaped; the image's, cleaned when the deck was read.
        #expect(result.stderr.contains(#"talktv\e[2J\a\r\u{9b}31m.md: slide 1, line 3: image 'missingtv.png' not found"#),
                "stderr: \(result.stderr)")
    }
}
