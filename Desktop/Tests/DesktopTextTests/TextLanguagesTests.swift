import CSDL2
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation
import Testing

/// Text in any language on the canvas, checked against Pango rendering the same string with the same fonts
/// at the same pixel size (``TextOracle``): ink boxes, the left-to-right order of glyphs (column profiles) and
/// the glyph images themselves (grids), plus no empty boxes and emoji in colour.
@Suite("Text in any language (canvas against Pango)", .serialized)
struct TextLanguagesTests {
    static let size = 40
    static let font = CanvasFont(size: size)

    /// What the old canvas drew for a string: DejaVu alone through SDL_ttf, no fallback, no bidi. For Chinese
    /// and emoji that is DejaVu's .notdef box, the "tofu" the issue reported.
    static func tofu(_ text: String) throws -> Bitmap {
        if TTF_WasInit() == 0 { _ = TTF_Init() }
        let ttf = try #require(TTF_OpenFont(font.resolvedPath, Int32(size)))
        defer { TTF_CloseFont(ttf) }
        let rendered = try #require(TTF_RenderUTF8_Blended(ttf, text, SDL_Color(r: 255, g: 255, b: 255, a: 255)))
        defer { SDL_FreeSurface(rendered) }
        let converted = try #require(SDL_ConvertSurfaceFormat(rendered, SDL_PIXELFORMAT_ABGR8888.rawValue, 0))
        defer { SDL_FreeSurface(converted) }
        let w = Int(converted.pointee.w), h = Int(converted.pointee.h), pitch = Int(converted.pointee.pitch)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let base = converted.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<h {
            for x in 0..<w {
                // White glyph, alpha as coverage: brightness on black is the alpha.
                let a = base[y * pitch + x * 4 + 3]
                pixels[(y * w + x) * 4] = a; pixels[(y * w + x) * 4 + 1] = a; pixels[(y * w + x) * 4 + 2] = a
                pixels[(y * w + x) * 4 + 3] = 255
            }
        }
        return Bitmap(width: w, height: h, pixels: pixels)
    }

    struct Comparison: CustomStringConvertible {
        var ours: Ink, pango: Ink
        var order: Double, mirroredOrder: Double, image: Double
        var description: String {
            "ours \(ours), pango \(pango); column profile r=\(fmt(order)) (mirrored r=\(fmt(mirroredOrder))), "
                + "glyph grid r=\(fmt(image))"
        }
        private func fmt(_ x: Double) -> String { String(format: "%.3f", x) }
    }

    static func compare(_ text: String, family: String = "DejaVu Sans") throws -> Comparison {
        let (mine, _) = try canvasText(text, font: font)
        let theirs = try TextOracle.pango(text, family: family, size: size)
        let ours = try ink(mine, "the canvas, for \(text),")
        let pango = try ink(theirs, "pango-view, for \(text),")
        let a = ours.columnProfile(), b = pango.columnProfile()
        return Comparison(ours: ours, pango: pango, order: correlation(a, b), mirroredOrder: correlation(a, b.reversed()),
                          image: correlation(ours.grid(), pango.grid()))
    }

    static func expectSameInk(_ c: Comparison, _ text: String, widthTolerance: Double = 0.06) {
        let dw = abs(Double(c.ours.width - c.pango.width)) / Double(c.pango.width)
        #expect(dw <= widthTolerance, "\(text): ink width differs by \(Int(dw * 100)) %: \(c)")
        #expect(abs(c.ours.height - c.pango.height) <= max(3, c.pango.height / 8), "\(text): ink height: \(c)")
        #expect(c.order >= 0.85, "\(text): glyphs not in Pango's left-to-right order: \(c)")
        #expect(c.image >= 0.75, "\(text): glyph images differ from Pango's: \(c)")
    }

    @Test("Chinese falls back to Noto CJK and matches Pango; no .notdef boxes")
    func chinese() throws {
        let text = "中文字体"
        let c = try Self.compare(text)
        Self.expectSameInk(c, text)
        // Against the tofu: the old drawing (DejaVu's box) looks nothing like the glyphs drawn now.
        let tofu = try ink(try Self.tofu(text), "the tofu rendering")
        #expect(correlation(c.ours.grid(), tofu.grid()) < 0.5, "looks like .notdef boxes: \(c)")
        #expect(correlation(c.pango.grid(), tofu.grid()) < 0.5, "the oracle itself drew boxes")
    }

    /// Right-to-left strings: Hebrew alone, Arabic with vowel marks (joined by HarfBuzz), and a right-to-left
    /// paragraph holding Latin and digits. Each must match Pango's order, not its mirror image; this fails when
    /// the run order (rule L2) or the runs' right-to-left direction is removed.
    static let rightToLeft: [(text: String, widthTolerance: Double)] = [
        ("שלום עולם ומלואו", 0.06), ("مَرحَبًا بالعالم", 0.08), ("שלום Hello עולם 123", 0.06),
    ]

    @Test("Hebrew and Arabic are drawn right-to-left, joined and marked, in Pango's order", arguments: rightToLeft)
    func rightToLeftOrder(_ sample: (text: String, widthTolerance: Double)) throws {
        let c = try Self.compare(sample.text)
        Self.expectSameInk(c, sample.text, widthTolerance: sample.widthTolerance)
        #expect(c.order > c.mirroredOrder + 0.1, "reversed: \(c)")
    }

