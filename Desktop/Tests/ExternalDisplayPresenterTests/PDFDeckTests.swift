import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Testing
@testable import ExternalDisplayPresenter
import PresenterRuntime

/// PDF decks: reading (pdfinfo), bad files, pdfpc notes, Beamer split pages, and what the presenter draws,
/// checked against MuPDF's `mutool draw` (a different renderer from the presenter's poppler).
// Never skipped: without poppler-utils the reader fails with "install poppler-utils" (scripts/install-deps.sh).
@Suite("PDF decks", .serialized)
@MainActor
struct PDFDeckTests {
    // MARK: Reading

    @Test func aPDFIsReadByItsHeaderWithEveryPageAndItsSize() throws {
        let url = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.quadrants(), MiniPDF.solid(9, 9, 9, width: 800, height: 600)],
                                                 width: 800, height: 600), name: "talk.bin")
        let deck = try DeckParser.parse(contentsOf: url)
        #expect(deck.slides.count == 2)
        #expect(deck.slides.map { $0.pdfPage?.index } == [0, 1])
        #expect(deck.slides[0].pdfPage?.width == 800 && deck.slides[0].pdfPage?.height == 600)
        #expect(abs(deck.slides[0].aspect - 4.0 / 3.0) < 1e-9)
        #expect(deck.slides[1].pdfPage?.pageCount == 2)
    }

    @Test func markdownDecksStillReadAsMarkdown() throws {
        let url = try MiniPDF.write(Data("# Hello\n- files start with %PDF-1.7\n---\n# Two\n".utf8), name: "talk.md")
        let deck = try DeckParser.parse(contentsOf: url)
        #expect(deck.slides.map(\.plainTitle) == ["Hello", "Two"])
        #expect(deck.slides.allSatisfy { $0.pdfPage == nil })
    }

    @Test(arguments: [
        ("notpdf", "is named .pdf but is not a PDF"),
        ("zero", "no pages"),
        ("encrypted", "encrypted with a password"),
        ("truncated", "truncated PDF"),
        ("damaged", "damaged PDF"),
    ])
    func badPDFsGetAClearMessage(kind: String, expected: String) throws {
        let good = MiniPDF.data(pages: [MiniPDF.quadrants(), MiniPDF.quadrants()], width: 800, height: 600)
        let data: Data
        switch kind {
        case "notpdf": data = Data("# A Markdown deck named .pdf\n- bullet\n".utf8)
        case "zero": data = MiniPDF.data(pages: [], width: 800, height: 600)
        case "encrypted":
            // A standard security handler whose user password is not empty: poppler asks for a password.
            data = MiniPDF.data(pages: [MiniPDF.quadrants()], width: 800, height: 600, trailerExtra:
                "/Encrypt << /Filter /Standard /V 1 /R 2 /O <\(String(repeating: "11", count: 32))> "
                + "/U <\(String(repeating: "22", count: 32))> /P -4 >> "
                + "/ID [<\(String(repeating: "33", count: 16))> <\(String(repeating: "33", count: 16))>] ")
        case "truncated": data = good.prefix(good.count / 2)
        default: data = Data("%PDF-1.4\n".utf8) + Data(repeating: 0xA5, count: 600) + Data("\n%%EOF\n".utf8)
        }
        let url = try MiniPDF.write(data, name: "talk.pdf")
        do {
            _ = try DeckParser.parse(contentsOf: url)
            Issue.record("\(kind): read without an error")
        } catch {
            #expect(error.description.contains(expected), "\(kind): \(error.description)")
            #expect(error.description.contains(url.path))
        }
    }

    // MARK: pdfpc notes

    @Test func pdfpcNotesAreReadFromTheFileBesideThePDF() throws {
        let url = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.quadrants(), MiniPDF.quadrants(), MiniPDF.quadrants()],
                                                 width: 800, height: 600), name: "talk.pdf")
        let json = #"""
        {"pdfpcFormat": 2, "duration": 20, "disableMarkdown": false,
         "pages": [{"idx": 0, "label": "1", "overlay": 0, "note": "Welcome everyone.\n\nSecond paragraph"},
                   {"idx": 2, "label": "3", "overlay": 0, "forcedOverlay": false, "hidden": false, "note": "Last page"},
                   {"idx": 7, "label": "8", "note": "beyond the end"}]}
        """#
        try Data(json.utf8).write(to: PdfpcNotes.companion(of: url))
        let deck = try DeckParser.parse(contentsOf: url)
        #expect(deck.slides[0].notes == ["Welcome everyone.", "Second paragraph"])
        #expect(deck.slides[1].notes == [])
        #expect(deck.slides[2].notes == ["Last page"])
        #expect(deck.diagnostics.contains { $0.message.contains("page 8") && $0.message.contains("3 pages") })
    }

    @Test func oddPdfpcFilesBecomeDiagnosticsNotErrors() {
        let old = PdfpcNotes.parse(Data("[file]\ntalk.pdf\n[notes]\n### 1\nhello\n".utf8))
        #expect(old.notes.isEmpty)
        #expect(old.problems.first?.contains("before 4.5") == true)
        let mixed = PdfpcNotes.parse(Data(#"{"pages": [5, {"idx": true, "note": "x"}, {"idx": 0, "note": "kept"}], "duration": "long"}"#.utf8))
        #expect(mixed.notes == [0: "kept"])
        #expect(mixed.durationMinutes == nil)
        #expect(mixed.problems.count == 3, "\(mixed.problems)")
        #expect(mixed.problems.contains { $0.hasPrefix("duration \"long\" is not a talk's length in minutes") })
        #expect(PdfpcNotes.parse(Data(#"{"pages": 3}"#.utf8)).problems == [#""pages" is not a list; no notes read"#])
        #expect(PdfpcNotes.parse(Data(#"{"duration": 15}"#.utf8)).durationMinutes == 15)
    }

    // MARK: Pixels, against MuPDF

    @Test func theAudienceShowsThePageAsMuPDFRendersItLetterboxedAtItsAspect() async throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        let url = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.quadrants()], width: 800, height: 600), name: "q.pdf")
        let deck = try DeckParser.parse(contentsOf: url)
        let shots = try await HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-monitor-1080p"], steps: []).run()
        let audience = try #require(shots.first { $0.display == "hdmi-monitor-1080p" })
        let canvas = audience.canvas
        let box = Self.nonBlackBounds(canvas)
        let bitmap = Self.pixels(canvas)
        // 4:3 inside 16:9: pillarboxed, full height, centred.
        #expect(abs(Double(box.width) / Double(box.height) - 4.0 / 3.0) < 0.01, "page box \(box)")
        #expect(box.height >= 1000 && abs(box.x - (canvas.size.width - box.maxX)) <= 2, "page box \(box)")
        let reference = try MuPDF.draw(url, page: 1, width: box.width, height: box.height)
        try #require(reference.width == box.width && reference.height == box.height,
                     "mutool gave \(reference.width)×\(reference.height) for \(box)")
        var compared = 0
        for gy in 0..<12 {
            for gx in 0..<16 {
                let x = box.width * (2 * gx + 1) / 32, y = box.height * (2 * gy + 1) / 24
                let ours = bitmap.pixel(x: box.x + x, y: box.y + y), theirs = reference.pixel(x, y)
                #expect(abs(Int(ours.red) - theirs.0) <= 8 && abs(Int(ours.green) - theirs.1) <= 8
                        && abs(Int(ours.blue) - theirs.2) <= 8, "at \(x),\(y): \(ours) vs mutool \(theirs)")
                compared += 1
            }
        }
        #expect(compared == 192)
    }

    @Test func pagesAreRenderedAtEachDisplaysOwnResolution() async throws {
        let url = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.quadrants()], width: 800, height: 600), name: "r.pdf")
        let deck = try DeckParser.parse(contentsOf: url)
        let caches = DrawingCaches()
        _ = try await HeadlessPresenter(deck: deck, displays: ["laptop", "usbc-monitor-4k", "vga-projector-xga"], steps: [],
                                        caches: caches).run()
        let keys: [PageRasterCache.Key] = caches.pages.keys.filter { $0.document == url.standardizedFileURL && $0.index == 0 }
        let sizes = keys.map { "\($0.width)x\($0.height)" }
        // 4:3 filling a 3840×2160 display's height: 2880×2160 pixels, not an upscaled smaller render.
        #expect(sizes.contains("2880x2160"), "rendered sizes: \(sizes)")
        // The 1024×768 projector (overscan-compensated): a render of its own, near its full width.
        #expect(keys.contains { (900...1024).contains($0.width) && abs(Double($0.width) / Double($0.height) - 4.0 / 3.0) < 0.01 },
                "rendered sizes: \(sizes)")
    }

    @Test func aBatchRenderGivesEveryPageItsOwnPicture() throws {
        let colours = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 20), (20, 200, 200)]
        let url = try MiniPDF.write(MiniPDF.data(pages: colours.map { MiniPDF.solid($0.0, $0.1, $0.2, width: 320, height: 180) },
                                                 width: 320, height: 180), name: "batch.pdf")
        let deck = try DeckParser.parse(contentsOf: url)
        let first = try #require(deck.slides[1].pdfPage)
        let rasters = try PopplerRasterizer.renderBatch(first, through: 4, width: 32, height: 18)
        #expect(Set(rasters.keys) == [1, 2, 3, 4])
        for (index, raster) in rasters {
            let o = (9 * 32 + 16) * 4, want = colours[index]
            #expect(raster.width == 32 && raster.height == 18)
            #expect(abs(Int(raster.rgba[o]) - want.0) <= 3 && abs(Int(raster.rgba[o + 1]) - want.1) <= 3
                    && abs(Int(raster.rgba[o + 2]) - want.2) <= 3, "page \(index + 1)")
        }
    }

    @Test func aPageWithACropBoxIsRenderedAsItsCropBoxShowsIt() throws {
        // MediaBox 800×600 all blue; the CropBox [100 100 500 400] (400×300) all red: only red may show.
        let content = "0 0 1 rg 0 0 800 600 re f 1 0 0 rg 100 100 400 300 re f"
        let url = try MiniPDF.write(MiniPDF.assemble([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 800 600] /CropBox [100 100 500 400] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream"]), name: "cropbox.pdf")
        let page = try #require(try DeckParser.parse(contentsOf: url).slides.first?.pdfPage)
        #expect(page.width == 400 && page.height == 300, "pdfinfo sizes the page by its CropBox")
        for raster in [try PopplerRasterizer.render(page, width: 40, height: 30),
                       try #require(try PopplerRasterizer.renderBatch(page, through: 0, width: 40, height: 30)[0])] {
            for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29), (20, 15)] {
                let o = (y * 40 + x) * 4
                #expect(raster.rgba[o] > 200 && raster.rgba[o + 2] < 60, "pixel (\(x), \(y)) is not the CropBox's red")
            }
        }
    }

    // MARK: Beamer split pages

    @Test func beamerNotesHalvesStayOnTheConsole() async throws {
        // 1024×384 points: a 512×384 (4:3) slide on the left, its notes on the right.
        let pages = [[MiniPDF.Box(x: 0, y: 0, width: 512, height: 384, r: 250, g: 120, b: 200),
                      MiniPDF.Box(x: 512, y: 0, width: 512, height: 384, r: 0, g: 160, b: 160)]]
        let url = try MiniPDF.write(MiniPDF.data(pages: pages, width: 1024, height: 384), name: "beamer.pdf")
        let deck = try DeckParser.parse(contentsOf: url, beamerNotes: .right)
        #expect(abs(deck.slides[0].aspect - 4.0 / 3.0) < 1e-9)
        let shots = try await HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-monitor-1080p"], steps: ["m", "m"].map {
            try HeadlessStep.parse($0)
        }).run()
        let slideColour = RGBA(250, 120, 200), notesColour = RGBA(0, 160, 160)
        for shot in shots where shot.display != "console" {
            #expect(Self.count(shot.canvas, slideColour) > 10_000, "step \(shot.step): no slide on the audience")
            #expect(Self.count(shot.canvas, notesColour) == 0, "step \(shot.step): notes on the audience")
            #expect(!shot.list.operations.contains { if case .page(let p, _) = $0 { p.part == .right } else { false } })
        }
        let console = try #require(shots.first { $0.display == "console" && $0.step == 0 })
        #expect(Self.count(console.canvas, notesColour) > 1_000, "the console does not show the notes half")
        let mirrored = try #require(shots.first { $0.display == "console" && $0.step == 1 })
        #expect(Self.count(mirrored.canvas, notesColour) == 0, "notes shown while mirrored")
    }

    // MARK: Helpers (independent of the presenter's own raster code)

    /// The canvas's pixels, read back once.
    static func pixels(_ canvas: any SnapshotCanvas) -> Bitmap {
        (canvas as? SDLPresenterCanvas)?.canvas.readPixels() ?? Bitmap(width: 1, height: 1, color: .black)
    }

    static func nonBlackBounds(_ canvas: any SnapshotCanvas) -> Rect {
        let bitmap = pixels(canvas)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in stride(from: 0, to: canvas.size.height, by: 1) {
            for x in stride(from: 0, to: canvas.size.width, by: 1) {
                let p = bitmap.pixel(x: x, y: y)
                guard Int(p.red) + Int(p.green) + Int(p.blue) > 24 else { continue }
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? Rect(x: 0, y: 0, width: 0, height: 0)
            : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    static func count(_ canvas: any SnapshotCanvas, _ colour: RGBA, step: Int = 2) -> Int {
        let bitmap = pixels(canvas)
        var n = 0
        for y in stride(from: 0, to: canvas.size.height, by: step) {
            for x in stride(from: 0, to: canvas.size.width, by: step) {
                let p = bitmap.pixel(x: x, y: y)
                if abs(Int(p.red) - Int(colour.r)) <= 6 && abs(Int(p.green) - Int(colour.g)) <= 6
                    && abs(Int(p.blue) - Int(colour.b)) <= 6 { n += 1 }
            }
        }
        return n
    }
}

/// The sample PDF decks committed in Examples/Decks/PDF read as documented.
@Suite("Sample PDF decks")
struct SamplePDFDeckTests {
    static let folder = Shell.packageRoot.appendingPathComponent("Examples/Decks/PDF")

    @Test func theSampleTalkHasItsPdfpcNotes() throws {
        let deck = try DeckParser.parse(contentsOf: Self.folder.appendingPathComponent("sample-talk.pdf"))
        #expect(deck.slides.count == 3 && deck.diagnostics.isEmpty)
        #expect(deck.slides[1].notes == ["Show that Esc does nothing; press Q twice to quit."])
        #expect(abs(deck.slides[0].aspect - 16.0 / 9.0) < 1e-9)
    }

    @Test func theBeamerSampleSplitsIntoA43SlideAndItsNotes() throws {
        let deck = try DeckParser.parse(contentsOf: Self.folder.appendingPathComponent("beamer-split.pdf"), beamerNotes: .right)
        #expect(deck.slides.count == 2)
        #expect(deck.slides.allSatisfy { $0.pdfPage?.part == .left && $0.pdfPage?.notes?.part == .right })
        #expect(abs(deck.slides[0].aspect - 4.0 / 3.0) < 1e-9)
    }

    @Test func theLibreOfficeSampleIsAnImpressExportWithItsNotes() throws {
        let url = Self.folder.appendingPathComponent("libreoffice-talk.pdf")
        // The /Producer string, as LibreOffice writes it: UTF-16BE hex, "LibreOffice" after the byte-order mark.
        let producer = "<FEFF" + "LibreOffice".utf16.map { String(format: "%04X", $0) }.joined()
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).contains("/Producer" + producer), "not a LibreOffice export")
        #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("libreoffice-talk.fodp").path))
        let deck = try DeckParser.parse(contentsOf: url)
        #expect(deck.slides.count == 3 && deck.diagnostics.isEmpty, "\(deck.diagnostics)")
        #expect(abs(deck.slides[0].aspect - 16.0 / 9.0) < 1e-3)
        #expect(deck.slides[1].notes == ["Point at the blue and the purple boxes."])
    }

    @Test func theOverlaySampleIsThreeSlidesOfFivePages() throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        let deck = try DeckParser.parse(contentsOf: Self.folder.appendingPathComponent("overlays.pdf"))
        #expect(deck.slides.count == 5 && deck.numbering.slideCount == 3)
        #expect(deck.numbering.labels == ["1", "2", "2", "2", "3"])
    }
}

/// `extdisplay present` itself on bad PDF decks and bad countdown options: exit 2 with a clear message.
@Suite("present command: PDFs and countdown options")
struct PresentCommandPDFTests {
    static func present(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let binary = try Repository.extdisplay().path
        let quoted = ([binary, "present"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try Shell.run(["sh", "-c", quoted + " 2>&1"], environment: ["DISPLAY": ""])
    }

    @Test func aMarkdownFileNamedPDFIsRefusedClearly() throws {
        let url = try MiniPDF.write(Data("# Not a PDF\n".utf8), name: "talk.pdf")
        let run = try Self.present([url.path])
        #expect(run.status == 2)
        #expect(run.output.contains("is named .pdf but is not a PDF"), "\(run.output)")
    }

    @Test(arguments: [
        (["--duration=-3"], "--duration -3.0: give the talk's length in minutes"),
        (["--duration", "nan"], "give the talk's length in minutes"),
        (["--end-time", "25:99"], "use HH:MM in 24-hour local time"),
        (["--end-time", "00:00"], "has already passed today"),
        (["--duration", "5", "--end-time", "23:59"], "not both"),
        (["--wall-clock", "7pm"], "--wall-clock '7pm': use HH:MM in 24-hour local time"),
        (["--wall-clock", "12:00", "--end-time", "11:59"], "--end-time 11:59 has already passed today"),
    ])
    func badCountdownOptionsExitWithAMessage(options: [String], expected: String) throws {
        let url = try MiniPDF.write(Data("# Slide\n".utf8), name: "talk.md")
        let run = try Self.present([url.path] + options)
        #expect(run.status == 2, "\(options): \(run.output)")
        #expect(run.output.contains(expected), "\(options): \(run.output)")
    }

    @Test func aPdfpcDurationIsTheDefaultCountdown() throws {
        let url = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.quadrants(), MiniPDF.quadrants()], width: 800, height: 600),
                                    name: "talk.pdf")
        try Data(#"{"pdfpcFormat": 2, "duration": 2, "pages": []}"#.utf8).write(to: PdfpcNotes.companion(of: url))
        let dir = url.deletingLastPathComponent().appendingPathComponent("shots").path
        let run = try Self.present([url.path, "--snapshot", dir])
        #expect(run.status == 0 && run.output.contains("2:00 left"), "\(run.output)")
        let overridden = try Self.present([url.path, "--duration", "5", "--snapshot", dir])
        #expect(overridden.output.contains("5:00 left"), "\(overridden.output)")
    }

    /// A PDF deck with `talk.pdfpc` holding `json`.
    static func pdfWithPdfpc(_ json: String) throws -> URL {
        let url = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.quadrants(), MiniPDF.quadrants()], width: 800, height: 600),
                                    name: "talk.pdf")
        try Data(json.utf8).write(to: PdfpcNotes.companion(of: url))
        return url
    }

    /// The virtual wall clock starts at 14:00 (`--wall-clock`): the file's end time 14:30 is a 30-minute countdown
    /// every run, its duration set aside (pdfpc 4.5 reads an end time so); 27 minutes in, the last 3 have begun.
    @Test func aPdfpcEndTimeCountsDownToItFromTheStart() throws {
        let url = try Self.pdfWithPdfpc(#"{"pdfpcFormat": 2, "duration": 2, "endTime": "14:30", "lastMinutes": 3, "pages": []}"#)
        let dir = url.deletingLastPathComponent().appendingPathComponent("shots").path
        let run = try Self.present([url.path, "--wall-clock", "14:00", "--keys", "wait:1500,wait:120", "--snapshot", dir])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("000 start: ") && $0.contains("30:00 left (ahead), ends at 14:30") }, "\(lines)")
        // 1500 s + 1/60: 5:00 left (rounded up), not yet the last 3 minutes; 120 s later, 2:59 left and the warning.
        #expect(lines.contains { $0.hasPrefix("001 ") && $0.contains("5:00 left (behind), ends at 14:30") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("002 ") && $0.contains("3:00 left (behind), last 3 minutes, ends at 14:30") },
                "\(lines)")
        // --duration replaces the file's plan, and says what it set aside.
        let overridden = try Self.present([url.path, "--wall-clock", "14:00", "--duration", "5", "--snapshot", dir])
        #expect(overridden.output.contains("--duration replaces talk.pdfpc's end time 14:30"), "\(overridden.output)")
        #expect(overridden.output.contains("5:00 left (ahead)") && !overridden.output.contains("ends at"), "\(overridden.output)")
        // --end-time on the command line: the same countdown, from the same virtual start.
        let typed = try Self.present([url.path, "--wall-clock", "13:45", "--end-time", "14:00", "--snapshot", dir])
        #expect(typed.output.contains("15:00 left (ahead), ends at 14:00"), "\(typed.output)")
    }

    /// Hostile fields: each named once, the talk goes on with the rest; an end time already past at the start is
    /// said, and the file's duration counts down instead.
    @Test func badPdfpcTimingFieldsAreSaidAndTheTalkGoesOn() throws {
        let url = try Self.pdfWithPdfpc(#"{"pdfpcFormat": 2, "duration": 2, "endTime": "25:99", "lastMinutes": -4, "pages": []}"#)
        let dir = url.deletingLastPathComponent().appendingPathComponent("shots").path
        let run = try Self.present([url.path, "--wall-clock", "14:00", "--snapshot", dir])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains(#"endTime "25:99" is not a time of day"#), "\(run.output)")
        #expect(run.output.contains("lastMinutes -4 is not a whole number of minutes"), "\(run.output)")
        #expect(run.output.contains("2:00 left (ahead)") && !run.output.contains("ends at"), "\(run.output)")
        let past = try Self.pdfWithPdfpc(#"{"pdfpcFormat": 2, "duration": 2, "endTime": "9:30", "pages": []}"#)
        let late = try Self.present([past.path, "--wall-clock", "14:00", "--snapshot", dir])
        #expect(late.status == 0, "\(late.output)")
        #expect(late.output.contains("the end time 09:30 (talk.pdfpc) has already passed (the talk starts at 14:00); "
                                     + "the countdown runs 2:00 instead"), "\(late.output)")
        #expect(late.output.contains("2:00 left (ahead)"), "\(late.output)")
    }

    @Test func aDurationShowsTheCountdownInTheStatus() throws {
        let url = try MiniPDF.write(Data("# One\n---\n# Two\n".utf8), name: "talk.md")
        let dir = url.deletingLastPathComponent().appendingPathComponent("shots").path
        // A step takes 1/60 s of virtual time; wait:10 lets ten seconds pass.
        let run = try Self.present([url.path, "--duration", "1", "--keys", "next,wait:10", "--snapshot", dir])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("1:00 left (ahead)") && run.output.contains("0:50 left (ahead)"), "\(run.output)")
    }
}
