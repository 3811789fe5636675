import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A Markdown deck's ink file (`talk.ink.json`): written and read back, matched to an edited deck by content, and
/// read safely when damaged or hostile — the talk goes on without that ink and the damaged file is never lost.
@Suite("Ink file of a Markdown deck")
struct InkFileTests {
    static let text = "# One\nfirst\n---\n# Two\n- a bullet\nNote: private\n---\n# Three\nlast\n"

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inkfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func deck(_ text: String = InkFileTests.text) -> Deck { DeckParser.parse(text) }

    static let pen = InkStroke(points: [InkPoint(x: 0.2, y: 0.5), InkPoint(x: 0.8, y: 0.5, pressure: 0.5)], tool: .pen,
                               colour: InkColour(220, 30, 30), width: 0.006)
    static let highlighter = InkStroke(points: [InkPoint(x: 0.1, y: 0.9), InkPoint(x: 0.9, y: 0.9)], tool: .highlighter,
                                       colour: InkColour(255, 210, 0), width: 0.024)

    @Test func writtenAndReadBackTheSameWithTheFormatDocumented() throws {
        let deck = Self.deck()
        let data = InkFile(strokes: [1: [Self.pen, Self.highlighter]], deck: deck).encoded()
        // Read by Foundation's parser (not ours): the documented members.
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "extdisplay-ink" && object["version"] as? Int == 1)
        let slides = try #require(object["slides"] as? [[String: Any]])
        #expect(slides.count == 1 && slides[0]["index"] as? Int == 2 && slides[0]["title"] as? String == "Two")
        #expect((slides[0]["fingerprint"] as? String)?.count == 16)
        let strokes = try #require(slides[0]["strokes"] as? [[String: Any]])
        #expect(strokes[0]["tool"] as? String == "pen" && strokes[0]["colour"] as? String == "#dc1e1e")
        #expect(strokes[1]["opacity"] as? Double == 0.35 && strokes[1]["width"] as? Double == 0.024)
        #expect((strokes[0]["points"] as? [[Double]]) == [[0.2, 0.5, 1], [0.8, 0.5, 0.5]])
        // Read back: the same strokes on the same slide, nothing to report.
        let (file, problems) = InkFile.decode(data)
        #expect(problems.isEmpty)
        let (back, unmatched, note) = try #require(file).matched(to: deck)
        #expect(back == [1: [Self.pen, Self.highlighter]] && unmatched.isEmpty && note == nil)
    }

    @Test func anEditedDeckKeepsTheInkOfTheSlidesItKeptAndNamesTheOthers() throws {
        let data = InkFile(strokes: [0: [Self.pen], 1: [Self.highlighter]], deck: Self.deck()).encoded()
        // A slide inserted first, slide "One" changed, slide "Two"'s notes edited (notes do not count).
        let edited = Self.deck("# New\nhello\n---\n# One\nfirst, changed\n---\n# Two\n- a bullet\nNote: other words\n---\n# Three\nlast\n")
        let (file, _) = InkFile.decode(data)
        let (strokes, unmatched, note) = try #require(file).matched(to: edited)
        #expect(strokes == [2: [Self.highlighter]])
        #expect(unmatched.map(\.index) == [1])
        #expect(note?.contains("1 slide (1 \"One\") matches no slide") == true, "\(note ?? "")")
        #expect(note?.contains("follows it to a new place") == true, "\(note ?? "")")
        // Saved again, the unmatched ink is kept: the original deck finds it again.
        let again = InkFile(strokes: strokes, deck: edited, kept: unmatched).encoded()
        let (reread, _) = InkFile.decode(again)
        #expect(try #require(reread).matched(to: Self.deck()).strokes == [0: [Self.pen], 1: [Self.highlighter]])
    }

    /// Hostile contents: each gives no ink and a line saying why, and never traps.
    @Test(arguments: [
        ("truncated", #"{"format": "extdisplay-ink", "version": 1, "slides": [{"index": 2, "fing"#, "not JSON"),
        ("not JSON", "\u{0}\u{1}PNG garbage", "not JSON"),
        ("a list", "[1, 2, 3]", "not JSON (an object)"),
        ("another format", #"{"format": "extdisplay-timings", "version": 1, "runs": []}"#, "\"format\""),
        ("a newer version", #"{"format": "extdisplay-ink", "version": 7, "slides": []}"#, "version 7, newer"),
        ("no version", #"{"format": "extdisplay-ink", "version": "one", "slides": []}"#, "no usable \"version\""),
        // A number past a Double (not finite once read): Foundation refuses the whole text as JSON.
        ("an infinite number", #"{"format": "extdisplay-ink", "version": 1, "slides": [{"index": 1e999}]}"#, "not JSON"),
    ])
    func unusableFilesAreRefusedWithAReason(_ name: String, _ content: String, _ reason: String) {
        let (file, problems) = InkFile.decode(Data(content.utf8))
        #expect(file == nil, "\(name)")
        #expect(problems.joined().contains(reason), "\(name): \(problems)")
    }

    @Test func damagedStrokesAreSkippedAndTheRestIsRead() throws {
        let fingerprint = InkFile.fingerprints(of: Self.deck())[1]
        let good = ##"{"tool": "pen", "colour": "#dc1e1e", "width": 0.006, "points": [[0.2,0.5],[0.8,0.5,1]]}"##
        let bad = [
            ##"{"tool": "pen", "colour": "#dc1e1e", "width": 0.006, "points": [[1e308,0.5]]}"##,
            ##"{"tool": "pen", "colour": "#dc1e1e", "width": 1e308, "points": [[0.2,0.5]]}"##,
            ##"{"tool": "laser", "colour": "#dc1e1e", "width": 0.006, "points": [[0.2,0.5]]}"##,
            ##"{"tool": "eraser", "colour": "#dc1e1e", "width": 0.006, "points": [[0.2,0.5]]}"##,
            ##"{"tool": "pen", "colour": "red", "width": 0.006, "points": [[0.2,0.5]]}"##,
            ##"{"tool": "pen", "colour": "#dc1e1e", "width": 0.006, "points": [[0.2,0.5,7]]}"##,
            ##"{"tool": "pen", "colour": "#dc1e1e", "width": 0.006, "points": [[5e8,0.5]]}"##,
            ##"{"tool": "pen", "colour": "#dc1e1e", "width": 0.006, "points": []}"##,
            ##"{"tool": "pen", "colour": "#dc1e1e", "width": 0.006, "points": "many"}"##,
        ]
        let json = #"{"format": "extdisplay-ink", "version": 1, "slides": [{"index": 2, "fingerprint": ""#
            + fingerprint + #"", "strokes": ["# + ([good] + bad).joined(separator: ",") + "]}, {\"index\": 1}]}"
        let (file, problems) = InkFile.decode(Data(json.utf8))
        let read = try #require(file)
        #expect(read.entries.count == 1 && read.entries[0].strokes.count == 1)
        #expect(read.entries[0].strokes[0].points.map(\.x) == [0.2, 0.8])
        #expect(problems.contains { $0.contains("9 strokes are damaged") }, "\(problems)")
        #expect(problems.contains { $0.contains("slides[1] lacks an index, a fingerprint or its strokes") }, "\(problems)")
    }

    @Test func aDamagedFileIsReadAsFarAsPossibleAndKeptAsBadWhenTheInkIsSaved() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("talk.ink.json")
        let garbage = Data(#"{"format": "extdisplay-ink", "version": 1, "slides": [{"#.utf8)
        try garbage.write(to: url)
        var store = InkFileStore(url: url)
        let (strokes, lines) = store.load(for: Self.deck())
        #expect(strokes.isEmpty)
        #expect(lines.contains { $0.contains("not usable") && $0.contains("talk.ink.json.bad") }, "\(lines)")
        // Saving keeps the damaged file under .bad, byte for byte, and writes the talk's ink.
        let saved = try store.save([0: [Self.pen]], deck: Self.deck())
        #expect(saved.count == 1 && saved.keptAside?.lastPathComponent == "talk.ink.json.bad" && !saved.isTooLargeToRead)
        #expect(try Data(contentsOf: dir.appendingPathComponent("talk.ink.json.bad")) == garbage)
        let (file, problems) = InkFile.decode(try Data(contentsOf: url))
        #expect(problems.isEmpty && file?.entries.count == 1)
        // A second damaged file does not replace the first .bad.
        try garbage.write(to: url)
        var second = InkFileStore(url: url)
        _ = second.load(for: Self.deck())
        #expect(try second.save([:], deck: Self.deck()).keptAside?.lastPathComponent == "talk.ink.json.bad-2")
    }

    @Test func aFileLargerThanTheLimitIsNotReadAndIsKeptAside() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("talk.ink.json")
        // A sparse file past the limit: refused by its size before a byte is read.
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(InkFile.fileLimit + 1))
        try handle.close()
        var store = InkFileStore(url: url)
        let (strokes, lines) = store.load(for: Self.deck())
        #expect(strokes.isEmpty && lines.contains { $0.contains("more than the limit") }, "\(lines)")
        #expect(store.isDamaged)
    }

    @Test func aFIFOIsNeitherReadNorWrittenOver() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("talk.ink.json")
        try #require(mkfifo(url.path, 0o644) == 0)
        var store = InkFileStore(url: url)
        let (strokes, lines) = store.load(for: Self.deck())
        #expect(strokes.isEmpty && lines.contains { $0.contains("FIFO") && $0.contains("never written over") }, "\(lines)")
        #expect(throws: InkSaveError.self) { try store.save([0: [Self.pen]], deck: Self.deck()) }
        var info = stat()
        #expect(lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aDirectoryInTheWayRefusesTheSaveAndStaysAsItIs() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("talk.ink.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: url.appendingPathComponent("inside.txt"))
        var store = InkFileStore(url: url)
        _ = store.load(for: Self.deck())
        #expect(throws: InkSaveError.self) { try store.save([0: [Self.pen]], deck: Self.deck()) }
        #expect(try Data(contentsOf: url.appendingPathComponent("inside.txt")) == Data("keep".utf8))
    }

    @Test func theSavedFileIsReplacedWholeAndNoTemporaryFileIsLeft() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("talk.ink.json")
        var store = InkFileStore(url: url)
        _ = store.load(for: Self.deck())
        _ = try store.save([0: [Self.pen]], deck: Self.deck())
        _ = try store.save([0: [Self.pen], 2: [Self.highlighter]], deck: Self.deck())
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["talk.ink.json"])
        var reread = InkFileStore(url: url)
        #expect(reread.load(for: Self.deck()).strokes == [0: [Self.pen], 2: [Self.highlighter]])
    }
}
