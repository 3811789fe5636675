import Foundation

/// A PDF's page labels (the catalog's `/PageLabels` number tree, ISO 32000 §12.4.2): what the author numbers
/// each page, e.g. `i, ii, 1, 2, 2, 2, 3` for front matter and Beamer overlays.
///
/// The labels are computed here from the tree's ranges; the tree itself is read from the file by
/// ``PageLabelReader`` through MuPDF's `mutool show`, a separate process.
///
/// ```swift
/// let ranges = [PageLabels.Range(start: 0, style: .lowerRoman), PageLabels.Range(start: 2, style: .decimal)]
/// PageLabels.labels(ranges, pageCount: 4) // ["i", "ii", "1", "2"]
/// ```
public enum PageLabels {
    /// How a range numbers its pages (`/S`).
    public enum Style: String, Hashable, Sendable {
        /// `/D`: 1, 2, 3.
        case decimal = "D"
        /// `/R`: I, II, III.
        case upperRoman = "R"
        /// `/r`: i, ii, iii.
        case lowerRoman = "r"
        /// `/A`: A…Z, AA…ZZ.
        case upperLetters = "A"
        /// `/a`: a…z, aa…zz.
        case lowerLetters = "a"
    }

    /// Pages from `start` (0-based) up to the next range's start, labelled `prefix` + number in `style`
    /// counting from `first`. A range with neither style nor prefix gives empty labels.
    public struct Range: Hashable, Sendable {
        /// The first page index of the range.
        public var start: Int
        /// The numbering style, if any (`/S`).
        public var style: Style?
        /// The label prefix (`/P`).
        public var prefix: String
        /// The number of the range's first page (`/St`, at least 1).
        public var first: Int

        /// Creates a range.
        public init(start: Int, style: Style? = nil, prefix: String = "", first: Int = 1) {
            self.start = start
            self.style = style
            self.prefix = prefix
            self.first = max(1, first)
        }

        /// A range from a number tree's `start` key and label dictionary (`/S`, `/P`, `/St`).
        public init?(start: Int, dictionary: PDFObject) {
            guard case .dictionary(let d) = dictionary else { return nil }
            var style: Style?
            if case .name(let s)? = d["S"] { style = Style(rawValue: s) }
            self.init(start: start, style: style, prefix: d["P"]?.text ?? "", first: d["St"]?.integer ?? 1)
        }
    }

    /// Each page's label (nil before the first range, or where a range gives an empty label).
    public static func labels(_ ranges: [Range], pageCount: Int) -> [String?] {
        let sorted = ranges.filter { $0.start >= 0 }.sorted { $0.start < $1.start }
        var labels = [String?](repeating: nil, count: max(0, pageCount))
        for (i, range) in sorted.enumerated() where range.start < labels.count {
            let end = i + 1 < sorted.count ? min(sorted[i + 1].start, labels.count) : labels.count
            for page in range.start..<end {
                let number = range.first + (page - range.start)
                let label = range.prefix + (range.style.map { format(number, $0) } ?? "")
                labels[page] = label.isEmpty ? nil : label
            }
        }
        return labels
    }

    /// `number` (≥ 1) written in `style`.
    public static func format(_ number: Int, _ style: Style) -> String {
        let n = max(1, number)
        switch style {
        case .decimal: return String(n)
        case .upperRoman: return roman(n)
        case .lowerRoman: return roman(n).lowercased()
        case .upperLetters: return letters(n)
        case .lowerLetters: return letters(n).lowercased()
        }
    }

    /// Roman numerals; thousands are written as repeated M (capped so a hostile number stays short).
    private static func roman(_ n: Int) -> String {
        let table: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                                      (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = min(n, 99_999), out = ""
        for (value, digits) in table {
            while rest >= value {
                out += digits
                rest -= value
            }
        }
        return out
    }

    /// A…Z, then AA…ZZ, AAA…: the letter repeated (n - 1) / 26 + 1 times (capped).
    private static func letters(_ n: Int) -> String {
        let letter = Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8((n - 1) % 26)))
        return String(repeating: letter, count: min((n - 1) / 26 + 1, 64))
    }
}