    @Test("emoji are drawn in colour, scaled from the 109-pixel strike to the text size")
    func emoji() throws {
        let text = "😀🎉"
        let c = try Self.compare(text)
        Self.expectSameInk(c, text, widthTolerance: 0.1)
        #expect(Double(c.ours.colouredPixels) > Double(c.ours.width * c.ours.height) * 0.3, "emoji not in colour: \(c)")
        #expect(c.ours.height <= Self.size + Self.size / 4, "emoji not scaled to \(Self.size) px: \(c)")
        let tofu = try ink(try Self.tofu(text), "the tofu rendering")
        #expect(correlation(c.ours.grid(), tofu.grid()) < 0.5, "looks like .notdef boxes: \(c)")
    }

    @Test("the issue's mixed line: Latin, Chinese, Hebrew, emoji in one line, in Pango's visual order")
    func mixedLine() throws {
        let text = "CJK 中文 עברית 😀 שלום"
        let c = try Self.compare(text)
        Self.expectSameInk(c, text)
    }

    @Test("measuring agrees with drawing: the width text() returns and measure() gives are one, and hold the ink")
    func measureAgreesWithDrawing() throws {
        for text in ["Hello", "CJK 中文 עברית 😀 שלום", "مرحبا", "😀", "שלום 123"] {
            let canvas = try Canvas(width: 1200, height: 120)
            canvas.clear(.black)
            let measured = try canvas.measure(text, font: Self.font)
            let drawn = try canvas.text(text, x: 20, y: 20, font: Self.font, color: .white)
            #expect(measured.width == drawn.width, "\(text)")
            let drawnInk = try ink(canvas.readPixels(), "the canvas")
            #expect(drawnInk.left >= 20 - 2 && drawnInk.left + drawnInk.width <= 20 + measured.width + 3,
                    "\(text): ink \(drawnInk) outside the measured width \(measured.width)")
            #expect(drawnInk.width >= measured.width * 3 / 4, "\(text): measured \(measured.width) but ink \(drawnInk)")
        }
    }

    @Test("fallback choices are remembered: drawing again asks fontconfig nothing")
    func fallbackIsCached() throws {
        let shaper = TextShaper()
        let path = Self.font.resolvedPath
        _ = shaper.width(of: "中文 😀 עברית", fontPath: path, size: 30)
        let queries = FontFallback.shared.sortQueries
        for size in [31, 32, 33] { _ = shaper.width(of: "中文 😀 漢字 🎉", fontPath: path, size: size) }
        #expect(FontFallback.shared.sortQueries == queries)
        let face = FontFallback.shared.face(for: 0x4E2D, family: "DejaVu Sans", style: "Book")
        #expect(face?.path.contains("NotoSansCJK") == true, "\(String(describing: face))")
        let emoji = FontFallback.shared.face(for: 0x1F600, family: "DejaVu Sans", style: "Book", colour: true)
        #expect(emoji?.strikePixelSize == 109, "\(String(describing: emoji))")
    }

    @Test("a character no font has: one diagnostic per script naming the package, a box drawn, no trap")
    func missingFont() throws {
        let none = FontFallback.withoutFonts()
        let shaper = TextShaper(fallback: none)
        let surface = try #require(SDL_CreateRGBSurfaceWithFormat(0, 400, 80, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
        defer { SDL_FreeSurface(surface) }
        for _ in 0..<3 {
            let width = shaper.draw("中文 and 漢字 🥳", fontPath: Self.font.resolvedPath, size: 30, x: 0, y: 0,
                                    color: SDL_Color(r: 255, g: 255, b: 255, a: 255)) { s, r in
                var dst = r
                SDL_UpperBlit(s, nil, surface, &dst)
            }
            #expect((width ?? 0) > 0)
        }
        let reports = none.missingFontReports
        #expect(reports.count == 2, "\(reports)")
        #expect(reports.first?.contains("fonts-noto-cjk") == true, "\(reports)")
        #expect(reports.last?.contains("fonts-noto-color-emoji") == true, "\(reports)")
        #expect(shaper.width(of: "x", fontPath: "/nonexistent/font.ttf", size: 20) == nil)
    }

    @Test("bidi rule L2 on run levels")
    func visualOrder() {
        #expect(BidiText.visualOrder([0, 1, 1, 2, 0]) == [0, 3, 2, 1, 4])
        #expect(BidiText.visualOrder([1, 1, 1]) == [2, 1, 0])
        #expect(BidiText.visualOrder([1, 2, 1]) == [2, 1, 0])
        #expect(BidiText.visualOrder([0, 0]) == [0, 1])
        #expect(BidiText.visualOrder([]) == [])
        let bidi = BidiText(Array("abc שלום".unicodeScalars))
        #expect(!bidi.isRightToLeft)
        #expect(bidi.levels == [0, 0, 0, 0, 1, 1, 1, 1])
        #expect(BidiText(Array("\u{200F}abc".unicodeScalars)).isRightToLeft)
    }
}
