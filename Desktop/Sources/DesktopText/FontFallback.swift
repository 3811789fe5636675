import DesktopImages
import CFontconfig
import Foundation

/// One font face a fallback can use: a file, the face's index inside it (TrueType collections such as
/// Noto CJK hold several), and for a colour bitmap font the pixel size of its only strike.
public struct FallbackFace: Hashable, Sendable {
    /// The font file.
    public var path: String
    /// The face inside the file (0 for a plain `.ttf`).
    public var index: Int
    /// The pixel size of the font's bitmap strike when it has no outlines (Noto Color Emoji: 109), else nil.
    /// Its glyphs are drawn at that size and scaled to the text size.
    public var strikePixelSize: Double?
    /// The family name fontconfig gives the face (for diagnostics and for independent renderers in tests).
    public var family: String
}

/// Chooses, through fontconfig, the font that draws a character the primary font lacks, the way desktop
/// toolkits do: fontconfig sorts every installed font by closeness to the primary font's family and style
/// (`FcFontSort`), and the first one whose character set has the character wins (`FcCharSetHasChar`).
///
/// Each sorted list is built once per family and style, and each character's choice is remembered, so drawing
/// a frame asks fontconfig nothing after the first time a character is seen. Shared by every canvas.
///
/// ```swift
/// let face = FontFallback.shared.face(for: 0x4E2D, family: "DejaVu Sans", style: "Book")  // 中
/// // face?.path == "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
/// ```
public final class FontFallback: @unchecked Sendable {
    /// The process's fallback, over the system's fontconfig configuration.
    public static let shared = FontFallback(config: FcInitLoadConfigAndFonts())

    /// A fallback that knows no fonts at all: what a machine without fonts-noto-cjk or emoji fonts looks
    /// like at worst. For tests of the missing-font path.
    public static func withoutFonts() -> FontFallback { FontFallback(config: FcConfigCreate()) }

    private final class Candidates {
        var faces: [FallbackFace] = []
        var charsets: [OpaquePointer] = []
        var choices: [UInt32: Int] = [:]
        deinit { for set in charsets { FcCharSetDestroy(set) } }
    }

    private let lock = NSLock()
    private let config: OpaquePointer?
    private var lists: [String: Candidates] = [:]
    private var missingScripts: Set<UInt32> = []
    /// The diagnostics said about characters no installed font has, one per script, in order.
    public var missingFontReports: [String] {
        lock.lock()
        defer { lock.unlock() }
        return reports
    }
    private var reports: [String] = []
    /// How many times fontconfig was asked for a sorted list (for tests: once per family and style).
    public private(set) var sortQueries = 0

    private init(config: OpaquePointer?) { self.config = config }

    deinit { if let config { FcConfigDestroy(config) } }

    /// The first face, in fontconfig's order for `family` and `style`, that has `scalar`; nil when no
    /// installed font has it. With `colour`, only colour bitmap faces count (emoji presentation).
    public func face(for scalar: UInt32, family: String, style: String, colour: Bool = false) -> FallbackFace? {
        lock.lock()
        defer { lock.unlock() }
        let list = candidates(family: family, style: style)
        let key = colour ? scalar | 0x8000_0000 : scalar
        if let known = list.choices[key] { return known < 0 ? nil : list.faces[known] }
        let found = list.charsets.indices.first {
            (!colour || list.faces[$0].strikePixelSize != nil) && FcCharSetHasChar(list.charsets[$0], scalar) != 0
        }
        list.choices[key] = found ?? -1
        return found.map { list.faces[$0] }
    }

    /// Records that no font has a character of `script`; true the first time for that script (say it then).
    func noteMissing(script: UInt32, message: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard missingScripts.insert(script).inserted else { return false }
        reports.append(message)
        return true
    }

    private func candidates(family: String, style: String) -> Candidates {
        let key = family + "\u{0}" + style
        if let list = lists[key] { return list }
        let list = Candidates()
        lists[key] = list
        sortQueries += 1
        guard let config, let pattern = FcPatternCreate() else { return list }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { FcPatternAddString(pattern, FC_FAMILY, $0) }
        _ = style.withCString { FcPatternAddString(pattern, FC_STYLE, $0) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let set = FcFontSort(config, pattern, FcTrue, nil, &result) else { return list }
        defer { FcFontSetDestroy(set) }
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var charset: OpaquePointer?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file,
                  FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                  let copied = FcCharSetCopy(charset) else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
            var outline: FcBool = FcTrue
            _ = FcPatternGetBool(font, FC_OUTLINE, 0, &outline)
            var pixels: Double = 0
            let strike = outline == FcFalse && FcPatternGetDouble(font, FC_PIXEL_SIZE, 0, &pixels) == FcResultMatch
                && pixels > 0 ? pixels : nil
            var name: UnsafeMutablePointer<FcChar8>?
            _ = FcPatternGetString(font, FC_FAMILY, 0, &name)
            list.faces.append(FallbackFace(path: String(cString: file), index: Int(index), strikePixelSize: strike,
                                           family: name.map { String(cString: $0) } ?? ""))
            list.charsets.append(copied)
        }
        return list
    }
}
