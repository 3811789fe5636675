import DesktopFiles
import Foundation

/// A Markdown deck's ink, kept beside it: `talk.md` → `talk.ink.json` (``companion(of:)``). A versioned JSON
/// document (docs/ink.md, "The ink file") with one entry per slide that has ink: the slide's 1-based index, a
/// fingerprint of what the audience sees on it (title, text, images, clips; not the notes), its title, and its
/// strokes (tool, colour, width, opacity, points in slide fractions with their pressure).
///
/// Read back, each entry goes to the slide with the same fingerprint nearest its old index (``matched(to:)``), so
/// a deck edited since keeps the ink of the slides it kept; entries that match no slide are named for the speaker
/// and written back unchanged on the next save, so an edit undone later finds its ink again.
///
/// ```swift
/// let file = InkFile(strokes: state.ink.savedStrokes, deck: deck)
/// try AtomicFile.write(file.encoded(), to: InkFile.companion(of: deckURL))
/// let (read, problems) = InkFile.decode(data)
/// let (strokes, unmatched, note) = read?.matched(to: deck) ?? ([:], [], nil)
/// ```
public struct InkFile: Hashable, Sendable {
    /// The `"format"` member of every ink file.
    public static let formatName = "extdisplay-ink"
    /// The version this build writes and reads.
    public static let currentVersion = 1
    /// The largest ink file read: 8 MiB, about 700,000 points (a long talk's simplified ink is a few hundred KiB;
    /// reading 8 MiB raises the peak memory by about 165 MB for a moment).
    public static let fileLimit = 8 << 20
    /// The most strokes read from one file; further ones are dropped with a problem line.
    public static let strokeLimit = 50_000

    /// One slide's ink as stored.
    public struct Entry: Hashable, Sendable {
        /// The slide's number in the deck when it was saved (1-based).
        public var index: Int
        /// The fingerprint of the slide's visible content (16 hex digits, ``fingerprints(of:)``).
        public var fingerprint: String
        /// The slide's title when it was saved (shown in messages), if any.
        public var title: String?
        /// The strokes, in the order drawn.
        public var strokes: [InkStroke]

        /// Creates an entry.
        public init(index: Int, fingerprint: String, title: String?, strokes: [InkStroke]) {
            self.index = index
            self.fingerprint = fingerprint
            self.title = title
            self.strokes = strokes
        }
    }

    /// The entries, by slide index.
    public var entries: [Entry]

    /// A file of `entries`.
    public init(entries: [Entry]) { self.entries = entries }

    /// The file for `deck`'s room ink `strokes` (by slide index); `kept`: entries of an earlier file that match no
    /// slide now, written back unchanged.
    public init(strokes: [Int: [InkStroke]], deck: Deck, kept: [Entry] = []) {
        let fingerprints = Self.fingerprints(of: deck)
        var entries: [Entry] = []
        for (index, slideStrokes) in strokes.sorted(by: { $0.key < $1.key })
        where deck.slides.indices.contains(index) && !slideStrokes.isEmpty {
            entries.append(Entry(index: index + 1, fingerprint: fingerprints[index],
                                 title: deck.slides[index].title.map(InlineRun.plainText), strokes: slideStrokes))
        }
        self.entries = entries + kept
    }

    /// Where a deck's ink file goes by default: `NAME.ink.json` beside the deck.
    public static func companion(of deck: URL) -> URL {
        deck.deletingPathExtension().appendingPathExtension("ink.json")
    }

    /// Per slide of `deck`, the fingerprint of what the audience sees (the speaker's notes and the slide's time
    /// left out: editing them keeps the ink), with the hash the timing file uses (``DeckTimingPlan``).
    public static func fingerprints(of deck: Deck) -> [String] {
        deck.slides.map { slide in
            var visible = slide
            visible.notes = []
            visible.time = nil
            return DeckTimingPlan.fingerprint(DeckTimingPlan.content(of: visible))
        }
    }

