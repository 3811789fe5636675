import ExtDisplayTestSupport
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The committed multilingual deck (Examples/Decks/Languages/languages.md) laid out and drawn on the presenter's
/// one canvas, `SDLPresenterCanvas` (headless snapshots, served pages, and — over a window's surface — the
/// console and every audience window). Read back from the pixels and compared with Pango (`TextOracle`).
@Suite("Text in any language on the presenter's canvases", .serialized)
@MainActor
struct TextLanguagesDeckTests {
    static let deck = Shell.packageRoot.appendingPathComponent("Examples/Decks/Languages/languages.md")
    static let size = PixelSize(width: 1920, height: 1080)
    static let rlm = "\u{200F}"

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sdlCanvas = "SDLPresenterCanvas (headless, the console and audience windows)"
        var testDescription: String { rawValue }
    }

    static func canvas(_ kind: Kind) throws -> any SnapshotCanvas {
        switch kind {
        case .sdlCanvas: try SDLPresenterCanvas(size: size, caches: DrawingCaches())
        }
    }

    /// Lays out and draws one slide; returns its text operations and the picture.
    static func draw(slide index: Int, on canvas: any SnapshotCanvas) throws
        -> ([(text: String, x: Int, y: Int, style: TextStyle)], Bitmap) {
        let deck = try DeckParser.parse(contentsOf: Self.deck)
        let ops = SlideLayout(metrics: canvas).operations(for: deck.slides[index], in: Rect(origin0: size))
        canvas.draw(DisplayList(size: size, operations: ops))
        let texts = ops.compactMap { op -> (String, Int, Int, TextStyle)? in
            if case .text(let s, let x, let y, let style) = op { return (s, x, y, style) }
            return nil
        }
        return (texts.map { (text: $0.0, x: $0.1, y: $0.2, style: $0.3) },
                try Bitmap(decoding: [UInt8](canvas.pngData()), path: "snapshot"))
    }

    /// The ink of one drawn line, read from the picture in the band of its line.
    static func lineInk(_ picture: Bitmap, y: Int, height: Int) throws -> Ink {
        guard let found = Ink(picture, region: Rect(x: 0, y: y, width: picture.width, height: height), threshold: 90)
        else { throw TextOracle.Failure(description: "no ink in the band at y \(y)") }
        return found
    }

    @Test("a long Hebrew paragraph wraps in logical order, every line aligned right, each line as Pango draws it",
          arguments: Kind.allCases)
    func hebrewParagraphWrapsRightToLeft(kind: Kind) throws {
        let canvas = try Self.canvas(kind)
        let (texts, picture) = try Self.draw(slide: 1, on: canvas)
        let deck = try DeckParser.parse(contentsOf: Self.deck)
        guard case .paragraph(let runs) = deck.slides[1].blocks.first else {
            Issue.record("slide 2 should open with a paragraph"); return
        }
        let paragraph = runs.map(\.text).joined()
        let bodySize = try #require(texts.first { $0.text.contains("נכתבת") }?.style.size)
        let lines = texts.filter { $0.style.size == bodySize && $0.style.face == .sans && $0.text.hasPrefix(Self.rlm) }
            .filter { paragraph.contains($0.text.dropFirst().trimmingCharacters(in: .whitespaces)) }
        #expect(lines.count >= 3, "the paragraph should wrap: \(lines.map(\.text))")
        // Broken in logical order: the lines read one after the other give the paragraph back.
        let words = lines.map { String($0.text.dropFirst()) }.joined(separator: " ").split(separator: " ")
        #expect(words == paragraph.split(separator: " "), "lines out of logical order")

        // Aligned right: every line's drawn width ends at the same right edge, the title's.
        let rights = lines.map { $0.x + canvas.width(of: $0.text, face: $0.style.face, size: $0.style.size) }
        let title = try #require(texts.first { $0.style.face == .sansBold })
        let titleRight = title.x + canvas.width(of: title.text, face: .sansBold, size: title.style.size)
        #expect(Set(rights).count == 1 && rights.first == titleRight, "right edges \(rights), title \(titleRight)")

        let lineHeight = canvas.lineHeight(face: .sans, size: bodySize)
        var lefts: [Int] = []
        for line in lines {
            let drawn = try Self.lineInk(picture, y: line.y, height: lineHeight)
            lefts.append(drawn.left)
            #expect(abs(drawn.left + drawn.width - titleRight) <= 6, "line ink \(drawn) does not end at \(titleRight)")
            let pango = try ink(try TextOracle.pango(String(line.text.dropFirst()), family: "DejaVu Sans",
                                                     size: bodySize, rightToLeft: true), "pango-view")
            let order = correlation(drawn.columnProfile(), pango.columnProfile())
            let mirrored = correlation(drawn.columnProfile(), pango.columnProfile().reversed())
            #expect(order >= 0.85 && order > mirrored + 0.2,
                    "line \(line.text): order r=\(order), mirrored r=\(mirrored); ours \(drawn), pango \(pango)")
            #expect(correlation(drawn.grid(), pango.grid()) >= 0.7, "line \(line.text) looks unlike Pango's")
            #expect(abs(drawn.width - pango.width) <= max(6, pango.width / 20), "ours \(drawn), pango \(pango)")
        }
        // Ragged left: the last, shorter line starts well to the right of the first.
        #expect((lefts.last ?? 0) > (lefts.first ?? 0) + 100, "left edges \(lefts)")
    }

    @Test("the issue's mixed line on a slide: Chinese, Hebrew and a colour emoji as Pango draws them",
          arguments: Kind.allCases)
    func mixedLineOnASlide(kind: Kind) throws {
        let canvas = try Self.canvas(kind)
        let (texts, picture) = try Self.draw(slide: 0, on: canvas)
        let line = try #require(texts.first { $0.text.contains("中文") })
        #expect(line.text.hasPrefix("\u{200E}"), "a left-to-right paragraph with Hebrew is marked left-to-right")
        let ours = try Self.lineInk(picture, y: line.y, height: canvas.lineHeight(face: .sans, size: line.style.size))
        let pango = try ink(try TextOracle.pango(String(line.text.dropFirst()), family: "DejaVu Sans",
                                                 size: line.style.size), "pango-view")
        let order = correlation(ours.columnProfile(), pango.columnProfile())
        #expect(order >= 0.85, "order r=\(order); ours \(ours), pango \(pango)")
        #expect(correlation(ours.grid(), pango.grid()) >= 0.7, "ours \(ours), pango \(pango)")
        #expect(abs(ours.width - pango.width) <= max(6, pango.width / 20), "ours \(ours), pango \(pango)")
        #expect(ours.colouredPixels > 300, "the emoji is not in colour: \(ours.colouredPixels) coloured pixels")
    }

    @Test("Japanese wraps between characters, not only at spaces")
    func japaneseWraps() {
        let flow = TextFlow(metrics: ApproximateTextMetrics(), face: .sans, size: 40)
        let text = "日本語のテキストも表示できます。日本語のテキストも表示できます。"
        let lines = flow.lines([InlineRun(text)], width: 300)
        #expect(lines.count > 1)
        #expect(lines.map { $0.segments.map(\.text).joined() }.joined() == text)
        #expect(lines.allSatisfy { !$0.segments.map(\.text).joined().hasPrefix("。") }, "a line starts with 。")
    }

    @Test("a right-to-left slide is mirrored: bullet marks at the right edge, text left of them, title bar right")
    func rightToLeftBulletsAndTitleBar() {
        let rect = Rect(x: 0, y: 0, width: 1600, height: 900)
        let theme = PresenterTheme()
        /// Each item's mark and the x of its texts (an item's ops are its mark, then its text), and the title bar.
        func layout(_ title: String, _ items: [String]) -> (items: [(mark: Rect, texts: [Int])], bar: Rect?) {
            let slide = Slide(number: 1, title: [InlineRun(title)],
                              blocks: items.enumerated().map { .bullet(level: $0.offset % 2, [InlineRun($0.element)]) })
            var bar: Rect?
            var out: [(mark: Rect, texts: [Int])] = []
            for op in SlideLayout(theme: theme).operations(for: slide, in: rect) {
                switch op {
                case .fill(let r, let c) where c == theme.accent:
                    if bar == nil { bar = r } else { out.append((r, [])) }
                case .text(_, let x, _, _) where !out.isEmpty:
                    out[out.count - 1].texts.append(x)
                default: break
                }
            }
            return (out, bar)
        }
        let hebrew = layout("שלום לכולם", ["פריט ראשון", "פריט שני"])
        let english = layout("Hello everyone", ["first item", "second item"])
        #expect(hebrew.items.count == 2 && english.items.count == 2)
        // Left-to-right: marks near the left margin, text to their right. Right-to-left: the mirror image.
        for (he, en) in zip(hebrew.items, english.items) {
            #expect(en.mark.x < rect.width / 4 && he.mark.maxX > rect.width * 3 / 4, "marks \(he.mark) \(en.mark)")
            #expect(abs((rect.width - he.mark.maxX) - en.mark.x) <= 1, "not mirrored: \(he.mark) vs \(en.mark)")
            #expect(!he.texts.isEmpty && he.texts.allSatisfy { $0 < he.mark.x }, "text right of its mark: \(he)")
            #expect(!en.texts.isEmpty && en.texts.allSatisfy { $0 > en.mark.maxX }, "text left of its mark: \(en)")
        }
        let bar = hebrew.bar, leftBar = english.bar
        #expect(bar != nil && leftBar != nil && bar!.maxX > rect.width * 3 / 4 && leftBar!.x < rect.width / 4,
                "title bars: \(String(describing: bar)) \(String(describing: leftBar))")
    }

    @Test("paragraph direction: first strong letter; marks only where right-to-left text occurs")
    func directionMarks() {
        #expect(TextFlow.directionMark([InlineRun("Hello world")]) == "")
        #expect(TextFlow.directionMark([InlineRun("中文 😀")]) == "")
        #expect(TextFlow.directionMark([InlineRun("שלום world")]) == TextFlow.rightToLeftMark)
        #expect(TextFlow.directionMark([InlineRun("123 مرحبا")]) == TextFlow.rightToLeftMark)
        #expect(TextFlow.directionMark([InlineRun("world שלום")]) == TextFlow.leftToRightMark)
    }
}
