import ExternalDisplayKit

/// Word-wraps runs of plain text and inline code into lines that fit a width, and turns the lines into
/// drawing operations.
///
/// Text in any language: a paragraph whose first strong character is right-to-left (Hebrew, Arabic) is a
/// right-to-left paragraph. Lines are broken in logical order, then each is aligned right and its pieces
/// placed from the right; the canvas orders the characters inside each piece by the Unicode bidi algorithm,
/// told the paragraph's direction by a leading U+200F RIGHT-TO-LEFT MARK (or U+200E LEFT-TO-RIGHT MARK for a
/// left-to-right paragraph that contains right-to-left text). Chinese and Japanese break between ideographs
/// and kana as well as at spaces.
struct TextFlow {
    /// A piece of one line in one style.
    struct Segment: Hashable {
        var text: String
        var isCode: Bool
    }

    /// One laid-out line: its pieces in logical order and the paragraph's direction.
    struct Line: Hashable {
        var segments: [Segment]
        /// The width the line was broken to (a right-to-left line is aligned to its right edge).
        var width: Int
        /// The direction mark put before plain text ("" when the paragraph has no right-to-left text).
        var mark: String

        /// Whether the paragraph is right-to-left.
        var isRightToLeft: Bool { mark == TextFlow.rightToLeftMark }
    }

    static let rightToLeftMark = "\u{200F}"
    static let leftToRightMark = "\u{200E}"

    let metrics: any TextMetrics
    let face: FontFace
    let size: Int

    var codeSize: Int { max(1, size * 9 / 10) }
    var lineHeight: Int { metrics.lineHeight(face: face, size: size) }

    func measure(_ segment: Segment, mark: String = "") -> Int {
        segment.isCode ? metrics.width(of: segment.text, face: .mono, size: codeSize)
            : metrics.width(of: mark + segment.text, face: face, size: size)
    }

    /// The mark that tells the canvas a paragraph's direction: RLM for a right-to-left paragraph, LRM for a
    /// left-to-right one that contains right-to-left letters, nothing otherwise (plain text stays as it is).
    static func directionMark(_ runs: [InlineRun]) -> String {
        var sawRightToLeft = false
        var first: Bool?
        for run in runs where !run.isCode {
            for scalar in run.text.unicodeScalars {
                let rtl = isRightToLeftLetter(scalar)
                sawRightToLeft = sawRightToLeft || rtl
                if first == nil, rtl || scalar.properties.isAlphabetic { first = rtl }
                if first != nil, sawRightToLeft { break }
            }
        }
        if first == true { return rightToLeftMark }
        return sawRightToLeft ? leftToRightMark : ""
    }

