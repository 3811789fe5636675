import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Page labels and Beamer overlays, as pdfpc treats them: overlays sharing a label are one slide for the
/// console's number, the overview and go-to; next and previous still step through every page.
@Suite("Page labels and overlays")
@MainActor
struct PageLabelTests {
    // MARK: Numbering (pure)

    @Test func overlaysSharingALabelAreOneSlide() {
        let n = SlideNumbering(labels: ["1", "2", "2", "2", "3"])
        #expect(n.slideCount == 3 && n.pageCount == 5)
        #expect(n.firstPages == [0, 1, 4])
        #expect((0..<5).map(n.slide(ofPage:)) == [0, 1, 1, 1, 2])
        #expect(n.pages(ofSlide: 1) == 1..<4)
        #expect(n.position(ofPage: 2) == "2 (2/3)" && n.position(ofPage: 4) == "3" && n.position(ofPage: 0) == "1")
        #expect(!n.isPlain && SlideNumbering(pageCount: 4).isPlain)
    }

    @Test func pagesWithoutALabelAreSlidesOfTheirOwnNumberedByPage() {
        let n = SlideNumbering(labels: [nil, nil, "", "x", "x", nil])
        #expect(n.labels == ["1", "2", "3", "x", "x", "6"])
        #expect(n.slideCount == 5)
        // A page numbered "2" next to a label "2" is still its own slide: only given labels group.
        #expect(SlideNumbering(labels: [nil, "2"]).slideCount == 2)
        #expect(SlideNumbering(labels: []).slideCount == 0 && SlideNumbering(labels: []).page(forTyped: "1") == nil)
    }

    @Test func aTypedNumberGoesToTheLastOverlayOfTheSlideWithThatLabel() {
        let n = SlideNumbering(labels: ["i", "ii", "1", "2", "2", "3", "3", "3"])
        #expect(n.page(forTyped: "2") == 4)
        #expect(n.page(forTyped: "3") == 7)
        #expect(n.page(forTyped: "1") == 2, "the label 1 wins over the first slide")
        // No slide has the label: the n-th slide (clamped), 0 and non-numbers go nowhere.
        #expect(n.page(forTyped: "99") == 7)
        #expect(n.page(forTyped: "0") == nil && n.page(forTyped: "") == nil)
    }

    @Test func theStateStepsThroughOverlaysButJumpsAndTilesBySlide() {
        let numbering = SlideNumbering(labels: ["1", "2", "2", "2", "3", "4", "4"])
        var state = PresenterState(slideCount: 7, startedAt: 0, numbering: numbering)
        for expected in [1, 2, 3, 4] {
            state.reduce(.key(.next), at: 0)
            #expect(state.slideIndex == expected, "next steps one page")
        }
        state.reduce(.key(.previous), at: 0)
        #expect(state.slideIndex == 3)
        for key in [PresenterKey.digit4, .confirm] { state.reduce(.key(key), at: 0) }
        #expect(state.slideIndex == 6, "4 Enter: the last overlay of slide 4")
        for key in [PresenterKey.digit2, .confirm] { state.reduce(.key(key), at: 0) }
        #expect(state.slideIndex == 3)
        // The overview's tiles are slides: from slide 2 (page 3), Right is slide 3, Enter its last page.
        state.reduce(.key(.overview), at: 0)
        #expect(state.overviewSelection == 1)
        state.reduce(.key(.next), at: 0)
        #expect(state.overviewSelection == 2)
        state.reduce(.key(.last), at: 0)
        #expect(state.overviewSelection == 3, "4 tiles for 7 pages")
        state.reduce(.key(.previous), at: 0)
        state.reduce(.key(.previous), at: 0)
        state.reduce(.key(.confirm), at: 0)
        #expect(state.slideIndex == 3 && state.overviewSelection == nil, "tile 2 is pages 2-4; Enter shows page 4")
        // A numbering of the wrong length is ignored (one slide per page).
        let odd = PresenterState(slideCount: 3, startedAt: 0, numbering: numbering)
        #expect(odd.numbering == SlideNumbering(pageCount: 3))
    }

    // MARK: Label ranges (pure)

