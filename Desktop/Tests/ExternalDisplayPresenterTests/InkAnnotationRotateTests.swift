import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter
import PresenterRuntime

/// Ink on pages turned by `/Rotate` (on the page or inherited from the page tree, with boxes not at the origin):
/// the annotation is written in the page's unturned user space, so renderers that are not ours (poppler's
/// pdftoppm, MuPDF's mutool draw) show the stroke where it was drawn on the slide as shown, and reading it back
/// gives the same points. A `/Rotate` viewers disagree on keeps that page's ink out with a message; the other
/// pages' ink is saved.
@Suite("InkAnnotation on turned pages", .serialized)
struct InkAnnotationRotateTests {
    /// One page of a hand-written test PDF: its MediaBox, CropBox and /Rotate (nil: not on the page), and extra
    /// entries (e.g. /Annots).
    struct TestPage {
        var mediaBox: [Double]?
        var cropBox: [Double]?
        var rotate: String?
        var extra = ""
    }

    /// A PDF whose pages are white with a black 12-point square centred at `mark` (fractions of each page's
    /// visible box, unturned, from its bottom-left corner); `pagesNode` is added to the page tree's root (inherited
    /// /Rotate and /MediaBox), `extraObjects` are numbered after the pages' content streams.
    static func pdf(_ pages: [TestPage], pagesNode: String = "", mark: (u: Double, v: Double) = (0.3, 0.7),
                    inheritedMediaBox: [Double]? = nil, extraObjects: [String] = []) -> Data {
        var objects = ["<</Type/Catalog/Pages 2 0 R>>"]
        let kids = pages.indices.map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append("<</Type/Pages/Kids[\(kids)]/Count \(pages.count)\(pagesNode)>>")
        func box(_ b: [Double]) -> String { "[" + b.map { String($0) }.joined(separator: " ") + "]" }
        for (i, page) in pages.enumerated() {
            let media = page.mediaBox ?? inheritedMediaBox ?? [0, 0, 612, 792]
            // The visible box as poppler takes it: a CropBox taller than the MediaBox takes its bottom and top
            // (the test's pages are never wider), then the CropBox clipped to the MediaBox.
            let visible = page.cropBox.map { c in
                let (y0, y1) = c[3] - c[1] > media[3] - media[1] ? (media[1], media[3]) : (c[1], c[3])
                return [max(c[0], media[0]), max(y0, media[1]), min(c[2], media[2]), min(y1, media[3])]
            } ?? media
            let cx = visible[0] + mark.u * (visible[2] - visible[0]), cy = visible[1] + mark.v * (visible[3] - visible[1])
            let content = "1 1 1 rg \(media[0]) \(media[1]) \(media[2] - media[0]) \(media[3] - media[1]) re f "
                + "0 0 0 rg \(cx - 6) \(cy - 6) 12 12 re f"
            var dictionary = "<</Type/Page/Parent 2 0 R/Contents \(4 + 2 * i) 0 R"
            if let m = page.mediaBox { dictionary += "/MediaBox\(box(m))" }
            if let c = page.cropBox { dictionary += "/CropBox\(box(c))" }
            if let r = page.rotate { dictionary += "/Rotate \(r)" }
            objects.append(dictionary + page.extra + ">>")
            objects.append("<</Length \(content.utf8.count)>>\nstream\n\(content)\nendstream")
        }
        return MiniPDF.assemble(objects + extraObjects)
    }

    /// A rendered page: its size and a pixel reader.
    typealias Picture = (width: Int, height: Int, pixel: (Int, Int) -> (Int, Int, Int))

