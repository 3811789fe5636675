import ExtDisplayTestSupport
import Foundation
import Testing

/// A Markdown talk's ink saved beside the deck and read back by the next run, and `extdisplay export` writing decks
/// with their ink as PDF handouts — judged by tools that are not ours: pdfinfo, pdftoppm (its PNG read with
/// Python's zlib), qpdf --check and Foundation's JSON parser.
@Suite("Ink of Markdown talks and the PDF handout")
struct InkExportTests {
    static let deck = "# One\nthe first slide\n---\n# Two\n- a bullet\n---\n# Three\nthe end\n"
    /// The slide background (PresenterTheme's) and the pen's first colour.
    static let background = (18, 24, 38)
    static let red = (220, 30, 30)

    /// An ink file with no slides (as `present` writes after the ink was cleared).
    static let inkFile = "{\"format\": \"extdisplay-ink\", \"version\": 1, \"slides\": []}\n"

    static func run(_ arguments: [String], in dir: URL) throws -> CommandResult {
        try runToEnd("/usr/bin/timeout", ["-s", "KILL", "120", try Repository.extdisplay().path] + arguments,
                     environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], directory: dir)
    }

    static func tool(_ arguments: [String], in dir: URL) throws -> CommandResult {
        try runToEnd("/usr/bin/timeout", ["-s", "KILL", "120"] + arguments, directory: dir)
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ink-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(deck.utf8).write(to: dir.appendingPathComponent("talk.md"))
        return dir
    }

    static func near(_ p: (UInt8, UInt8, UInt8), _ c: (Int, Int, Int), _ tolerance: Int = 30) -> Bool {
        abs(Int(p.0) - c.0) <= tolerance && abs(Int(p.1) - c.1) <= tolerance && abs(Int(p.2) - c.2) <= tolerance
    }

    /// Page `page` of `pdf` as pdftoppm renders it at `width`×`height`, as a PNG file.
    static func render(_ pdf: URL, page: Int, width: Int, height: Int, in dir: URL) throws -> URL {
        let base = dir.appendingPathComponent("page-\(page)-\(UUID().uuidString)")
        let result = try tool(["pdftoppm", "-f", "\(page)", "-l", "\(page)", "-scale-to-x", "\(width)", "-scale-to-y",
                               "\(height)", "-png", "-singlefile", pdf.path, base.path], in: dir)
        try #require(result.status == 0, "pdftoppm: \(result.stderr)")
        return base.appendingPathExtension("png")
    }

    /// pdfinfo's page count and the first page's size.
    static func info(_ pdf: URL, in dir: URL) throws -> (pages: Int?, size: String?) {
        let result = try tool(["pdfinfo", pdf.path], in: dir)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let pages = lines.first { $0.hasPrefix("Pages:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        let size = lines.first { $0.hasPrefix("Page size:") }.map { $0.dropFirst(10).trimmingCharacters(in: .whitespaces) }
        return (pages, size)
    }

    static func qpdfAccepts(_ pdf: URL, in dir: URL) throws -> Bool {
        let result = try tool(["qpdf", "--check", pdf.path], in: dir)
        return result.status == 0 && result.stdout.contains("No syntax or stream encoding errors")
    }

    @Test("a Markdown talk saves its ink beside the deck, the next run reads it back, export draws it on the handout")
    func markdownTalkInkAndHandout() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A red line across slide 2, saved with Ctrl-S (save-ink) during the talk; then the speaker's private
        // marks (never saved: the file is not written again).
        let talk = try Self.run(["present", "talk.md", "--simulate", "laptop,hdmi-tv-1080p", "--snapshot", "shots",
                                 "--keys", "next,ink:0.2/0.5;0.8/0.5,save-ink,ink-private,ink:0.5/0.1;0.5/0.3"], in: dir)
        #expect(talk.status == 0, "\(talk.stderr)")
        #expect(talk.stdout.contains("ink saved: 1 strokes in \(dir.appendingPathComponent("talk.ink.json").path)"),
                "\(talk.stdout.suffix(600))")
        let file = dir.appendingPathComponent("talk.ink.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let slides = try #require(object["slides"] as? [[String: Any]])
        #expect(object["format"] as? String == "extdisplay-ink" && slides.map { $0["index"] as? Int } == [2])
        #expect((slides.first?["strokes"] as? [Any])?.count == 1, "only the room's stroke is saved")
        // Nothing changed after the save: not written again at the end.
        #expect(talk.stdout.components(separatedBy: "ink saved").count == 2, "\(talk.stdout.suffix(600))")

        // The next run reads it back and says so.
        let again = try Self.run(["present", "talk.md", "--simulate", "laptop,hdmi-tv-1080p", "--snapshot", "shots2",
                                  "--keys", "next"], in: dir)
        #expect(again.stdout.contains("ink of an earlier run read back from talk.ink.json: 1 strokes on 1 slides"),
                "\(again.stdout.prefix(600))")
        let shot = dir.appendingPathComponent("shots2/001-next-hdmi-tv-1080p.png")
        #expect(Self.near(try PNGPixel.at(shot, x: 960, y: 540), Self.red), "the read-back stroke on the TV")

        // The handout: 3 pages of 1920×1080, slide 2 with its background and the red line where it was drawn.
        let export = try Self.run(["export", "talk.md", "handout.pdf"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("3 pages, 1 ink stroke from talk.ink.json"), "\(export.stdout)")
        let handout = dir.appendingPathComponent("handout.pdf")
        let info = try Self.info(handout, in: dir)
        #expect(info.pages == 3 && info.size?.hasPrefix("1920 x 1080 pts") == true, "\(info)")
        #expect(try Self.qpdfAccepts(handout, in: dir))
        let page2 = try Self.render(handout, page: 2, width: 1920, height: 1080, in: dir)
        for (x, y) in [(40, 40), (1880, 1040), (960, 800)] {
            #expect(Self.near(try PNGPixel.at(page2, x: x, y: y), Self.background, 6), "background at \(x),\(y)")
        }
        for x in [400, 960, 1500] {
            #expect(Self.near(try PNGPixel.at(page2, x: x, y: 540), Self.red), "ink at \(x),540")
        }
        #expect(Self.near(try PNGPixel.at(page2, x: 960, y: 570), Self.background, 6), "no ink below the line")
        #expect(Self.near(try PNGPixel.at(page2, x: 200, y: 540), Self.background, 6), "no ink before its start")
        // Page 1 has no ink; the annotation is an /Ink one, as viewers list it.
        let page1 = try Self.render(handout, page: 1, width: 1920, height: 1080, in: dir)
        #expect(Self.near(try PNGPixel.at(page1, x: 960, y: 540), Self.background, 6))
        let annots = try Self.tool(["mutool", "show", handout.path, "pages/2/Annots/1"], in: dir)
        #expect(annots.stdout.contains("/Subtype /Ink") && annots.stdout.contains("/InkList"), "\(annots.stdout)")

        // Another size: --width alone gives 16:9.
        let small = try Self.run(["export", "talk.md", "small.pdf", "--width", "1280"], in: dir)
        #expect(small.status == 0, "\(small.stderr)")
        let smallInfo = try Self.info(dir.appendingPathComponent("small.pdf"), in: dir)
        #expect(smallInfo.pages == 3 && smallInfo.size?.hasPrefix("1280 x 720 pts") == true, "\(smallInfo)")
    }

    @Test("a damaged ink file: the talk goes on, the file is kept as .bad, export goes on without it")
    func damagedInkFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("talk.ink.json")
        let garbage = Data("{\"format\": \"extdisplay-ink\", \"version\": 1, \"slid".utf8)
        try garbage.write(to: file)
        let export = try Self.run(["export", "talk.md", "plain.pdf"], in: dir)
        #expect(export.status == 0 && export.stderr.contains("not usable"), "\(export.stderr)")
        #expect(export.stdout.contains("0 ink strokes"), "\(export.stdout)")
        #expect(try Data(contentsOf: file) == garbage, "export never writes the ink file")
        let talk = try Self.run(["present", "talk.md", "--simulate", "laptop", "--snapshot", "shots",
                                 "--keys", "ink:0.2/0.5;0.8/0.5"], in: dir)
        #expect(talk.status == 0, "\(talk.stderr)")
        #expect(talk.stdout.contains("is not usable") && talk.stdout.contains("kept as talk.ink.json.bad"), "\(talk.stdout.prefix(800))")
        #expect(try Data(contentsOf: dir.appendingPathComponent("talk.ink.json.bad")) == garbage)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect((object?["slides"] as? [Any])?.count == 1)
    }

    @Test("a PDF deck's handout: its own pages at their size, the last overlay step of each slide, with the ink")
    func pdfDeckHandout() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Examples/Decks/PDF/overlays.pdf: 5 pages, slide 2 is pages 2…4 (one label).
        let deck = dir.appendingPathComponent("overlays.pdf")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Examples/Decks/PDF/overlays.pdf"), to: deck)
        let original = try Data(contentsOf: deck)
        // A vertical line on the first step of slide 2, a horizontal one on its second step.
        let talk = try Self.run(["present", "overlays.pdf", "--simulate", "laptop", "--snapshot", "shots",
                                 "--keys", "next,ink:0.5/0.2;0.5/0.8,next,ink:0.2/0.5;0.8/0.5"], in: dir)
        #expect(talk.status == 0, "\(talk.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("overlays-annotated.pdf").path), "\(talk.stdout.suffix(400))")
        let export = try Self.run(["export", "overlays.pdf", "handout.pdf"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("3 pages, 2 ink strokes from overlays-annotated.pdf"), "\(export.stdout)")
        let handout = dir.appendingPathComponent("handout.pdf")
        let info = try Self.info(handout, in: dir)
        #expect(info.pages == 3 && info.size?.hasPrefix("1024 x 576 pts") == true, "\(info)")
        #expect(try Self.qpdfAccepts(handout, in: dir))
        #expect(try Data(contentsOf: deck) == original)
        // Page 2 is slide 2's last step, with both strokes; page 1 has none.
        let page2 = try Self.render(handout, page: 2, width: 1024, height: 576, in: dir)
        for (x, y) in [(512, 150), (512, 400), (300, 288), (700, 288)] {
            #expect(Self.near(try PNGPixel.at(page2, x: x, y: y), Self.red, 60), "ink at \(x),\(y)")
        }
        let page1 = try Self.render(handout, page: 1, width: 1024, height: 576, in: dir)
        #expect(!Self.near(try PNGPixel.at(page1, x: 512, y: 400), Self.red, 60))
        // Page 2's text is the last overlay's: pdftotext of the handout holds the third bullet.
        let text = try Self.tool(["pdftotext", "-f", "2", "-l", "2", handout.path, "-"], in: dir)
        #expect(text.stdout.contains("next still steps through each"), "\(text.stdout)")
    }

    @Test("export refuses what it must not write, and decks it cannot read")
    func hostileExports() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deckBytes = try Data(contentsOf: dir.appendingPathComponent("talk.md"))
        // OUT exists: refused, untouched; --force replaces it.
        try Data("mine".utf8).write(to: dir.appendingPathComponent("taken.pdf"))
        let taken = try Self.run(["export", "talk.md", "taken.pdf"], in: dir)
        #expect(taken.status == 1 && taken.stderr.contains("exists; add --force"), "\(taken.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("taken.pdf")) == Data("mine".utf8))
        let forced = try Self.run(["export", "talk.md", "taken.pdf", "--force"], in: dir)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Self.info(dir.appendingPathComponent("taken.pdf"), in: dir).pages == 3)
        // OUT is the deck (also through another spelling): refused even with --force.
        for name in ["talk.md", "./sub/../talk.md"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
            let same = try Self.run(["export", "talk.md", name, "--force"], in: dir)
            #expect(same.status == 1 && same.stderr.contains("is the deck itself"), "\(name): \(same.stderr)")
        }
        #expect(try Data(contentsOf: dir.appendingPathComponent("talk.md")) == deckBytes)
        // OUT is the ink file the handout is made from: refused even with --force.
        try Data(InkExportTests.inkFile.utf8).write(to: dir.appendingPathComponent("talk.ink.json"))
        let inkOut = try Self.run(["export", "talk.md", "talk.ink.json", "--force"], in: dir)
        #expect(inkOut.status == 1 && inkOut.stderr.contains("is the file the ink is read from"), "\(inkOut.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("talk.ink.json")) == Data(InkExportTests.inkFile.utf8))
        // A missing folder, a directory as OUT.
        let missing = try Self.run(["export", "talk.md", "no/such/folder/out.pdf"], in: dir)
        #expect(missing.status == 1 && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        let directory = try Self.run(["export", "talk.md", "sub", "--force"], in: dir)
        #expect(directory.status == 1 && directory.stderr.contains("is a directory"), "\(directory.stderr)")
        // Decks that cannot be read: missing, a FIFO (no hang), not UTF-8.
        let absent = try Self.run(["export", "absent.md", "out.pdf"], in: dir)
        #expect(absent.status == 2 && absent.stderr.contains("does not exist"), "\(absent.stderr)")
        try #require(mkfifo(dir.appendingPathComponent("fifo.md").path, 0o644) == 0)
        let fifo = try Self.run(["export", "fifo.md", "out.pdf"], in: dir)
        #expect(fifo.status == 2 && fifo.stderr.contains("FIFO"), "\(fifo.stderr)")
        // An empty deck: nothing to export.
        try Data().write(to: dir.appendingPathComponent("empty.md"))
        let empty = try Self.run(["export", "empty.md", "out.pdf"], in: dir)
        #expect(empty.status == 2 && empty.stderr.contains("no slides"), "\(empty.stderr)")
        // --ink naming a file that is not there; sizes out of range.
        let noInk = try Self.run(["export", "talk.md", "out.pdf", "--ink", "gone.ink.json"], in: dir)
        #expect(noInk.status == 2 && noInk.stderr.contains("does not exist"), "\(noInk.stderr)")
        let huge = try Self.run(["export", "talk.md", "out.pdf", "--width", "100000"], in: dir)
        #expect(huge.status == 64 && huge.stderr.contains("16…8192"), "\(huge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        // No temporary file is left anywhere.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("a long deck's export says its progress on standard error; --ink-out naming a PDF for a Markdown deck is refused")
    func progressAndInkOut() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = (1...12).map { "# Slide \($0)\ntext \($0)" }.joined(separator: "\n---\n")
        try Data(long.utf8).write(to: dir.appendingPathComponent("long.md"))
        let export = try Self.run(["export", "long.md", "long.pdf", "--width", "320"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("slide 10 of 12") && export.stderr.contains("slide 12 of 12"), "\(export.stderr)")
        #expect(try Self.info(dir.appendingPathComponent("long.pdf"), in: dir).pages == 12)
        // --ink-out x.pdf for a Markdown deck: said, and the ink goes to the JSON file beside the deck.
        let talk = try Self.run(["present", "talk.md", "--simulate", "laptop", "--snapshot", "shots", "--ink-out", "x.pdf",
                                 "--keys", "ink:0.2/0.5;0.8/0.5"], in: dir)
        #expect(talk.stdout.contains("--ink-out names a PDF"), "\(talk.stdout.prefix(600))")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("talk.ink.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.pdf").path))
        // --ink-out naming the deck (another spelling): the deck is never written.
        let deckBytes = try Data(contentsOf: dir.appendingPathComponent("talk.md"))
        let itself = try Self.run(["present", "talk.md", "--simulate", "laptop", "--snapshot", "shots", "--ink-out", "./talk.md",
                                   "--keys", "ink:0.2/0.6;0.8/0.6"], in: dir)
        #expect(itself.stdout.contains("--ink-out names the deck itself"), "\(itself.stdout.prefix(600))")
        #expect(try Data(contentsOf: dir.appendingPathComponent("talk.md")) == deckBytes)
        // A named ink file elsewhere is used, and read back by export with --ink.
        let named = try Self.run(["present", "talk.md", "--simulate", "laptop", "--snapshot", "shots", "--ink-out", "mine.json",
                                  "--keys", "next,ink:0.2/0.6;0.8/0.6"], in: dir)
        #expect(named.stdout.contains("ink saved: 1 strokes in \(dir.appendingPathComponent("mine.json").path)"), "\(named.stdout.suffix(400))")
        let export2 = try Self.run(["export", "talk.md", "mine.pdf", "--ink", "mine.json"], in: dir)
        #expect(export2.stdout.contains("1 ink stroke from mine.json"), "\(export2.stdout) \(export2.stderr)")
    }
}