    /// Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation
    /// forms): the strong right-to-left characters of the bidi algorithm, digits and marks excluded.
    static func isRightToLeftLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            scalar.properties.isAlphabetic && scalar.properties.numericType == nil
        default: false
        }
    }

    /// The runs broken into lines no wider than `width` (a single word wider than that gets a line of its own).
    /// Stops after `maxLines` lines: text below the visible area is neither measured nor laid out, so the cost
    /// follows what is on screen, not the length of the text.
    func lines(_ runs: [InlineRun], width: Int, maxLines: Int = .max) -> [Line] {
        let mark = Self.directionMark(runs)
        var lines: [[Segment]] = []
        var current: [Segment] = []
        var used = 0
        func finished() -> [Line] {
            lines.map { Line(segments: trimmingTrailingSpace($0), width: width, mark: mark) }
        }
        for token in tokens(runs) {
            let w = measure(token, mark: mark)
            if used + w > width, !current.isEmpty {
                if lines.count + 1 >= maxLines {
                    lines.append(merged(current))
                    return finished()
                }
                lines.append(merged(current))
                current = []
                used = 0
            }
            var piece = token
            if current.isEmpty, !piece.isCode {
                piece.text = String(piece.text.drop { $0 == " " })
                if piece.text.isEmpty { continue }
            }
            current.append(piece)
            used += measure(piece, mark: mark)
        }
        if !current.isEmpty { lines.append(merged(current)) }
        return finished()
    }

    /// Words with their following space; code runs split only at their own spaces. Plain text also breaks
    /// after each Chinese or Japanese ideograph or kana (not before closing punctuation). Lazy: a line-limited
    /// layout of a huge paragraph reads only the words it places.
    private func tokens(_ runs: [InlineRun]) -> some Sequence<Segment> {
        runs.lazy.flatMap { run in
            sequence(state: run.text[...]) { (rest: inout Substring) -> Segment? in
                guard !rest.isEmpty else { return nil }
                let end = run.isCode ? rest.firstIndex(of: " ").map { rest.index(after: $0) } ?? rest.endIndex
                    : Self.breakAfter(rest)
                let word = Segment(text: String(rest[..<end]), isCode: run.isCode)
                rest = rest[end...]
                return word
            }
        }
    }

    /// Where the first word of `text` ends: after a space, or after an ideograph or kana not followed by
    /// punctuation that must not start a line.
    static func breakAfter(_ text: Substring) -> Substring.Index {
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == " " { return next }
            if isIdeographic(character), next < text.endIndex, !Self.noBreakBefore.contains(text[next]) { return next }
            index = next
        }
        return text.endIndex
    }

    private static func isIdeographic(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value else { return false }
        switch value {
        case 0x2E80...0x2FFF, 0x3000...0x303F, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFF: return true
        default: return false
        }
    }

    /// Closing punctuation that stays on the line of the character before it (a small kinsoku set).
    private static let noBreakBefore: Set<Character> = [
        "。", "、", "，", "．", "！", "？", "：", "；", "」", "』", "）", "〉", "》", "】", "〕", "ー", "…",
        ".", ",", "!", "?", ":", ";", ")",
    ]

    private func merged(_ segments: [Segment]) -> [Segment] {
        var out: [Segment] = []
        for s in segments {
            if let last = out.last, last.isCode == s.isCode {
                out[out.count - 1].text += s.text
            } else {
                out.append(s)
            }
        }
        return out
    }

    private func trimmingTrailingSpace(_ line: [Segment]) -> [Segment] {
        guard var last = line.last, !last.isCode else { return line }
        while last.text.hasSuffix(" ") { last.text.removeLast() }
        return last.text.isEmpty ? Array(line.dropLast()) : Array(line.dropLast()) + [last]
    }

    /// Operations drawing `lines` from (x, y) down, one line per ``lineHeight``. A right-to-left line is
    /// aligned to the right of the width it was broken to, its first piece rightmost.
    func operations(_ lines: [Line], x: Int, y: Int, color: RGBA, theme: PresenterTheme) -> [DrawOperation] {
        var ops: [DrawOperation] = []
        for (row, line) in lines.enumerated() {
            let widths = line.segments.map { measure($0, mark: line.mark) }
            var cx = line.isRightToLeft ? x + max(0, line.width - widths.reduce(0, +)) : x
            let top = y + row * lineHeight
            let order = line.isRightToLeft ? Array(line.segments.indices.reversed()) : Array(line.segments.indices)
            for index in order {
                let segment = line.segments[index]
                let w = widths[index]
                if segment.isCode {
                    let pad = max(2, size / 8)
                    ops.append(.fill(Rect(x: cx - pad / 2, y: top + pad / 2, width: w + pad,
                                          height: lineHeight - pad), theme.codeBackground))
                    let baseline = top + (size - codeSize) / 2 + (lineHeight - size) / 2
                    ops.append(.text(segment.text, x: cx, y: baseline, TextStyle(.mono, size: codeSize, color: theme.code)))
                } else {
                    ops.append(.text(line.mark + segment.text, x: cx, y: top + (lineHeight - size) / 2,
                                     TextStyle(face, size: size, color: color)))
                }
                cx += w
            }
        }
        return ops
    }
}