    /// poppler's rendering of `page` (1-based), of the CropBox as the presenter shows it, 400 pixels on its
    /// longer side (`-scale-to`: pdftoppm's `-scale-to-x` and `-y` are of the page before its turn).
    static func poppler(_ url: URL, page: Int) throws -> Picture {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ink-rotate-\(UUID().uuidString)")
        let run = try Shell.run(["pdftoppm", "-cropbox", "-f", "\(page)", "-l", "\(page)", "-scale-to", "400",
                                 "-singlefile", url.path, base.path])
        try #require(run.status == 0, "pdftoppm failed: \(run.output)")
        let bytes = [UInt8](try Data(contentsOf: base.appendingPathExtension("ppm")))
        try? FileManager.default.removeItem(at: base.appendingPathExtension("ppm"))
        var fields: [Int] = [], i = 2, current = ""
        while fields.count < 3 && i < bytes.count {
            let c = Character(UnicodeScalar(bytes[i]))
            if c.isNumber { current.append(c) } else if !current.isEmpty { fields.append(Int(current) ?? 0); current = "" }
            i += 1
        }
        try #require(fields.count == 3, "pdftoppm wrote no PPM header")
        let w = fields[0], h = fields[1], start = i
        return (w, h, { x, y in
            let o = start + (y * w + x) * 3
            return x >= 0 && y >= 0 && x < w && y < h && o + 2 < bytes.count
                ? (Int(bytes[o]), Int(bytes[o + 1]), Int(bytes[o + 2])) : (-1, -1, -1)
        })
    }

    static func isRed(_ p: (Int, Int, Int)) -> Bool { p.0 > 170 && p.1 < 100 && p.2 < 100 }
    static func isBlack(_ p: (Int, Int, Int)) -> Bool { p.0 < 60 && p.1 < 60 && p.2 < 60 && p.0 >= 0 }

    /// The centre of the pixels `matching` in `picture` (nil when none do).
    static func centre(_ picture: Picture, _ matching: ((Int, Int, Int)) -> Bool,
                       columns: ClosedRange<Int>? = nil, rows: ClosedRange<Int>? = nil) -> (x: Double, y: Double)? {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in rows ?? 0...(picture.height - 1) {
            for x in columns ?? 0...(picture.width - 1) where matching(picture.pixel(x, y)) {
                sx += Double(x) + 0.5
                sy += Double(y) + 0.5
                n += 1
            }
        }
        return n > 0 ? (sx / n, sy / n) : nil
    }

