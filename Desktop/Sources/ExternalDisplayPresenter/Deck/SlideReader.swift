import Foundation

/// Reads the lines of one slide, one at a time, into a ``Slide`` and the problems found.
struct SlideReader {
    let number: Int
    let startLine: Int
    let file: String
    let base: URL
    let fileExists: (URL) -> Bool
    /// Why an existing image cannot be shown (unreadable, corrupt, too large, unsupported format), or nil.
    let imageProblem: (URL) -> String?

    private(set) var diagnostics: [DeckDiagnostic] = []
    private var title: [InlineRun]?
    private var blocks: [SlideBlock] = []
    private var notes: [String] = []
    private var paragraph: [String] = []
    private var paragraphLine = 0
    private var noteParagraph: [String] = []
    private var inNotes = false
    private var lastWasBullet = false
    private var time: Double?

    init(number: Int, startLine: Int, file: String, base: URL, fileExists: @escaping (URL) -> Bool,
         imageProblem: @escaping (URL) -> String? = { _ in nil }) {
        self.imageProblem = imageProblem
        self.number = number
        self.startLine = startLine
        self.file = file
        self.base = base
        self.fileExists = fileExists
    }

    /// Whether nothing at all was read (no title, no blocks, no notes).
    var isEmpty: Bool { title == nil && blocks.isEmpty && notes.isEmpty }

