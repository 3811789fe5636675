import DesktopFiles
import DesktopImages
import CHarfBuzz
import CSDL2
import Foundation

/// Lays out and draws one line of text in any language for a canvas: font fallback through fontconfig
/// (``FontFallback``), bidirectional order through FriBidi (``BidiText``), shaping through SDL_ttf's HarfBuzz
/// path with each run's direction and script set, and colour emoji from a bitmap font scaled to the text size.
///
/// A line is cut into runs of one font, one embedding level and one script; runs are placed in visual order
/// (rule L2) and each is shaped on its own. Measuring and drawing read the same cached layout, so wrapping and
/// drawing agree to the pixel. Plain ASCII in a font that has it takes a fast path with one run.
///
/// ```swift
/// let shaper = TextShaper()
/// let width = shaper.width(of: "עברית and 中文 😀", fontPath: dejaVu, size: 40)
/// shaper.draw("עברית and 中文 😀", fontPath: dejaVu, size: 40, color: white) { surface, rect in
///     // blit `surface` at `rect`
/// }
/// ```
public final class TextShaper {
    private struct FontKey: Hashable {
        var path: String
        var index: Int
        var size: Int
    }

    private struct Primary {
        var font: OpaquePointer
        var family: String
        var style: String
        var hasASCII: Bool
    }

    private struct LineKey: Hashable {
        var text: String
        var font: FontKey
    }

    private let fallback: FontFallback
    private var fonts: [FontKey: OpaquePointer] = [:]
    private var primaries: [FontKey: Primary] = [:]
    private var lines: [LineKey: ShapedLine] = [:]
    private let lineCapacity: Int

    /// A shaper drawing with `fallback`'s choices (the system's fontconfig by default). Shaped lines are kept
    /// up to `lineCapacity` (then all dropped and shaped again as needed): 2,048 lines hold the text of a large
    /// deck at a few sizes, and bound what a console naming thousands of passing browser pages keeps (measured with
    /// the 1,000-cycle browser test, anonymous memory growth: 4,096 lines 2.7 MB, 2,048 1.5 MB, 256 0.56 MB).
    public init(fallback: FontFallback = .shared, lineCapacity: Int = 2_048) {
        Self.faces.withLock { if TTF_WasInit() == 0 { _ = TTF_Init() } }
        self.fallback = fallback
        self.lineCapacity = max(1, lineCapacity)
    }

    deinit { Self.faces.withLock { for font in fonts.values { TTF_CloseFont(font) } } }

    /// Held while fonts are opened or closed: SDL_ttf's fonts share one FreeType library, whose faces may be used
    /// on several threads (a shaper each) only when they are made and freed one at a time.
    private static let faces = NSLock()

    /// The open SDL_ttf font for a file and pixel size (`TTF_Font *`), or nil when it cannot be opened.
    package func font(path: String, index: Int = 0, size: Int) -> OpaquePointer? {
        let key = FontKey(path: path, index: index, size: max(1, size))
        if let font = fonts[key] { return font }
        guard let font = Self.faces.withLock({ TTF_OpenFontIndex(path, Int32(clamping: key.size), index) }) else { return nil }
        fonts[key] = font
        return font
    }

    /// The advance width of one line of `string` in the font at `fontPath`, fallback fonts included; nil when
    /// the font cannot be opened.
    public func width(of string: String, fontPath: String, size: Int) -> Int? {
        line(string, path: fontPath, size: size)?.width
    }

    /// Whether the line's base direction is right-to-left (its first strong character, or a leading mark).
    public func isRightToLeft(_ string: String, fontPath: String, size: Int) -> Bool {
        line(string, path: fontPath, size: size)?.isRightToLeft ?? false
    }

    /// Draws one line with its top-left corner at (x, y): hands each rendered run to `blit` with the
    /// rectangle it goes to. Returns the line's width, or nil when the font cannot be opened or SDL_ttf fails.
    @discardableResult
    package func draw(_ string: String, fontPath: String, size: Int, x: Int, y: Int, color: SDL_Color,
                     blit: (UnsafeMutablePointer<SDL_Surface>, SDL_Rect) -> Void) -> Int? {
        guard let line = line(string, path: fontPath, size: size) else { return nil }
        for run in line.runs {
            apply(run)
            guard let rendered = TTF_RenderUTF8_Blended(run.font, run.text, color) else { return nil }
            defer { SDL_FreeSurface(rendered) }
            if run.scale == 1 {
                blit(rendered, SDL_Rect(x: Int32(clamping: x + run.x), y: Int32(clamping: y + run.y), w: rendered.pointee.w,
                                        h: rendered.pointee.h))
            } else if let scaled = SurfaceScaling.scaled(rendered, by: run.scale) {
                defer { SDL_FreeSurface(scaled) }
                blit(scaled, SDL_Rect(x: Int32(clamping: x + run.x), y: Int32(clamping: y + run.y), w: scaled.pointee.w,
                                      h: scaled.pointee.h))
            }
        }
        return line.width
    }