    /// Draws a cross of two red strokes through the black mark of page 1 of `data` as poppler shows it, writes
    /// the ink, and checks with pdftoppm and mutool draw that both strokes pass through the mark (their centre
    /// lines within `tolerance` pixels of the mark's centre on a page rendered 400 pixels on its longer side),
    /// that the horizontal one is horizontal on the shown page, and that reading the ink back gives the same
    /// points. `expected`: where the mark should be shown (fractions), as the test works it out by hand.
    /// `muPDF`: whether MuPDF is asked too (it shows a CropBox taller than the MediaBox otherwise than poppler).
    func checkCross(_ data: Data, name: String, expected: (x: Double, y: Double), tolerance: Double = 2,
                    muPDF: Bool = true) throws {
        let url = try MiniPDF.write(data, name: "\(name).pdf")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let pages = try DeckParser.parse(contentsOf: url).slides.compactMap(\.pdfPage)
        let page = try #require(pages.first)
        // Where the mark is shown, found in poppler's picture of the original (not from our arithmetic).
        let original = try Self.poppler(url, page: 1)
        let width = original.width, height = original.height
        #expect(abs(Double(width) / Double(height) - page.width / page.height) < 0.01,
                "\(name): the deck's page is \(page.width)×\(page.height), pdftoppm's \(width)×\(height)")
        let mark = try #require(Self.centre(original, Self.isBlack), "\(name): no mark on the original page")
        // The presenter's own rendering of the slide shows the mark there too.
        let raster = try PopplerRasterizer.render(page, width: width, height: height)
        let shown = Self.centre((raster.width, raster.height, { x, y in
            let o = (y * raster.width + x) * 4
            return (Int(raster.rgba[o]), Int(raster.rgba[o + 1]), Int(raster.rgba[o + 2]))
        }), Self.isBlack)
        #expect(shown.map { abs($0.x - mark.x) <= 2 && abs($0.y - mark.y) <= 2 } == true,
                "\(name): the presenter shows the mark at \(String(describing: shown)), pdftoppm at \(mark)")
        let fx = mark.x / Double(width), fy = mark.y / Double(height)
        #expect(abs(fx - expected.x) * Double(width) <= 2 && abs(fy - expected.y) * Double(height) <= 2,
                "\(name): the mark is shown at \(fx), \(fy), not \(expected) as worked out by hand")
        let strokes = [
            InkStroke(points: [InkPoint(x: fx - 0.15, y: fy), InkPoint(x: fx, y: fy), InkPoint(x: fx + 0.15, y: fy)],
                      tool: .pen, colour: InkColour(220, 30, 30), width: 0.012),
            InkStroke(points: [InkPoint(x: fx, y: fy - 0.15), InkPoint(x: fx, y: fy + 0.15)], tool: .pen,
                      colour: InkColour(220, 30, 30), width: 0.012),
        ]
        let out = url.deletingLastPathComponent().appendingPathComponent("\(name)-annotated.pdf")
        let outcome = try InkAnnotationWriter.write(strokes: [0: strokes], pages: pages, to: out)
        #expect(outcome.strokes == 2 && outcome.problems.isEmpty, "\(name): \(outcome)")
        let check = try Shell.run(["qpdf", "--check", out.path])
        #expect(check.status == 0, "\(name): qpdf --check: \(check.output)")
        var pictures: [(String, Picture)] = [("pdftoppm", try Self.poppler(out, page: 1))]
        if muPDF {
            let mu = try MuPDF.draw(out, page: 1, width: width, height: height)
            pictures.append(("mutool draw", (width: mu.width, height: mu.height, pixel: mu.pixel)))
        }
        for (renderer, picture) in pictures {
            #expect(picture.width == width && picture.height == height, "\(name), \(renderer): \(picture.width)×\(picture.height)")
            // The horizontal stroke, away from the vertical one: its centre line's height.
            let dx = Int(0.1 * Double(width)), dy = Int(0.1 * Double(height))
            let mx = Int(mark.x), my = Int(mark.y)
            let across = Self.centre(picture, Self.isRed, columns: (mx + dx - 2)...(mx + dx + 2))
            let down = Self.centre(picture, Self.isRed, rows: (my + dy - 2)...(my + dy + 2))
            let acrossLeft = Self.centre(picture, Self.isRed, columns: (mx - dx - 2)...(mx - dx + 2))
            #expect(across.map { abs($0.y - mark.y) <= tolerance } == true,
                    "\(name), \(renderer): the horizontal stroke at x \(mx + dx) is at y \(String(describing: across?.y)), the mark at \(mark.y)")
            #expect(acrossLeft.map { abs($0.y - mark.y) <= tolerance } == true,
                    "\(name), \(renderer): the horizontal stroke at x \(mx - dx) is at y \(String(describing: acrossLeft?.y)), the mark at \(mark.y)")
            #expect(down.map { abs($0.x - mark.x) <= tolerance } == true,
                    "\(name), \(renderer): the vertical stroke at y \(my + dy) is at x \(String(describing: down?.x)), the mark at \(mark.x)")
            // Its ends: red 0.13 of the width out, none 0.2 out (the stroke is 0.15 long each way).
            for sign in [-1.0, 1.0] {
                let inside = Int(mark.x + sign * 0.13 * Double(width)), outside = Int(mark.x + sign * 0.2 * Double(width))
                #expect(Self.isRed(picture.pixel(inside, my)), "\(name), \(renderer): no ink at \(inside),\(my)")
                #expect(!Self.isRed(picture.pixel(outside, my)), "\(name), \(renderer): ink at \(outside),\(my)")
            }
        }
        // Read back: the same points (the file holds user space to 4 decimals of a point).
        let (back, problem) = InkAnnotationReader.read(out, pages: pages)
        #expect(problem == nil, "\(name): \(problem ?? "")")
        let read = back[0] ?? []
        #expect(read.count == 2, "\(name): \(read.count) strokes read back")
        for (a, b) in zip(strokes, read) {
            #expect(a.points.count == b.points.count)
            for (p, q) in zip(a.points, b.points) {
                #expect(abs(p.x - q.x) < 1e-6 && abs(p.y - q.y) < 1e-6, "\(name): \(p) read back as \(q)")
            }
            #expect(abs(a.width - b.width) < 1e-6, "\(name): width \(a.width) read back as \(b.width)")
        }
    }

    // The mark is at (0.3, 0.7) of the unturned visible box from its bottom-left corner: (u, v) = (0.3, 0.3) from
    // its top-left. Turned clockwise by 90° it is shown at (1 − v, u) = (0.7, 0.3); by 180° at (0.7, 0.7); by 270°
    // at (v, 1 − u) = (0.3, 0.7).

    @Test func aPageTurnedBy90() throws {
        try checkCross(Self.pdf([TestPage(mediaBox: [0, 0, 800, 600], rotate: "90")]), name: "r90", expected: (0.7, 0.3))
    }

    @Test func aPageTurnedBy180() throws {
        try checkCross(Self.pdf([TestPage(mediaBox: [0, 0, 800, 600], rotate: "180")]), name: "r180", expected: (0.7, 0.7))
    }

    @Test func aPageTurnedBy270() throws {
        try checkCross(Self.pdf([TestPage(mediaBox: [0, 0, 800, 600], rotate: "270")]), name: "r270", expected: (0.3, 0.7))
    }

    @Test func aPageTurnedByMinus90IsTurnedBy270() throws {
        try checkCross(Self.pdf([TestPage(mediaBox: [0, 0, 800, 600], rotate: "-90")]), name: "rm90", expected: (0.3, 0.7))
    }

    @Test func aPageTurnedBy450IsTurnedBy90() throws {
        try checkCross(Self.pdf([TestPage(mediaBox: [0, 0, 800, 600], rotate: "450")]), name: "r450", expected: (0.7, 0.3))
    }

    @Test func anUnturnedPageWithBoxesAwayFromTheOrigin() throws {
        try checkCross(Self.pdf([TestPage(mediaBox: [-100, 50, 700, 650], cropBox: [0, 100, 600, 550])]), name: "r0box",
                       expected: (0.3, 0.3))
    }

    @Test func aRotationAndMediaBoxInheritedFromThePageTree() throws {
        try checkCross(Self.pdf([TestPage(rotate: nil)], pagesNode: "/Rotate 90/MediaBox[100 200 900 800]",
                                inheritedMediaBox: [100, 200, 900, 800]),
                       name: "inherited", expected: (0.7, 0.3))
    }

    @Test func aTurnedPageWithAMediaBoxAndCropBoxNotAtTheOrigin() throws {
        // The CropBox reaches past the MediaBox's top: the visible box is their overlap, [150 120 650 500].
        try checkCross(Self.pdf([TestPage(mediaBox: [100, 50, 700, 500], cropBox: [150, 120, 650, 560], rotate: "270")]),
                       name: "r270box", expected: (0.3, 0.7))
    }

    @Test func aTurnedPageWithACropBoxTallerThanItsMediaBoxFollowsPoppler() throws {
        // poppler gives a CropBox taller than the MediaBox the MediaBox's bottom and top: [150 50 700 500] shown;
        // MuPDF intersects them ([150 80 700 500]), so only poppler (which shows the slides) is asked.
        try checkCross(Self.pdf([TestPage(mediaBox: [100, 50, 700, 500], cropBox: [150, 80, 750, 620], rotate: "90")]),
                       name: "r90tallcrop", expected: (0.7, 0.3), muPDF: false)
    }

    @Test func anInheritedRotationOverriddenByThePage() throws {
        try checkCross(Self.pdf([TestPage(mediaBox: [-300, -200, 500, 400], rotate: "180")], pagesNode: "/Rotate 90"),
                       name: "override", expected: (0.7, 0.7))
    }

    /// The map from the shown page to user space and back is exact (to rounding), for every rotation and a box
    /// away from the origin, and the clips' rectangle map agrees with it.
    @Test func theMapAndItsInverseAgree() {
        var random = SystemRandomNumberGenerator()
        for rotation in [0, 90, 180, 270, -90, 450] {
            let geometry = PageGeometry(box: (-120, 40, 680, 640), rotation: rotation)
            for _ in 0..<200 {
                let x = Double.random(in: 0...1, using: &random), y = Double.random(in: 0...1, using: &random)
                let user = geometry.user(x, y)
                let back = geometry.shown(user.x, user.y)
                #expect(abs(back.x - x) < 1e-12 && abs(back.y - y) < 1e-12, "rotation \(rotation): \(x),\(y) → \(user) → \(back)")
            }
            // A small square around a user point is shown where the point is (the clips' map).
            let user = geometry.user(0.25, 0.6)
            let rect = geometry.fraction(of: [user.x - 1, user.y - 1, user.x + 1, user.y + 1])
            #expect(rect.map { abs($0.x + $0.width / 2 - 0.25) < 1e-9 && abs($0.y + $0.height / 2 - 0.6) < 1e-9 } == true,
                    "rotation \(rotation): \(String(describing: rect))")
        }
        // Shown top-left corner of a page turned a quarter clockwise: the unturned bottom-left corner.
        let turned = PageGeometry(box: (10, 20, 810, 620), rotation: 90).user(0, 0)
        #expect(turned.x == 10 && turned.y == 20)
    }

    /// A `/Rotate` that is not a multiple of 90, not a number, too large for poppler, or a real poppler ignores:
    /// that page's ink is left out with a message saying which page, why and what to do; the other pages' ink is
    /// saved. Reading an annotated copy whose ink is on such a page says so too.
    @Test func aHostileRotationLeavesThatPagesInkOutAndSavesTheRest() throws {
        let hostile = ["45", "/Foo", "4294967386", "90.0", "(90)", "1e30"]
        let data = Self.pdf([TestPage(mediaBox: [0, 0, 800, 600], rotate: "90")]
                            + hostile.map { TestPage(mediaBox: [0, 0, 800, 600], rotate: $0) }
                            + [TestPage(mediaBox: [0, 0, 800, 600], rotate: nil)])
        let url = try MiniPDF.write(data, name: "hostile.pdf")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let pages = try DeckParser.parse(contentsOf: url).slides.compactMap(\.pdfPage)
        try #require(pages.count == hostile.count + 2)
        let stroke = InkStroke(points: [InkPoint(x: 0.2, y: 0.5), InkPoint(x: 0.8, y: 0.5)], tool: .pen,
                               colour: InkColour(220, 30, 30), width: 0.012)
        var ink: [Int: [InkStroke]] = [:]
        for index in pages.indices { ink[index] = [stroke] }
        let out = url.deletingLastPathComponent().appendingPathComponent("hostile-annotated.pdf")
        let outcome = try InkAnnotationWriter.write(strokes: ink, pages: pages, to: out)
        #expect(outcome.strokes == 2, "\(outcome)")
        #expect(outcome.problems.count == hostile.count, "\(outcome.problems)")
        for (offset, value) in hostile.enumerated() {
            let line = outcome.problems.first { $0.hasPrefix("page \(offset + 2) of ") } ?? ""
            #expect(line.contains("/Rotate") && line.contains("not saved") && line.contains("0, 90, 180 or 270")
                    && line.contains("1 stroke left out"), "/Rotate \(value): \(line)")
        }
        #expect(outcome.problems.contains { $0.hasPrefix("page 2 ") && $0.contains("/Rotate 45 is not a multiple of 90") })
        #expect(outcome.problems.contains { $0.hasPrefix("page 3 ") && $0.contains("not a number") })
        #expect(outcome.problems.contains { $0.hasPrefix("page 4 ") && $0.contains("by poppler") })
        // qpdf warns about the hostile values in the original (exit 3); the copy adds nothing to that.
        let before = try Shell.run(["qpdf", "--check", url.path]), check = try Shell.run(["qpdf", "--check", out.path])
        #expect(check.status == before.status && !check.output.lowercased().contains("error"), "qpdf --check: \(check.output)")
        // Pages 1 and 8 have their ink; the hostile pages have no annotations.
        for page in 1...pages.count {
            let annots = try Shell.run(["mutool", "show", out.path, "pages/\(page)/Annots"])
            let inked = page == 1 || page == pages.count
            #expect(annots.output.contains(" R") == inked, "page \(page): \(annots.output)")
        }
        let (back, problem) = InkAnnotationReader.read(out, pages: pages)
        #expect(back.keys.sorted() == [0, pages.count - 1] && problem == nil, "\(back.keys.sorted()) \(problem ?? "")")
    }

    @Test func readingInkOnAHostilePageSaysSoAndReadsTheRest() throws {
        // Page 2 (/Rotate 45) carries an ink annotation named as extdisplay names its own (object 7).
        let annotation = "<</Type/Annot/Subtype/Ink/Rect[0 0 800 600]/NM(extdisplay-ink-1-0)/C[1 0 0]"
            + "/BS<</W 4>>/InkList[[100 300 700 300]]>>"
        let data = Self.pdf([TestPage(mediaBox: [0, 0, 800, 600], rotate: "90", extra: "/Annots[7 0 R]"),
                             TestPage(mediaBox: [0, 0, 800, 600], rotate: "45", extra: "/Annots[8 0 R]")],
                            extraObjects: [annotation.replacingOccurrences(of: "-1-0", with: "-0-0"), annotation])
        let url = try MiniPDF.write(data, name: "hostile-read.pdf")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let pages = try DeckParser.parse(contentsOf: url).slides.compactMap(\.pdfPage)
        let (back, problem) = InkAnnotationReader.read(url, pages: pages)
        #expect(back.keys.sorted() == [0])
        #expect(problem?.contains("page 2: its /Rotate 45 is not a multiple of 90") == true, "\(problem ?? "nil")")
        // Page 1, turned by 90: user (100, 300) is shown at (1 − v, u) with u = 0.125, v = 0.5: (0.5, 0.125).
        let first = back[0]?.first?.points.first
        #expect(first.map { abs($0.x - 0.5) < 1e-9 && abs($0.y - 0.125) < 1e-9 } == true, "\(String(describing: first))")
    }
}

/// The talk's save says which pages' ink was left out, and saves the rest.
@Suite("InkAnnotation save report")
@MainActor
struct InkAnnotationSaveReportTests {
    @Test func aHeadlessTalkWithInkOnAHostilePageSavesTheOtherPagesAndSaysWhich() async throws {
        let data = InkAnnotationRotateTests.pdf([InkAnnotationRotateTests.TestPage(mediaBox: [0, 0, 800, 600], rotate: "90"),
                                                 InkAnnotationRotateTests.TestPage(mediaBox: [0, 0, 800, 600], rotate: "33")])
        let url = try MiniPDF.write(data, name: "talk.pdf")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let deck = try DeckParser.parse(contentsOf: url)
        var lines: [String] = []
        _ = try await HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-monitor-1080p"],
                                        steps: try HeadlessStep.parseList("ink:0.2/0.5;0.8/0.5, next, ink:0.2/0.5;0.8/0.5"))
            .run { lines.append($0) }
        #expect(lines.contains { $0.hasPrefix("ink saved: 1 strokes") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ink not saved on page 2 of ") && $0.contains("/Rotate 33") }, "\(lines)")
        #expect(FileManager.default.fileExists(atPath: InkAnnotationWriter.defaultOutput(for: url).path))
    }
}