    @Test func rangesGiveTheLabelsOfEveryStyle() {
        let ranges = [PageLabels.Range(start: 0, style: .lowerRoman), PageLabels.Range(start: 3, style: .decimal),
                      PageLabels.Range(start: 5, style: .upperLetters, prefix: "A-", first: 26),
                      PageLabels.Range(start: 7, prefix: "End"), PageLabels.Range(start: 8, style: .upperRoman, first: 1994),
                      PageLabels.Range(start: 9, style: .lowerLetters), PageLabels.Range(start: 10)]
        #expect(PageLabels.labels(ranges, pageCount: 11)
                == ["i", "ii", "iii", "1", "2", "A-Z", "A-AA", "End", "MCMXCIV", "a", nil])
        // Before the first range: no label. Ranges beyond the pages or negative are ignored.
        #expect(PageLabels.labels([PageLabels.Range(start: 1, style: .decimal, first: 7),
                                   PageLabels.Range(start: 9, style: .decimal), PageLabels.Range(start: -2, style: .upperRoman)],
                                  pageCount: 3) == [nil, "7", "8"])
        #expect(PageLabels.format(0, .decimal) == "1" && PageLabels.format(Int.max, .upperLetters).count <= 64)
        #expect(PageLabels.format(Int.max, .upperRoman).count < 200)
    }

    // MARK: The PDF object syntax

    @Test func theObjectParserReadsWhatMutoolPrints() {
        var p = PDFObject.Parser(#"12 0 obj <</Nums[0<</S/r>>2 8 0 R 4<</P(A\(1\)\101\n)/S/D/St 7>>]/K <FEFF00E9> /E()>>"#)
        let head = [p.value(), p.value(), p.value()]
        #expect(head == [.number(12), .number(0), .keyword("obj")])
        let object = p.value()
        guard case .dictionary(let d)? = object, case .array(let nums)? = d["Nums"] else {
            Issue.record("no dictionary")
            return
        }
        #expect(nums.count == 6 && nums[3] == .reference(8))
        guard case .dictionary(let range) = nums[5] else { return }
        #expect(range["P"]?.text == "A(1)A\n" && range["St"]?.integer == 7 && range["S"] == .name("D"))
        #expect(d["K"]?.text == "é" && d["E"]?.text == "")
        let atEnd = p.atEnd()
        #expect(atEnd)
    }

    @Test func hostileObjectTextNeverTraps() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("<<>>[]()/\\0123456789 R obj\n%FEFF".utf8)
        for _ in 0..<2_000 {
            let text = String(decoding: (0..<Int.random(in: 0...80, using: &random)).map { _ in
                alphabet.randomElement(using: &random)! }, as: UTF8.self)
            var p = PDFObject.Parser(text)
            for _ in 0..<100 where p.value() != nil {}
        }
        var deep = PDFObject.Parser(String(repeating: "[0 ", count: 100_000))
        let nested = deep.value()
        #expect(nested == nil)
        var big = PDFObject.Parser("1e999 -5 0 R 99999999999999999999 0 R")
        let values = [big.value(), big.value()]
        #expect(values == [.keyword("1e999"), .number(-5)])
    }

    // MARK: Read from real files (mutool)

    static let labelled: (pdf: Data, pages: Int) = {
        let pages = (0..<6).map { i in MiniPDF.solid(40 * i, 90, 200 - 30 * i, width: 640, height: 360) }
        let first = MiniPDF.firstExtraObject(pageCount: pages.count)
        // A tree with kids in separate objects, one range dictionary itself indirect: i, 1, 2, 2, 2, 3.
        let objects = ["<< /Kids [\(first + 1) 0 R \(first + 2) 0 R] >>",
                       "<< /Nums [0 << /S /r >> 1 \(first + 3) 0 R] /Limits [0 1] >>",
                       "<< /Nums [2 << /P (2) >> 5 << /S /D /St 3 >>] /Limits [2 5] >>",
                       "<< /S /D >>"]
        return (MiniPDF.data(pages: pages, width: 640, height: 360, catalogExtra: "/PageLabels \(first) 0 R",
                             extraObjects: objects), pages.count)
    }()

    @Test func labelsAreReadFromThePDFsNumberTree() throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        let url = try MiniPDF.write(Self.labelled.pdf, name: "overlays.pdf")
        let read = PageLabelReader.read(url, pageCount: Self.labelled.pages)
        #expect(read.labels == ["i", "1", "2", "2", "2", "3"] && read.problem == nil, "\(read)")
        let deck = try DeckParser.parse(contentsOf: url)
        #expect(deck.numbering.slideCount == 4 && deck.slides[3].pdfPage?.label == "2")
        // The status line (console, terminal, tests) counts slides by label, then pages.
        let controller = PresenterController(deck: deck, startedAt: 0)
        #expect(controller.statusLine(at: 0).hasPrefix("slide i of 4, page 1 of 6, timer "), "\(controller.statusLine(at: 0))")
        controller.apply(.key(.next), at: 0)
        controller.apply(.key(.next), at: 0)
        controller.apply(.key(.next), at: 0)
        #expect(controller.statusLine(at: 0).hasPrefix("slide 2 (2/3) of 4, page 4 of 6, timer "), "\(controller.statusLine(at: 0))")
        // Inline labels in the catalog, and a PDF with none.
        let inline = MiniPDF.data(pages: [MiniPDF.quadrants(), MiniPDF.quadrants()], width: 800, height: 600,
                                  catalogExtra: "/PageLabels << /Nums [0 << /P (Intro) >> 1 << /S /A >>] >>")
        #expect(PageLabelReader.read(try MiniPDF.write(inline, name: "i.pdf"), pageCount: 2).labels == ["Intro", "A"])
        let none = MiniPDF.data(pages: [MiniPDF.quadrants()], width: 800, height: 600)
        #expect(PageLabelReader.read(try MiniPDF.write(none, name: "n.pdf"), pageCount: 1).labels == nil)
    }

    @Test func aCyclicOrBrokenLabelTreeEndsWithoutLabels() throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        let first = MiniPDF.firstExtraObject(pageCount: 1)
        let cyclic = MiniPDF.data(pages: [MiniPDF.quadrants()], width: 800, height: 600,
                                  catalogExtra: "/PageLabels \(first) 0 R",
                                  extraObjects: ["<< /Kids [\(first) 0 R \(first + 1) 0 R] >>", "\(first + 1) 0 R"])
        let read = PageLabelReader.read(try MiniPDF.write(cyclic, name: "c.pdf"), pageCount: 1)
        #expect(read.labels == nil)
        // A fake `mutool` printing garbage: no labels, no trap.
        for garbage in ["<<", "1 0 obj <</Kids[5 0 R]>>", "<</Nums[0 <</S/D>>", "<</Nums[(x) 1 2]>>"] {
            #expect(PageLabelReader.labels(pageCount: 3) { _ in garbage }.labels == nil, "\(garbage)")
        }
    }

    @Test func pdfpcLabelsOverrideThePDFs() throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        let url = try MiniPDF.write(Self.labelled.pdf, name: "talk.pdf")
        let pdfpc = #"{"pdfpcFormat":2,"pages":[{"idx":0,"label":"1"},{"idx":1,"label":2},{"idx":2,"label":"2"},"#
            + #"{"idx":5,"label":"9","note":"last"}]}"#
        try Data(pdfpc.utf8).write(to: PdfpcNotes.companion(of: url))
        let deck = try DeckParser.parse(contentsOf: url)
        #expect(deck.slides.map { $0.pdfPage?.label } == ["1", "2", "2", "2", "2", "9"])
        #expect(deck.numbering.slideCount == 3 && deck.slides[5].notes == ["last"])
    }

    // MARK: On the console

    @Test func theConsoleShowsTheLabelAndTheOverviewOneTilePerSlide() throws {
        try #require(Shell.has("mutool"), "needs mupdf-tools (scripts/install-deps.sh)")
        let url = try MiniPDF.write(Self.labelled.pdf, name: "talk.pdf")
        let deck = try DeckParser.parse(contentsOf: url)
        let controller = PresenterController(deck: deck, startedAt: 0)
        let size = PixelSize(width: 1920, height: 1080)
        func texts() -> [String] {
            controller.mainList(size: size, at: 0, clock: "", metrics: ApproximateTextMetrics()).operations.compactMap {
                if case .text(let s, _, _, _) = $0 { s } else { nil }
            }
        }
        for _ in 0..<3 { controller.apply(.key(.next), at: 0) }
        #expect(texts().contains("Slide 2 (2/3) of 4"), "\(texts())")
        controller.apply(.key(.overview), at: 0)
        let ops = controller.mainList(size: size, at: 0, clock: "", metrics: ApproximateTextMetrics()).operations
        let tiles = ops.compactMap { if case .page(let p, _) = $0 { p.index } else { nil } }
        #expect(tiles == [0, 1, 4, 5], "one tile per slide, each its last overlay: \(tiles)")
        #expect(["i", "1", "2 (now)", "3"].allSatisfy(texts().contains), "\(texts())")
    }
}