    /// Reads one source line.
    mutating func read(_ line: String, at lineNumber: Int) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if let value = Self.timeComment(trimmed) { return readTime(value, at: lineNumber) }
        if inNotes { return readNote(trimmed) }
        if let rest = Self.noteMarker(trimmed) {
            flushParagraph()
            inNotes = true
            if !rest.isEmpty { noteParagraph.append(rest) }
            return
        }
        if trimmed.isEmpty {
            flushParagraph()
            return
        }
        if trimmed.hasPrefix("#"), readHeading(trimmed, at: lineNumber) { return }
        if trimmed.hasPrefix("![") {
            flushParagraph()
            return readImage(trimmed, at: lineNumber)
        }
        if let bullet = Self.bullet(line) { return readBullet(bullet.indent, bullet.text, at: lineNumber) }
        if lastWasBullet, paragraph.isEmpty, line.first?.isWhitespace == true,
           case .bullet(let level, let runs)? = blocks.last {
            blocks[blocks.count - 1] = .bullet(level: level, runs + inline(" " + trimmed, at: lineNumber))
            return
        }
        if paragraph.isEmpty { paragraphLine = lineNumber }
        paragraph.append(trimmed)
    }

    /// Finishes the slide.
    mutating func finish() -> Slide {
        flushParagraph()
        flushNote()
        return Slide(number: number, line: startLine, title: title, blocks: blocks, notes: notes, time: time)
    }

    // MARK: The slide's time

    /// The value of a `<!-- time: 1:30 -->` line, if the line is one.
    static func timeComment(_ trimmed: String) -> String? {
        guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->"), trimmed.count >= 7 else { return nil }
        let inner = trimmed.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        guard inner.lowercased().hasPrefix("time:") else { return nil }
        return inner.dropFirst(5).trimmingCharacters(in: .whitespaces)
    }

    /// `m:ss`, `h:mm:ss` or plain seconds (`90`, `90s`), at most 24 hours; nil otherwise.
    static func seconds(_ text: String) -> Double? {
        let plain = text.hasSuffix("s") ? String(text.dropLast()) : text
        let parts = plain.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (position, part) in parts.enumerated() {
            // Digits (and one point in the last part): no signs, exponents, "nan" or "inf".
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let value = Double(part), value.isFinite else { return nil }
            if position > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total > 0 && total <= 86_400 ? total : nil
    }

    private mutating func readTime(_ value: String, at lineNumber: Int) {
        if let seconds = Self.seconds(value) {
            time = seconds
        } else {
            diagnostics.append(DeckDiagnostic(file: file, slide: number, line: lineNumber,
                message: "time '\(String(value.prefix(40)))' is not m:ss, h:mm:ss or seconds (up to 24 h); the slide "
                    + "gets a share of the talk's time instead"))
        }
    }

    // MARK: Notes

    /// The text after a `Note:` (or `Notes:`) marker line, if the line is one.
    static func noteMarker(_ trimmed: String) -> String? {
        for marker in ["note:", "notes:"] where trimmed.lowercased().hasPrefix(marker) {
            return String(trimmed.dropFirst(marker.count)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    private mutating func readNote(_ trimmed: String) {
        if trimmed.isEmpty { flushNote() } else { noteParagraph.append(trimmed) }
    }

    private mutating func flushNote() {
        guard !noteParagraph.isEmpty else { return }
        notes.append(noteParagraph.joined(separator: " "))
        noteParagraph = []
    }

    // MARK: Blocks

    private mutating func flushParagraph() {
        guard !paragraph.isEmpty else { return }
        blocks.append(.paragraph(inline(paragraph.joined(separator: " "), at: paragraphLine)))
        paragraph = []
        lastWasBullet = false
    }

    /// Reads `#`… headings; returns false when the line is not one (e.g. `#hashtag`).
    private mutating func readHeading(_ trimmed: String, at lineNumber: Int) -> Bool {
        let hashes = trimmed.prefix { $0 == "#" }.count
        let rest = trimmed.dropFirst(hashes)
        guard hashes <= 6, rest.isEmpty || rest.first == " " else { return false }
        flushParagraph()
        lastWasBullet = false
        let text = rest.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            report(lineNumber, "empty heading; it is ignored")
            return true
        }
        let runs = inline(text, at: lineNumber)
        if hashes == 1, title == nil {
            title = runs
        } else {
            if hashes == 1 { report(lineNumber, "a second # title on one slide; it is shown as a subheading") }
            blocks.append(.heading(runs))
        }
        return true
    }

    private mutating func readBullet(_ indent: Int, _ text: String, at lineNumber: Int) {
        flushParagraph()
        var level = indent
        if level > 1 {
            report(lineNumber, "bullets nest only once; this one is shown one level deep")
            level = 1
        }
        if level == 1, !lastWasBullet {
            report(lineNumber, "nested bullet without a bullet above it; it is shown as a top-level bullet")
            level = 0
        }
        blocks.append(.bullet(level: level, inline(text, at: lineNumber)))
        lastWasBullet = true
    }

    /// A bullet line's nesting (tabs count one each, two spaces count one) and text, if the line is a bullet.
    static func bullet(_ line: String) -> (indent: Int, text: String)? {
        let lead = line.prefix { $0 == " " || $0 == "\t" }
        let body = line.dropFirst(lead.count)
        guard body.hasPrefix("- ") || body.hasPrefix("* ") || body == "-" || body == "*" else { return nil }
        let tabs = lead.filter { $0 == "\t" }.count
        let spaces = lead.count - tabs
        return (tabs + spaces / 2, body.dropFirst(1).trimmingCharacters(in: .whitespaces))
    }

    private mutating func readImage(_ trimmed: String, at lineNumber: Int) {
        lastWasBullet = false
        guard let close = trimmed.range(of: "]("), trimmed.hasSuffix(")") else {
            report(lineNumber, "malformed image; write ![alt text](file.png) on a line of its own")
            return
        }
        let alt = String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<close.lowerBound])
        let path = String(trimmed[close.upperBound..<trimmed.index(before: trimmed.endIndex)])
            .trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else {
            report(lineNumber, "image without a file; write ![alt text](file.png)")
            return
        }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
        let namedVideo = VideoFileKind.isVideoName(path)
        guard fileExists(url) else {
            report(lineNumber, "\(namedVideo ? "video" : "image") '\(path)' not found (looked at \(url.path)); "
                   + "the slide is shown without it")
            return
        }
        if namedVideo || VideoFileKind.container(ofFile: url) != nil {
            // A video plays on the slide; whether it decodes is found out when it is opened (a message then).
            blocks.append(.clip(alt: alt, SlideClip(url: url.standardizedFileURL, autoplay: true)))
            return
        }
        if let problem = imageProblem(url) {
            report(lineNumber, "image '\(path)' cannot be shown: \(problem); its alt text is shown instead")
        }
        blocks.append(.image(alt: alt, url: url.standardizedFileURL))
    }

    // MARK: Inline

    /// Splits text at backticks into plain and code runs; an unclosed backtick is reported and kept as typed.
    private mutating func inline(_ text: String, at lineNumber: Int) -> [InlineRun] {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        var runs: [InlineRun] = []
        let closedParts = parts.count % 2 == 1 ? parts.count : parts.count - 1
        for (i, part) in parts.prefix(closedParts).enumerated() where !part.isEmpty {
            runs.append(InlineRun(part, isCode: i % 2 == 1))
        }
        if closedParts < parts.count {
            report(lineNumber, "inline code opened with ` and never closed; the backtick is shown as typed")
            runs.append(InlineRun("`" + parts[parts.count - 1]))
        }
        return runs
    }

    private mutating func report(_ line: Int, _ message: String) {
        diagnostics.append(DeckDiagnostic(file: file, slide: number, line: line, message: message))
    }
}