    // MARK: - Layout

    func line(_ string: String, path: String, index: Int = 0, size: Int) -> ShapedLine? {
        let key = LineKey(text: string, font: FontKey(path: path, index: index, size: max(1, size)))
        if let known = lines[key] { return known }
        guard let primary = primary(key.font) else { return nil }
        let shaped: ShapedLine
        if primary.hasASCII, string.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            shaped = asciiLine(string, font: primary.font)
        } else {
            shaped = layOut(string, primary: primary, key: key.font)
        }
        if lines.count >= lineCapacity { lines.removeAll(keepingCapacity: true) }
        lines[key] = shaped
        return shaped
    }

    private func primary(_ key: FontKey) -> Primary? {
        if let known = primaries[key] { return known }
        guard let font = font(path: key.path, index: key.index, size: key.size) else { return nil }
        let family = TTF_FontFaceFamilyName(font).map { String(cString: $0) } ?? ""
        let style = TTF_FontFaceStyleName(font).map { String(cString: $0) } ?? ""
        let ascii = (0x20...0x7E).allSatisfy { TTF_GlyphIsProvided32(font, UInt32($0)) != 0 }
        let made = Primary(font: font, family: family, style: style, hasASCII: ascii)
        primaries[key] = made
        return made
    }

    private func asciiLine(_ string: String, font: OpaquePointer) -> ShapedLine {
        let run = ShapedLine.Run(text: string, font: font, isRightToLeft: false, script: "Latn", scale: 1, x: 0,
                                 width: 0, y: 0)
        apply(run)
        var w: Int32 = 0, h: Int32 = 0
        if !string.isEmpty { TTF_SizeUTF8(font, string, &w, &h) }
        var placed = run
        placed.width = Int(w)
        return ShapedLine(runs: string.isEmpty ? [] : [placed], width: Int(w), isRightToLeft: false)
    }

    /// A run being collected in logical order.
    private struct Piece {
        var scalars: String.UnicodeScalarView = .init()
        var face: FallbackFace?
        var level: UInt8
        var script: UInt32
    }

    private func layOut(_ string: String, primary: Primary, key: FontKey) -> ShapedLine {
        let scalars = Array(string.unicodeScalars)
        let bidi = BidiText(scalars)
        let scripts = resolvedScripts(scalars)
        var pieces: [Piece] = []
        var previousFace: FallbackFace?? = nil
        for (i, scalar) in scalars.enumerated() where !BidiText.isDirectionControl(scalar) {
            let emoji = scalar.properties.isEmojiPresentation
                || (i + 1 < scalars.count && scalars[i + 1].value == 0xFE0F && scalar.properties.isEmoji)
            let face = chooseFace(scalar, emoji: emoji, primary: primary, previous: previousFace)
            previousFace = .some(face)
            if var last = pieces.last, last.face == face, last.level == bidi.levels[i], last.script == scripts[i] {
                last.scalars.append(scalar)
                pieces[pieces.count - 1] = last
            } else {
                var piece = Piece(face: face, level: bidi.levels[i], script: scripts[i])
                piece.scalars.append(scalar)
                pieces.append(piece)
            }
        }
        let primaryAscent = Int(TTF_FontAscent(primary.font))
        var runs: [ShapedLine.Run] = []
        var x = 0
        for index in BidiText.visualOrder(pieces.map(\.level)) {
            let piece = pieces[index]
            guard var run = run(for: piece, primary: primary, size: key.size) else { continue }
            apply(run)
            var w: Int32 = 0, h: Int32 = 0
            TTF_SizeUTF8(run.font, run.text, &w, &h)
            run.width = Int((Double(w) * run.scale).rounded())
            run.x = x
            run.y = primaryAscent - Int((Double(TTF_FontAscent(run.font)) * run.scale).rounded())
            x += run.width
            runs.append(run)
        }
        return ShapedLine(runs: runs, width: x, isRightToLeft: bidi.isRightToLeft)
    }

    private func run(for piece: Piece, primary: Primary, size: Int) -> ShapedLine.Run? {
        var font = primary.font
        var scale = 1.0
        if let face = piece.face {
            let openSize = face.strikePixelSize.map { Int($0.rounded()) } ?? size
            guard let opened = self.font(path: face.path, index: face.index, size: openSize) else { return nil }
            font = opened
            if let strike = face.strikePixelSize { scale = Double(size) / strike }
        }
        return ShapedLine.Run(text: String(piece.scalars), font: font, isRightToLeft: piece.level & 1 == 1,
                              script: Self.tagString(piece.script), scale: scale, x: 0, width: 0, y: 0)
    }

    /// nil means the primary font. An emoji-presentation character (or one followed by U+FE0F) takes a colour
    /// font when one has it, even when the primary font has a monochrome glyph (DejaVu has emoticons).
    private func chooseFace(_ scalar: Unicode.Scalar, emoji: Bool, primary: Primary,
                            previous: FallbackFace??) -> FallbackFace? {
        if let previous, Self.staysWithBase(scalar) { return previous }
        if emoji, let face = fallback.face(for: scalar.value, family: primary.family, style: primary.style,
                                           colour: true) {
            return face
        }
        if TTF_GlyphIsProvided32(primary.font, scalar.value) != 0 { return nil }
        if let face = fallback.face(for: scalar.value, family: primary.family, style: primary.style) { return face }
        let message = Self.missingFontMessage(scalar)
        if fallback.noteMissing(script: edk_script_tag(scalar.value), message: message) {
            StandardStreams.errorLine(message)
        }
        return nil
    }

    /// Marks, joiners and variation selectors are drawn by their base character's font.
    private static func staysWithBase(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark, .format: true
        default: false
        }
    }

    /// Each character's script, with common and inherited characters (spaces, digits, punctuation, marks)
    /// taking the script before them, or after them at the start.
    private func resolvedScripts(_ scalars: [Unicode.Scalar]) -> [UInt32] {
        let common = Self.tag("Zyyy"), inherited = Self.tag("Zinh"), unknown = Self.tag("Zzzz")
        var tags = scalars.map { edk_script_tag($0.value) }
        let firstReal = tags.first { $0 != common && $0 != inherited && $0 != unknown } ?? common
        var current = firstReal
        for i in tags.indices {
            if tags[i] == common || tags[i] == inherited || tags[i] == unknown { tags[i] = current } else { current = tags[i] }
        }
        return tags
    }

    private func apply(_ run: ShapedLine.Run) {
        TTF_SetFontDirection(run.font, run.isRightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
        TTF_SetFontScriptName(run.font, run.script)
    }

    static func tag(_ string: String) -> UInt32 {
        string.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func tagString(_ tag: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }

    /// What is said, once per script, when no installed font has a character.
    static func missingFontMessage(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        let script = tagString(edk_script_tag(scalar.value))
        let package = fontPackage(for: scalar)
        return "extdisplay: no installed font has \(code) (script \(script)); it is drawn as an empty box. "
            + "Install \(package), or check `fc-list :charset=\(String(scalar.value, radix: 16))`."
    }
}

extension TextShaper {
    /// The ISO 15924 script of a character as HarfBuzz names it ("Latn", "Arab", "Hani"; "Zyyy" for common ones).
    static func scriptName(_ scalar: Unicode.Scalar) -> String { tagString(edk_script_tag(scalar.value)) }

    /// What to install so that a character has a font: the Debian package for emoji and CJK, else a hint naming
    /// the script and fonts-noto-core.
    static func fontPackage(for scalar: Unicode.Scalar) -> String {
        let script = scriptName(scalar)
        if scalar.properties.isEmojiPresentation || (0x1F000...0x1FAFF).contains(scalar.value) {
            return "fonts-noto-color-emoji"
        } else if ["Hani", "Hira", "Kana", "Hang", "Bopo"].contains(script) {
            return "fonts-noto-cjk"
        }
        return "a font for the script \(script) (for example fonts-noto-core)"
    }
}

/// Which of a text's characters no installed font has, grouped by script, with what to install: what
/// `extdisplay doctor DECK` says before a talk, and what the presenter would otherwise say once per script
/// while drawing.
///
/// ```swift
/// let gaps = FontCoverage.gaps(in: "Hello ᏣᎳᎩ", fallback: .shared)
/// // [] where a Cherokee font is installed, else one gap: script "Cher", 4 characters
/// ```
public enum FontCoverage {
    /// The characters of one script that no font has.
    public struct Gap: Sendable, Hashable {
        /// The script (ISO 15924, as HarfBuzz names it: "Arab", "Hani", "Zyyy" for emoji and symbols).
        public var script: String
        /// How many distinct characters of it no font has.
        public var count: Int
        /// The first of them, as `U+XXXX`.
        public var example: String
        /// What to install (a Debian package, or a hint naming the script).
        public var package: String
    }

    /// The scripts of `text` that have characters no font known to `fallback` has, in order of first appearance.
    /// Controls, spaces and variation selectors are not looked up.
    public static func gaps(in text: String, fallback: FontFallback) -> [Gap] {
        var seen = Set<UInt32>()
        var gaps: [Gap] = []
        for scalar in text.unicodeScalars where seen.insert(scalar.value).inserted {
            let category = scalar.properties.generalCategory
            if [.control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark,
                .enclosingMark, .surrogate, .privateUse, .unassigned].contains(category) { continue }
            if fallback.face(for: scalar.value, family: "DejaVu Sans", style: "Book") != nil { continue }
            let script = TextShaper.scriptName(scalar)
            if let index = gaps.firstIndex(where: { $0.script == script }) {
                gaps[index].count += 1
            } else {
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                gaps.append(Gap(script: script, count: 1, example: code, package: TextShaper.fontPackage(for: scalar)))
            }
        }
        return gaps
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
