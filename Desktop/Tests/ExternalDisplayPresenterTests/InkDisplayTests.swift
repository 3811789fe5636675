import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import SDLWindows
import Testing
@testable import ExternalDisplayPresenter
import PresenterRuntime

/// Ink on every display (headless snapshots of the audience and the console), its damage, the `ink:` steps,
/// and the annotated PDF checked by tools that are not ours (qpdf, pdftoppm, mutool).
@Suite("Ink on the displays and in the PDF", .serialized)
@MainActor
struct InkDisplayTests {
    static let red = RGBA(220, 30, 30)
    static let blue = RGBA(30, 90, 230)

    /// A white 4:3 page (two of them).
    static func whitePDF(name: String = "talk.pdf") throws -> URL {
        try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.solid(255, 255, 255, width: 800, height: 600),
                                               MiniPDF.solid(255, 255, 255, width: 800, height: 600)],
                                       width: 800, height: 600), name: name)
    }

    static func near(_ p: (Int, Int, Int), _ c: RGBA, _ tolerance: Int = 40) -> Bool {
        abs(p.0 - Int(c.r)) <= tolerance && abs(p.1 - Int(c.g)) <= tolerance && abs(p.2 - Int(c.b)) <= tolerance
    }

    @Test func aStrokeAppearsWhereDrawnOnTheAudienceAndTheConsoleAndTheSpeakersMarksOnlyOnTheConsole() async throws {
        let url = try Self.whitePDF()
        let deck = try DeckParser.parse(contentsOf: url)
        let steps = try HeadlessStep.parseList("ink:0.2/0.5;0.8/0.5, ink-private, ink-colour, ink:0.5/0.1;0.5/0.3")
        let run = HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-monitor-1080p"], steps: steps)
        run.savesInk = false
        let shots = try await run.run()
        let last = try #require(shots.last?.step)
        let audience = try #require(shots.first { $0.display == "hdmi-monitor-1080p" && $0.step == last })
        let box = PDFDeckTests.nonBlackBounds(audience.canvas)
        let pixels = PDFDeckTests.pixels(audience.canvas)
        func at(_ fx: Double, _ fy: Double) -> (Int, Int, Int) {
            let p = pixels.pixel(x: box.x + Int(fx * Double(box.width)), y: box.y + Int(fy * Double(box.height)))
            return (Int(p.red), Int(p.green), Int(p.blue))
        }
        // The room's red line across the middle, from a fifth to four fifths of the width.
        for fx in [0.25, 0.4, 0.5, 0.6, 0.75] { #expect(Self.near(at(fx, 0.5), Self.red), "audience at \(fx), 0.5: \(at(fx, 0.5))") }
        for fx in [0.1, 0.9] { #expect(Self.near(at(fx, 0.5), RGBA(255, 255, 255), 8), "audience at \(fx), 0.5: \(at(fx, 0.5))") }
        #expect(Self.near(at(0.5, 0.35), RGBA(255, 255, 255), 8))
        // The speaker's blue marks never reach the room.
        #expect(PDFDeckTests.count(audience.canvas, Self.blue) == 0)
        #expect(PDFDeckTests.count(audience.canvas, Self.red) > 100)
        let console = try #require(shots.first { $0.display == "console" && $0.step == last })
        #expect(PDFDeckTests.count(console.canvas, Self.red) > 30)
        #expect(PDFDeckTests.count(console.canvas, Self.blue) > 10)
        // Before any ink, no red on either.
        let start = try #require(shots.first { $0.display == "hdmi-monitor-1080p" && $0.step == 0 })
        #expect(PDFDeckTests.count(start.canvas, Self.red) == 0)
    }

    @Test func aNewStrokeDamagesOnlyItsOwnPixels() throws {
        let deck = Deck(title: "t", slides: [Slide(number: 1, title: [InlineRun("Title")])])
        let controller = PresenterController(deck: deck, startedAt: 0)
        let tv = AudienceDisplay(id: "tv", name: "TV", mode: DisplayMode(width: 1920, height: 1080),
                                 layout: DisplayLayout(mode: DisplayMode(width: 1920, height: 1080), overscan: 0,
                                                       compensation: .scale))
        controller.handle(.attached(tv), at: 0)
        let metrics = ApproximateTextMetrics()
        let before = try #require(controller.externalList(for: "tv", at: 0, clock: "", metrics: metrics))
        for input: InkInput in [.begin(InkPoint(x: 0.5, y: 0.5)), .move(InkPoint(x: 0.55, y: 0.52)), .end] {
            controller.handle(controller.inkInput(input), at: 0)
        }
        let after = try #require(controller.externalList(for: "tv", at: 0, clock: "", metrics: metrics))
        guard case .rects(let rects) = DisplayListDamage(from: before, to: after, metrics: metrics) else {
            Issue.record("a stroke damaged the whole display: \(DisplayListDamage(from: before, to: after, metrics: metrics))")
            return
        }
        let area = rects.reduce(0) { $0 + $1.width * $1.height }
        // The line is about 96 × 22 pixels plus its width; far less than the display.
        #expect(area < 200 * 100, "damage \(rects)")
        #expect(rects.allSatisfy { $0.x >= 940 && $0.maxX <= 1080 && $0.y >= 520 && $0.maxY <= 600 }, "damage \(rects)")
    }

    @Test func inkStepsAreParsedAndBadOnesRefusedWithAnExample() throws {
        #expect(try HeadlessStep.parse("ink:0.1/0.2;0.3/0.4/0.5")
                == .ink([InkPoint(x: 0.1, y: 0.2), InkPoint(x: 0.3, y: 0.4, pressure: 0.5)]))
        for bad in ["ink:", "ink:nan/0.5", "ink:0.5/inf", "ink:2/0.5", "ink:0.1/0.2/7", "ink:0.1", "ink:a/b", "ink:0.1/-0.2"] {
            #expect(throws: HeadlessError.self, "\(bad)") { try HeadlessStep.parse(bad) }
            do { _ = try HeadlessStep.parse(bad) } catch { #expect(error.description.contains("ink:0.2/0.3;0.6/0.3")) }
        }
    }

    // MARK: The annotated PDF

    static func strokes() -> [Int: [InkStroke]] {
        [0: [InkStroke(points: [InkPoint(x: 0.2, y: 0.5), InkPoint(x: 0.8, y: 0.5)], tool: .pen,
                       colour: InkColour(220, 30, 30), width: 0.012)],
         1: [InkStroke(points: [InkPoint(x: 0.1, y: 0.25), InkPoint(x: 0.9, y: 0.25)], tool: .highlighter,
                       colour: InkColour(255, 210, 0), width: 0.05)]]
    }

    /// pdftoppm's rendering of `page` (1-based) at 800×600, read from its PPM output.
    static func poppler(_ url: URL, page: Int) throws -> (Int, Int) -> (Int, Int, Int) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ink-\(UUID().uuidString)")
        let run = try Shell.run(["pdftoppm", "-f", "\(page)", "-l", "\(page)", "-scale-to-x", "800", "-scale-to-y", "600",
                                 "-singlefile", url.path, base.path])
        try #require(run.status == 0, "pdftoppm failed: \(run.output)")
        let bytes = [UInt8](try Data(contentsOf: base.appendingPathExtension("ppm")))
        var fields: [Int] = [], i = 2, current = ""
        while fields.count < 3 && i < bytes.count {
            let c = Character(UnicodeScalar(bytes[i]))
            if c.isNumber { current.append(c) } else if !current.isEmpty { fields.append(Int(current) ?? 0); current = "" }
            i += 1
        }
        let w = fields.first ?? 0, start = i
        return { x, y in
            let o = start + (y * w + x) * 3
            return o + 2 < bytes.count ? (Int(bytes[o]), Int(bytes[o + 1]), Int(bytes[o + 2])) : (-1, -1, -1)
        }
    }

    /// Writes the ink into a copy of `url` and checks it with qpdf, mutool and pdftoppm.
    func checkAnnotatedCopy(of url: URL) throws {
        let original = try Data(contentsOf: url)
        let deck = try DeckParser.parse(contentsOf: url)
        let pages = deck.slides.compactMap(\.pdfPage)
        let out = InkAnnotationWriter.defaultOutput(for: url)
        #expect(out.lastPathComponent == url.deletingPathExtension().lastPathComponent + "-annotated.pdf")
        let written = try InkAnnotationWriter.write(strokes: Self.strokes(), pages: pages, to: out)
        #expect(written.strokes == 2 && written.problems.isEmpty)
        // The original is untouched, and the copy starts with its bytes: an incremental update.
        #expect(try Data(contentsOf: url) == original)
        let copy = try Data(contentsOf: out)
        #expect(copy.prefix(original.count) == original)
        let check = try Shell.run(["qpdf", "--check", out.path])
        #expect(check.status == 0, "qpdf --check: \(check.output)")
        #expect(check.output.contains("No syntax or stream encoding errors"), "\(check.output)")
        // Its objects, as MuPDF reads them.
        let annots = try Shell.run(["mutool", "show", out.path, "pages/1/Annots"])  // 1-based paths
        #expect(annots.output.contains("R"), "\(annots.output)")
        let first = try Shell.run(["mutool", "show", out.path, "pages/1/Annots/1"])
        #expect(first.output.contains("/Subtype /Ink") || first.output.contains("/Subtype/Ink"), "\(first.output)")
        #expect(first.output.contains("/InkList"), "\(first.output)")
        let second = try Shell.run(["mutool", "show", out.path, "pages/2/Annots/1"])
        #expect(second.output.contains("/CA 0.35") || second.output.contains("/CA .35"), "\(second.output)")
        // Two renderers that are not ours draw the stroke where it was drawn (within 4 pixels of 800×600).
        let p1 = try Self.poppler(out, page: 1)
        for x in [200, 400, 600, 790 - 200] { #expect(Self.near(p1(x, 300), Self.red), "pdftoppm at \(x),300: \(p1(x, 300))") }
        for (x, y) in [(400, 290), (400, 310), (100, 300), (700, 300)] {
            #expect(Self.near(p1(x, y), RGBA(255, 255, 255), 8), "pdftoppm at \(x),\(y): \(p1(x, y))")
        }
        let mu = try MuPDF.draw(out, page: 1, width: 800, height: 600)
        for x in [200, 400, 600] { #expect(Self.near(mu.pixel(x, 300), Self.red), "mutool at \(x),300: \(mu.pixel(x, 300))") }
        #expect(Self.near(mu.pixel(400, 320), RGBA(255, 255, 255), 8))
        // The highlighter is translucent yellow over white: light yellow, not opaque.
        let p2 = try Self.poppler(out, page: 2)
        let hl = p2(400, 150)
        #expect(hl.0 > 240 && hl.1 > 220 && hl.2 > 120 && hl.2 < 220, "highlighter at 400,150: \(hl)")
        // The next run reads it back.
        let (back, problem) = InkAnnotationReader.read(out, pages: pages)
        #expect(problem == nil)
        let pen = try #require(back[0]?.first)
        #expect(pen.tool == .pen && pen.colour == InkColour(220, 30, 30))
        #expect(abs((pen.points.first?.x ?? 0) - 0.2) < 0.001 && abs((pen.points.first?.y ?? 0) - 0.5) < 0.001)
        #expect(abs(pen.width - 0.012) < 0.0005)
        #expect(back[1]?.first?.tool == .highlighter)
        // Written again from the original, not stacked on the last copy.
        try InkAnnotationWriter.write(strokes: Self.strokes(), pages: pages, to: out)
        #expect(try Data(contentsOf: out) == copy)
    }

    @Test func theAnnotatedCopyOfAClassicPDFPassesQpdfAndRendersTheInk() throws {
        try checkAnnotatedCopy(of: try Self.whitePDF())
    }

    @Test func theAnnotatedCopyOfAPDFWithObjectStreamsPassesQpdfAndRendersTheInk() throws {
        let classic = try Self.whitePDF(name: "classic.pdf")
        let packed = classic.deletingLastPathComponent().appendingPathComponent("packed.pdf")
        let run = try Shell.run(["qpdf", "--object-streams=generate", classic.path, packed.path])
        try #require(run.status == 0, "qpdf: \(run.output)")
        let head = try Data(contentsOf: packed)
        #expect(String(decoding: head, as: UTF8.self).contains("/XRef"), "qpdf did not write a cross-reference stream")
        try checkAnnotatedCopy(of: packed)
    }

    @Test func theOriginalIsNeverTheOutput() throws {
        let url = try Self.whitePDF()
        let pages = try DeckParser.parse(contentsOf: url).slides.compactMap(\.pdfPage)
        #expect(throws: InkSaveError.self) { try InkAnnotationWriter.write(strokes: Self.strokes(), pages: pages, to: url) }
    }

    @Test func aHeadlessTalkSavesItsInkAtTheEndAndTheNextRunReadsItBack() async throws {
        let url = try Self.whitePDF()
        let original = try Data(contentsOf: url)
        let deck = try DeckParser.parse(contentsOf: url)
        var lines: [String] = []
        _ = try await HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-monitor-1080p"],
                                        steps: try HeadlessStep.parseList("ink:0.2/0.5;0.8/0.5")).run { lines.append($0) }
        let out = InkAnnotationWriter.defaultOutput(for: url)
        #expect(FileManager.default.fileExists(atPath: out.path), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ink saved: 1 strokes") }, "\(lines)")
        #expect(try Data(contentsOf: url) == original)
        // The next run starts with the stroke on the room's displays.
        lines = []
        let shots = try await HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-monitor-1080p"], steps: []).run { lines.append($0) }
        #expect(lines.contains { $0.contains("read back") }, "\(lines)")
        let audience = try #require(shots.first { $0.display == "hdmi-monitor-1080p" })
        #expect(PDFDeckTests.count(audience.canvas, Self.red) > 100)
        // Nothing changed: the copy is not written again.
        #expect(!lines.contains { $0.hasPrefix("ink saved") }, "\(lines)")
    }
}

/// Zoom and spotlight as the audience's display list draws them.
@Suite("Zoom and spotlight on the audience")
@MainActor
struct ZoomLayoutTests {
    static func controller() -> (PresenterController, AudienceDisplay) {
        // Lines of text down the whole slide, so some stay in view when zoomed into its middle.
        let lines = (1...8).map { SlideBlock.paragraph([InlineRun("Line \($0) of the slide")]) }
        let deck = Deck(title: "t", slides: [Slide(number: 1, title: [InlineRun("Title")], blocks: lines), Slide(number: 2)])
        let controller = PresenterController(deck: deck, startedAt: 0)
        let tv = AudienceDisplay(id: "tv", name: "TV", mode: DisplayMode(width: 1920, height: 1080),
                                 layout: DisplayLayout(mode: DisplayMode(width: 1920, height: 1080), overscan: 0,
                                                       compensation: .scale))
        controller.handle(.attached(tv), at: 0)
        return (controller, tv)
    }

    static func inkPoints(_ list: DisplayList) -> [InkPath.Point] {
        list.operations.flatMap { op -> [InkPath.Point] in if case .ink(let paths) = op { paths.flatMap(\.points) } else { [] } }
    }

    @Test func zoomedTheRegionFillsTheDisplayAndTheInkIsEnlargedWithIt() throws {
        let (controller, _) = Self.controller()
        for input: InkInput in [.begin(InkPoint(x: 0.3, y: 0.3)), .move(InkPoint(x: 0.5, y: 0.5)), .end] {
            controller.handle(controller.inkInput(input), at: 0)
        }
        let plain = try #require(controller.externalList(for: "tv", at: 0, clock: "", metrics: ApproximateTextMetrics()))
        #expect(Self.inkPoints(plain).map { [$0.x, $0.y] } == [[576, 324], [960, 540]])
        controller.handle(.key(.zoomIn), at: 0)  // 2× around the centre: the region 0.25…0.75
        let zoomed = try #require(controller.externalList(for: "tv", at: 0, clock: "", metrics: ApproximateTextMetrics()))
        // (0.3 − 0.25) × 2 = 0.1 of the display; the centre stays the centre; the line twice as wide.
        #expect(Self.inkPoints(zoomed).map { [$0.x, $0.y] } == [[192, 108], [960, 540]])
        #expect(abs((Self.inkPoints(zoomed).first?.width ?? 0) - 2 * (Self.inkPoints(plain).first?.width ?? 0)) <= 1)
        // The slide's text is laid out again at twice the size, not enlarged as pixels (the body's lines: the
        // title, above the region, is left out of the zoomed list).
        let sizes = { (list: DisplayList) in list.operations.compactMap { op -> Int? in
            if case .text(_, _, _, let style) = op { style.size } else { nil } } }
        #expect(!sizes(zoomed).isEmpty, "no text in view")
        #expect((sizes(zoomed).min() ?? 0) >= 2 * (sizes(plain).min() ?? 0) - 1)
        controller.handle(.key(.next), at: 0)
        #expect(controller.state.zoom == nil)
    }

    @Test func theSpotlightDimsAllButACircleAroundThePointer() throws {
        let (controller, _) = Self.controller()
        controller.handle(.pointer(SlidePoint(x: 0.5, y: 0.5)), at: 0)
        controller.handle(.key(.spotlight), at: 0)
        let list = try #require(controller.externalList(for: "tv", at: 0, clock: "", metrics: ApproximateTextMetrics()))
        let dims = list.operations.compactMap { op -> Rect? in if case .fill(let r, let c) = op, c.a == 170 { r } else { nil } }
        #expect(dims.count > 10)
        // Nothing dims the pointer's surroundings; the slide's corners are dimmed.
        func dimmed(_ x: Int, _ y: Int) -> Bool { dims.contains { $0.x <= x && x < $0.maxX && $0.y <= y && y < $0.maxY } }
        #expect(!dimmed(960, 540) && !dimmed(1000, 560) && !dimmed(900, 500))
        #expect(dimmed(10, 10) && dimmed(1900, 1070) && dimmed(960, 100))
        controller.handle(.key(.spotlight), at: 0)
        let off = try #require(controller.externalList(for: "tv", at: 0, clock: "", metrics: ApproximateTextMetrics()))
        #expect(!off.operations.contains { if case .fill(_, let c) = $0 { c.a == 170 } else { false } })
    }
}

/// Ink on a Beamer page split into a slide and its notes lands on the slide's half of the page.
@Suite("Ink on Beamer split pages")
struct InkBeamerSplitTests {
    @Test func aStrokeOnTheSlideHalfIsSavedOnThatHalfOfThePage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ink-beamer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("split.pdf")
        try FileManager.default.copyItem(at: Shell.packageRoot.appendingPathComponent("Examples/Decks/PDF/beamer-split.pdf"), to: url)
        let deck = try DeckParser.parse(contentsOf: url, beamerNotes: .right)
        let pages = deck.slides.compactMap(\.pdfPage)
        // A vertical red line down the middle of the slide (the left half of a 1024×384 page).
        let stroke = InkStroke(points: [InkPoint(x: 0.5, y: 0.2), InkPoint(x: 0.5, y: 0.8)], tool: .pen,
                               colour: InkColour(220, 30, 30), width: 0.02)
        let out = folder.appendingPathComponent("split-annotated.pdf")
        try InkAnnotationWriter.write(strokes: [0: [stroke]], pages: pages, to: out)
        let check = try Shell.run(["qpdf", "--check", out.path])
        #expect(check.status == 0, "\(check.output)")
        // MuPDF at 1024×384: the line at x = 256 (the middle of the left half), from y ≈ 77 to 307.
        let page = try MuPDF.draw(out, page: 1, width: 1024, height: 384)
        for y in [100, 192, 290] {
            let p = page.pixel(256, y)
            #expect(p.0 > 180 && p.1 < 90 && p.2 < 90, "mutool at 256,\(y): \(p)")
        }
        for (x, y) in [(768, 192), (256, 30), (256, 360)] {
            let p = page.pixel(x, y)
            #expect(!(p.0 > 180 && p.1 < 90 && p.2 < 90), "red where no ink was drawn, at \(x),\(y): \(p)")
        }
        let back = InkAnnotationReader.read(out, pages: pages).strokes[0]?.first
        #expect(abs((back?.points.first?.x ?? 0) - 0.5) < 0.001 && abs((back?.points.first?.y ?? 0) - 0.2) < 0.001)
    }
}