    /// The entries given to the slides of `deck` (strokes by 0-based slide index): each goes to the slide with its
    /// fingerprint nearest its old index, not taken by another entry. `unmatched`: the entries no slide matches;
    /// `note`: a line naming them, or the slides whose ink followed them to a new place (nil when every entry
    /// is where it was).
    public func matched(to deck: Deck) -> (strokes: [Int: [InkStroke]], unmatched: [Entry], note: String?) {
        var positions: [String: [Int]] = [:]
        for (index, fingerprint) in Self.fingerprints(of: deck).enumerated() { positions[fingerprint, default: []].append(index) }
        var strokes: [Int: [InkStroke]] = [:]
        var unmatched: [Entry] = []
        var moved = 0
        for entry in entries {
            guard var candidates = positions[entry.fingerprint], !candidates.isEmpty else {
                unmatched.append(entry)
                continue
            }
            let best = candidates.indices.min {
                abs(candidates[$0] - (entry.index - 1)) < abs(candidates[$1] - (entry.index - 1))
            } ?? 0
            let index = candidates.remove(at: best)
            positions[entry.fingerprint] = candidates
            if index != entry.index - 1 { moved += 1 }
            strokes[index, default: []] += entry.strokes
        }
        var notes: [String] = []
        if !unmatched.isEmpty {
            let names = unmatched.prefix(5).map { entry in
                "\(entry.index)" + (entry.title.map { " \"\(String($0.prefix(40)))\"" } ?? "")
            }.joined(separator: ", ") + (unmatched.count > 5 ? ", …" : "")
            let s = unmatched.count == 1 ? "" : "s"
            notes.append("the ink of \(unmatched.count) slide\(s) (\(names)) matches no slide of the deck now (changed or "
                         + "removed since); it is not shown, and it is kept in the file")
        }
        if moved > 0 {
            notes.append("the ink of \(moved) slide\(moved == 1 ? "" : "s") follows \(moved == 1 ? "it" : "them") to a "
                         + "new place in the deck")
        }
        return (strokes, unmatched, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    // MARK: Writing

    /// The file as JSON: an entry per slide, a stroke per line, numbers with at most five decimals.
    public func encoded() -> Data {
        var out = "{\n  \"format\": \"\(Self.formatName)\",\n  \"version\": \(Self.currentVersion),\n"
        out += "  \"coordinates\": \"slide fractions from the top-left corner: x right, y down, 0...1; width: a fraction of the slide's height\",\n"
        out += "  \"slides\": ["
        for (n, entry) in entries.enumerated() {
            out += n == 0 ? "\n" : ",\n"
            out += "    {\"index\": \(entry.index), \"fingerprint\": \(Self.quoted(entry.fingerprint))"
            if let title = entry.title { out += ", \"title\": \(Self.quoted(title))" }
            out += ", \"strokes\": ["
            for (k, stroke) in entry.strokes.enumerated() {
                out += k == 0 ? "\n" : ",\n"
                let c = stroke.colour
                let colour = String(format: "#%02x%02x%02x", c.red, c.green, c.blue)
                out += "      {\"tool\": \"\(stroke.tool.rawValue)\", \"colour\": \"\(colour)\", "
                    + "\"width\": \(Self.number(stroke.width)), \"opacity\": \(Self.number(stroke.opacity)), \"points\": ["
                out += stroke.points.map { "[\(Self.number($0.x)),\(Self.number($0.y)),\(Self.number($0.pressure))]" }
                    .joined(separator: ",")
                out += "]}"
            }
            out += entry.strokes.isEmpty ? "]}" : "\n    ]}"
        }
        out += entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return Data(out.utf8)
    }

    /// A JSON string.
    static func quoted(_ text: String) -> String {
        guard let data = try? JSONEncoder().encode(text) else { return "\"\"" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A number with at most five decimals, no exponent, no trailing zeros (not finite: 0).
    static func number(_ value: Double) -> String { InkAnnotationWriter.number(value, decimals: 5) }

    // MARK: Reading

    /// Reads an ink file that may be damaged or hostile: nil when it cannot be used at all (not JSON, not this
    /// format, a newer version, no slide list), with the reason; else the usable entries, and a line for each part
    /// that was skipped (a stroke with numbers that are not finite, an unknown tool, a colour that is not
    /// `#rrggbb`, a slide without index or fingerprint). Never throws nor traps.
    public static func decode(_ data: Data) -> (file: InkFile?, problems: [String]) {
        guard data.count <= fileLimit else {
            return (nil, ["it is larger than \(fileLimit >> 20) MiB"])
        }
        guard let top = JSONValue.parse(data), top.object != nil else {
            return (nil, ["it is not JSON (an object): damaged or cut short"])
        }
        guard top["format"]?.string == formatName else {
            return (nil, ["its \"format\" is not \"\(formatName)\""])
        }
        guard let version = top["version"]?.integer, version >= 1 else {
            return (nil, ["it has no usable \"version\""])
        }
        guard version <= currentVersion else {
            return (nil, ["it is version \(version), newer than this extdisplay reads (\(currentVersion)); update extdisplay"])
        }
        guard let slides = top["slides"]?.array else {
            return (nil, ["it has no \"slides\" list"])
        }
        var problems: [String] = []
        var entries: [Entry] = []
        var total = 0
        for (position, slide) in slides.enumerated() {
            let place = "slides[\(position)]"
            guard let index = slide["index"]?.integer, (1...1_000_000).contains(index),
                  let fingerprint = slide["fingerprint"]?.string, !fingerprint.isEmpty, fingerprint.utf8.count <= 64,
                  let list = slide["strokes"]?.array else {
                problems.append("\(place) lacks an index, a fingerprint or its strokes; skipped")
                continue
            }
            var strokes: [InkStroke] = []
            var damaged = 0
            for item in list {
                guard total < strokeLimit else {
                    problems.append("more than \(strokeLimit) strokes; the rest is not read")
                    break
                }
                guard let stroke = Self.stroke(item) else {
                    damaged += 1
                    continue
                }
                strokes.append(stroke)
                total += 1
            }
            if damaged > 0 {
                problems.append("\(place) (slide \(index)): \(damaged) stroke\(damaged == 1 ? " is" : "s are") damaged "
                                + "(a number that is not finite or out of range, an unknown tool or colour); skipped")
            }
            let title = slide["title"]?.string.map { PrintableText.line($0, limit: 80) }
            if !strokes.isEmpty { entries.append(Entry(index: index, fingerprint: fingerprint, title: title, strokes: strokes)) }
            if total >= strokeLimit { break }
        }
        return (InkFile(entries: entries), problems)
    }

    /// One stroke, if every part of it is usable: a known tool (pen or highlighter), `#rrggbb`, a finite width in
    /// (0, 1], and 1 to ``InkBoard/maximumPoints`` points of two or three finite numbers (x and y in −1…2, pressure
    /// in 0…1; the board clamps them onto the slide).
    static func stroke(_ value: JSONValue) -> InkStroke? {
        guard let tool = value["tool"]?.string.flatMap(InkTool.init(rawValue:)), tool != .eraser,
              let colour = value["colour"]?.string.flatMap(Self.colour),
              let width = value["width"]?.number, width.isFinite, width > 0, width <= 1,
              let list = value["points"]?.array, !list.isEmpty, list.count <= InkBoard.maximumPoints else { return nil }
        var points: [InkPoint] = []
        points.reserveCapacity(list.count)
        for item in list {
            guard let numbers = item.array, numbers.count == 2 || numbers.count == 3,
                  let x = numbers[0].number, let y = numbers[1].number, x.isFinite, y.isFinite,
                  (-1...2).contains(x), (-1...2).contains(y) else { return nil }
            var pressure = 1.0
            if numbers.count == 3 {
                guard let p = numbers[2].number, p.isFinite, (0...1).contains(p) else { return nil }
                pressure = p
            }
            points.append(InkPoint(x: x, y: y, pressure: pressure))
        }
        return InkStroke(points: points, tool: tool, colour: colour, width: width)
    }

    /// `#rrggbb` as a colour.
    static func colour(_ text: String) -> InkColour? {
        let hex = Array(text.utf8)
        guard hex.count == 7, hex[0] == UInt8(ascii: "#") else { return nil }
        var v: [UInt8] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let byte = UInt8(String(decoding: hex[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
            v.append(byte)
        }
        return InkColour(v[0], v[1], v[2])
    }
}
