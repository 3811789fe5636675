import ExternalDisplayKit
import Foundation

/// Writes the talk's ink into a copy of its PDF as standard ink annotations (ISO 32000 §12.5.6.13: `/Subtype
/// /Ink` with `/InkList`, `/C`, `/BS` width, `/CA` opacity for the highlighter, and an appearance stream so every
/// viewer draws it the same), in an incremental update: the copy is the original's bytes unchanged, then the
/// annotations, the pages with the annotations added to their `/Annots`, a new cross-reference section and a
/// trailer whose `/Prev` is the original's. The original file is never written.
///
/// Page objects are found with `mutool show` (``MutoolShow``) and read with ``PDFObject/Parser``.
///
/// Ink is drawn on the page as it is shown, after its `/Rotate`; it is written in the page's unturned user space
/// (``PageGeometry/user(_:_:)``), so every viewer turns it with the page. A page whose `/Rotate` viewers disagree on
/// (``InkPageGeometry``) keeps no ink: the other pages' ink is written and ``Outcome/problems`` says which page and why.
///
/// ```swift
/// let outcome = try InkAnnotationWriter.write(strokes: [0: [stroke]], pages: deck.slides.compactMap(\.pdfPage),
///                                             to: URL(fileURLWithPath: "talk-annotated.pdf"))
/// outcome.strokes   // 1
/// outcome.problems  // [] (or "page 3 of talk.pdf: its /Rotate 45 is not a multiple of 90, …")
/// ```
public enum InkAnnotationWriter {
    /// A marker in each annotation's `/NM` (its name), so annotations written by extdisplay can be told apart.
    public static let namePrefix = "extdisplay-ink"

    /// Where the annotated copy of `document` goes by default: `NAME-annotated.pdf` beside it.
    public static func defaultOutput(for document: URL) -> URL {
        let base = document.deletingPathExtension().lastPathComponent
        return document.deletingLastPathComponent().appendingPathComponent(base + "-annotated.pdf")
    }

    /// What a write did.
    public struct Outcome: Hashable, Sendable {
        /// Strokes written.
        public var strokes: Int
        /// Pages whose ink was left out, each a line saying which page, why and what to do (their `/Rotate` is one
        /// viewers disagree on); empty when every stroke was written.
        public var problems: [String]

        /// Creates an outcome.
        public init(strokes: Int, problems: [String] = []) {
            self.strokes = strokes
            self.problems = problems
        }
    }

    /// Writes `strokes` (by page index of `pages`, the deck's pages in order) into a copy of their PDF at
    /// `output`; returns how many strokes were written and the pages whose ink was left out (a `/Rotate` viewers
    /// disagree on), with why. Strokes of pages that are not of the first page's document are left out. Throws when
    /// the PDF cannot be read or the copy cannot be written; the message says why.
    @discardableResult
    public static func write(strokes: [Int: [InkStroke]], pages: [PDFPage], to output: URL) throws(InkSaveError) -> Outcome {
        guard let document = pages.first?.document else { throw InkSaveError("the deck has no PDF pages to annotate") }
        guard output.standardizedFileURL.path != document.standardizedFileURL.path else {
            throw InkSaveError("the annotated copy would overwrite the original \(document.path); give another name")
        }
        let original: Data
        do { original = try Data(contentsOf: document) } catch {
            throw InkSaveError("\(document.path) could not be read to annotate it: \(error.localizedDescription)")
        }
        let show = MutoolShow(document)
        guard let pageList = show(["pages"]) else {
            throw InkSaveError("mutool could not list the pages of \(document.path)"
                            + (show.stopped.map { " (\($0))" } ?? "") + "; install mupdf-tools")
        }
        let pageObjects = Self.pageObjects(pageList)
        guard let trailerText = show(["trailer"]) else { throw InkSaveError("mutool could not read the trailer of \(document.path)") }
        var trailerParser = PDFObject.Parser(trailerText)
        _ = trailerParser.value() // the word `trailer`
        guard case .dictionary(let trailer)? = trailerParser.value(), let size = trailer["Size"]?.integer, size > 0,
              case .reference(let root)? = trailer["Root"] else {
            throw InkSaveError("the trailer of \(document.path) has no /Size or /Root; it cannot be annotated")
        }
        guard let startxref = Self.lastStartXref(original) else {
            throw InkSaveError("\(document.path) has no startxref at its end; it cannot be updated incrementally")
        }
        var update = Data()
        var offsets: [(number: Int, offset: Int)] = []
        var nextNumber = size
        var written = 0
        if original.last != 0x0A, original.last != 0x0D { update.append(0x0A) }
        func add(_ number: Int, _ body: Data) {
            offsets.append((number, original.count + update.count))
            update.append(Data("\(number) 0 obj\n".utf8))
            update.append(body)
            update.append(Data("\nendobj\n".utf8))
        }
        // Every page with ink, read in one run of mutool; two slides on one page (a split page) share its object.
        let inked = strokes.sorted { $0.key < $1.key }.filter { entry in
            !entry.value.isEmpty && pages.indices.contains(entry.key) && pages[entry.key].document == document
        }
        var objectsByPage: [Int: Int] = [:]
        for (pageIndex, _) in inked {
            let page = pages[pageIndex]
            guard pageObjects.indices.contains(page.index), let number = pageObjects[page.index] else {
                throw InkSaveError("page \(page.index + 1) of \(document.path) is not in its page tree as mutool reads it")
            }
            objectsByPage[page.index] = number
        }
        // Each page's box and rotation (inherited through the page tree); a page viewers turn differently keeps no ink.
        let geometries = InkPageGeometry.read(document, pageObjects: objectsByPage, show: show)
        var problems: [String] = []
        var numbers: [Int] = []
        for pageIndex in objectsByPage.keys.sorted() {
            guard let number = objectsByPage[pageIndex] else { continue }
            switch geometries[pageIndex] {
            case .page?: if !numbers.contains(number) { numbers.append(number) }
            case .problem(let why)?:
                let count = inked.filter { pages[$0.key].index == pageIndex }.reduce(0) { $0 + $1.value.count }
                problems.append("page \(pageIndex + 1) of \(document.path): \(why) (\(count) stroke\(count == 1 ? "" : "s") left out)")
            case nil:
                throw InkSaveError("page \(pageIndex + 1) of \(document.path) could not be read with mutool"
                                   + (show.stopped.map { " (\($0))" } ?? ""))
            }
        }
        var dictionaries: [Int: [String: PDFObject]] = [:]
        if !numbers.isEmpty {
            guard let shown = show(numbers.map(String.init)) else {
                throw InkSaveError("the pages of \(document.path) could not be read with mutool" + (show.stopped.map { " (\($0))" } ?? ""))
            }
            var parser = PDFObject.Parser(shown)
            for entry in MutoolShow.shownObjects(&parser) where !entry.isStream {
                if case .dictionary(let d) = entry.value { dictionaries[entry.number] = d }
            }
        }
        var annotsByPage: [Int: [PDFObject]] = [:]
        for (pageIndex, pageStrokes) in inked {
            let page = pages[pageIndex]
            guard case .page(let geometry)? = geometries[page.index] else { continue }
            guard let pageNumber = pageObjects[page.index], let dictionary = dictionaries[pageNumber] else {
                throw InkSaveError("page \(page.index + 1) of \(document.path) is not a page dictionary")
            }
            if annotsByPage[pageNumber] == nil {
                switch dictionary["Annots"] {
                case .array(let items)?: annotsByPage[pageNumber] = items
                case .reference(let n)?:
                    var p = PDFObject.Parser(show([String(n)]) ?? "")
                    if case .array(let items)? = MutoolShow.shownObjects(&p).first?.value {
                        annotsByPage[pageNumber] = items
                    } else {
                        throw InkSaveError("the annotations of page \(page.index + 1) of \(document.path) could not be read")
                    }
                default: annotsByPage[pageNumber] = []
                }
            }
            for (i, stroke) in pageStrokes.enumerated() {
                guard let annotation = Self.annotation(stroke, part: page.part.fraction, page: geometry, pageObject: pageNumber,
                                                       name: "\(namePrefix)-\(pageIndex)-\(i)") else { continue }
                let apNumber = nextNumber, annotNumber = nextNumber + 1
                nextNumber += 2
                add(apNumber, annotation.appearance)
                add(annotNumber, Data(annotation.dictionary.replacingOccurrences(of: "@AP@", with: "\(apNumber) 0 R").utf8))
                annotsByPage[pageNumber, default: []].append(.reference(annotNumber))
                written += 1
            }
        }
        for number in numbers {
            guard var dictionary = dictionaries[number] else { continue }
            dictionary["Annots"] = .array(annotsByPage[number] ?? [])
            add(number, Data(Self.serialize(.dictionary(dictionary)).utf8))
        }
        // The cross-reference section: classic when the original's is, else a stream (PDF 1.5).
        let xrefOffset = original.count + update.count
        let sorted = offsets.sorted { $0.number < $1.number }
        let isClassic = Self.startsClassicXref(original, at: startxref)
        if isClassic {
            update.append(Data("xref\n".utf8))
            var i = 0
            while i < sorted.count {
                var j = i
                while j + 1 < sorted.count, sorted[j + 1].number == sorted[j].number + 1 { j += 1 }
                update.append(Data("\(sorted[i].number) \(j - i + 1)\n".utf8))
                for k in i...j { update.append(Data(String(format: "%010d 00000 n \n", sorted[k].offset).utf8)) }
                i = j + 1
            }
            update.append(Data("trailer\n<</Size \(nextNumber)/Root \(root) 0 R/Prev \(startxref)>>\nstartxref\n\(xrefOffset)\n%%EOF\n".utf8))
        } else {
            let xrefNumber = nextNumber
            let entries = sorted + [(number: xrefNumber, offset: xrefOffset)]
            var index: [Int] = [], bytes: [UInt8] = []
            for entry in entries {
                index += [entry.number, 1]
                bytes += [1] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: entry.offset >> (8 * $0)) } + [0, 0]
            }
            update.append(Data(("\(xrefNumber) 0 obj\n<</Type/XRef/Size \(xrefNumber + 1)/Root \(root) 0 R/Prev \(startxref)"
                                + "/W[1 4 2]/Index[\(index.map(String.init).joined(separator: " "))]/Length \(bytes.count)>>\nstream\n").utf8))
            update.append(Data(bytes))
            update.append(Data("\nendstream\nendobj\nstartxref\n\(xrefOffset)\n%%EOF\n".utf8))
        }
        do {
            let temporary = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).tmp")
            try (original + update).write(to: temporary)
            // rename(2) replaces an older copy at once: a reader never sees half a file.
            guard rename(temporary.path, output.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw InkSaveError("the annotated copy \(output.path) could not be written: \(reason)")
            }
        } catch let error as InkSaveError {
            throw error
        } catch {
            throw InkSaveError("the annotated copy \(output.path) could not be written: \(error.localizedDescription)")
        }
        return Outcome(strokes: written, problems: problems)
    }

    /// Object numbers of the pages, in order, from `mutool show FILE pages` (`page 1 = 4 0 R`).
    static func pageObjects(_ text: String) -> [Int?] {
        var out: [Int?] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ")
            guard words.count >= 4, words[0] == "page", let n = Int(words[1]), n == out.count + 1 else { continue }
            out.append(Int(words[3]))
        }
        return out
    }

    /// The offset after the file's last `startxref`.
    static func lastStartXref(_ data: Data) -> Int? {
        let tail = [UInt8](data.suffix(2048))
        let marker = Array("startxref".utf8)
        guard tail.count >= marker.count else { return nil }
        var at: Int?
        for i in stride(from: tail.count - marker.count, through: 0, by: -1) where Array(tail[i..<(i + marker.count)]) == marker {
            at = i + marker.count
            break
        }
        guard let start = at else { return nil }
        let digits = tail[start...].drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }.prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, digits.count < 16, let n = Int(String(decoding: digits, as: UTF8.self)), n < data.count else { return nil }
        return n
    }

    /// Whether the cross-reference section at `offset` is a classic table (`xref`), not a stream.
    static func startsClassicXref(_ data: Data, at offset: Int) -> Bool {
        guard offset >= 0, offset + 4 <= data.count else { return false }
        let start = data.index(data.startIndex, offsetBy: offset)
        return Array(data[start..<data.index(start, offsetBy: 4)]) == Array("xref".utf8)
    }

    /// The annotation dictionary (with `@AP@` where its appearance's reference goes) and its appearance stream
    /// object for one stroke on the slide that fills `part` (fractions from the top-left corner of the page as
    /// shown, after its rotation) of `page`. The points and rectangle are in the page's user space, unturned.
    static func annotation(_ stroke: InkStroke, part: (x: Double, y: Double, width: Double, height: Double), page: PageGeometry,
                           pageObject: Int, name: String) -> (dictionary: String, appearance: Data)? {
        guard !stroke.points.isEmpty, stroke.tool != .eraser else { return nil }
        let points = stroke.points.map { p -> (Double, Double) in
            let user = page.user(part.x + p.x * part.width, part.y + p.y * part.height)
            return (user.x, user.y)
        }
        let pressure = stroke.tool == .highlighter ? 1 : 0.4 + 0.6 * stroke.meanPressure
        let width = max(0.1, stroke.width * pressure * part.height * page.shownHeight)
        let xs = points.map(\.0), ys = points.map(\.1)
        let margin = width / 2 + 1
        let rect = [(xs.min() ?? 0) - margin, (ys.min() ?? 0) - margin, (xs.max() ?? 0) + margin, (ys.max() ?? 0) + margin]
        let c = stroke.colour
        let rgb = [c.red, c.green, c.blue].map { number(Double($0) / 255) }.joined(separator: " ")
        let list = points.map { "\(number($0.0)) \(number($0.1))" }.joined(separator: " ")
        let opacity = stroke.opacity < 1 ? "/CA \(number(stroke.opacity))" : ""
        let dictionary = "<</Type/Annot/Subtype/Ink/Rect[\(rect.map(number).joined(separator: " "))]/P \(pageObject) 0 R"
            + "/NM(\(name))/T(extdisplay)/F 4/C[\(rgb)]\(opacity)/BS<</Type/Border/W \(number(width))/S/S>>"
            + "/InkList[[\(list)]]/AP<</N @AP@>>>>"
        var path = "q \(stroke.opacity < 1 ? "/G0 gs " : "")\(rgb) RG \(number(width)) w 1 J 1 j "
        path += "\(number(points[0].0)) \(number(points[0].1)) m"
        for p in (points.count == 1 ? points : Array(points.dropFirst())) { path += " \(number(p.0)) \(number(p.1)) l" }
        path += " S Q"
        let resources = stroke.opacity < 1 ? "/Resources<</ExtGState<</G0<</Type/ExtGState/CA \(number(stroke.opacity))>>>>>>" : ""
        let appearance = "<</Type/XObject/Subtype/Form/BBox[\(rect.map(number).joined(separator: " "))]\(resources)"
            + "/Length \(path.utf8.count)>>\nstream\n\(path)\nendstream"
        return (dictionary, Data(appearance.utf8))
    }

    /// A number as PDF writes it: no exponent, at most 4 decimals, no trailing zeros.
    static func number(_ value: Double) -> String { number(value, decimals: 4) }

    /// A number as PDF (and the ink file) writes it: no exponent, at most `decimals` decimals, no trailing zeros
    /// (not finite: 0).
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.\(decimals)f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// An object in PDF syntax (names escaped, strings in hexadecimal).
    static func serialize(_ object: PDFObject) -> String {
        switch object {
        case .number(let n): return number(n)
        case .name(let name): return "/" + escapedName(name)
        case .string(let bytes): return "<" + bytes.map { String(format: "%02X", $0) }.joined() + ">"
        case .array(let items): return "[" + items.map(serialize).joined(separator: " ") + "]"
        case .dictionary(let d):
            return "<<" + d.keys.sorted().map { "/" + escapedName($0) + " " + serialize(d[$0] ?? .keyword("null")) }.joined(separator: " ") + ">>"
        case .reference(let n): return "\(n) 0 R"
        case .keyword(let word): return word
        }
    }

    private static func escapedName(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            if byte > 0x20, byte < 0x7F, !Array("()<>[]{}/%#".utf8).contains(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += String(format: "#%02X", byte)
            }
        }
        return out
    }
}

/// The ink could not be saved into a copy of the PDF.
public struct InkSaveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
