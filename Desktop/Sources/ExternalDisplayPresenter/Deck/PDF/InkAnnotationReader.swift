import ExternalDisplayKit
import Foundation

/// Reads back the ink annotations extdisplay wrote into an annotated copy of a PDF (``InkAnnotationWriter``:
/// `/Subtype /Ink` whose `/NM` starts with ``InkAnnotationWriter/namePrefix``), as strokes by slide, so the next
/// run of the same deck starts with its ink. Other annotations are left alone. A damaged file gives what could be
/// read and a problem line; it never traps. Points are mapped back from the page's unturned user space to the slide
/// as shown, after its `/Rotate` (``PageGeometry/shown(_:_:)``, the inverse of what the writer does); a page whose
/// `/Rotate` viewers disagree on (``InkPageGeometry``) gives no strokes and a problem line.
public enum InkAnnotationReader {
    /// The most annotations read from one file.
    static let annotationLimit = 20_000

    /// The strokes in `annotated` for the deck whose pages are `pages` (by slide index), and a problem to report
    /// (nil when all went well).
    public static func read(_ annotated: URL, pages: [PDFPage]) -> (strokes: [Int: [InkStroke]], problem: String?) {
        let show = MutoolShow(annotated)
        guard let list = show(["pages"]) else {
            return ([:], "the ink in \(annotated.path) was not read: mutool could not list its pages"
                    + (show.stopped.map { " (\($0))" } ?? ""))
        }
        let objects = InkAnnotationWriter.pageObjects(list)
        // Our ink annotations by slide, as read; placed once the pages' geometry is known.
        var found: [Int: [[String: PDFObject]]] = [:]
        var objectsByPage: [Int: Int] = [:]
        var total = 0
        for (slide, page) in pages.enumerated() {
            guard objects.indices.contains(page.index), let number = objects[page.index],
                  let text = show([String(number)]) else { continue }
            var parser = PDFObject.Parser(text)
            guard case .dictionary(let dictionary)? = MutoolShow.shownObjects(&parser).first?.value,
                  case .array(let annots)? = dictionary["Annots"] else { continue }
            let numbers = annots.compactMap { if case .reference(let n) = $0 { n } else { nil } }
            guard !numbers.isEmpty, total + numbers.count <= annotationLimit,
                  let shown = show(numbers.map(String.init)) else { continue }
            total += numbers.count
            var p = PDFObject.Parser(shown)
            for entry in MutoolShow.shownObjects(&p) {
                guard case .dictionary(let d) = entry.value, isOurs(d) else { continue }
                found[slide, default: []].append(d)
                objectsByPage[page.index] = number
            }
        }
        let geometries = InkPageGeometry.read(annotated, pageObjects: objectsByPage, show: show)
        var out: [Int: [InkStroke]] = [:]
        var problems: [String] = []
        for (slide, annotations) in found.sorted(by: { $0.key < $1.key }) {
            let page = pages[slide]
            switch geometries[page.index] {
            case .page(let geometry)?:
                let strokes = annotations.compactMap { stroke(.dictionary($0), page: page, geometry: geometry) }
                if !strokes.isEmpty { out[slide] = strokes }
            case .problem(let why)?:
                let line = "page \(page.index + 1): \(why)"
                if !problems.contains(line) { problems.append(line) }
            case nil:
                continue
            }
        }
        var lines: [String] = []
        if let stopped = show.stopped { lines.append("the ink in \(annotated.path) was read in part: \(stopped)") }
        if !problems.isEmpty {
            lines.append("the ink of some pages of \(annotated.path) was not read back: " + problems.prefix(4).joined(separator: "; ")
                         + (problems.count > 4 ? "; and \(problems.count - 4) more pages" : ""))
        }
        return (out, lines.isEmpty ? nil : lines.joined(separator: "; "))
    }

    /// Whether an annotation is an ink annotation extdisplay wrote.
    static func isOurs(_ d: [String: PDFObject]) -> Bool {
        d["Subtype"] == .name("Ink") && (d["NM"]?.text?.hasPrefix(InkAnnotationWriter.namePrefix) ?? false)
    }

    /// One annotation as a stroke, if it is an ink annotation of ours with a usable ink list.
    static func stroke(_ object: PDFObject, page: PDFPage, geometry: PageGeometry) -> InkStroke? {
        guard case .dictionary(let d) = object, isOurs(d),
              case .array(let lists)? = d["InkList"], case .array(let flat)? = lists.first else { return nil }
        let part = page.part.fraction
        let shownHeight = geometry.shownHeight
        guard shownHeight > 0, part.width > 0, part.height > 0 else { return nil }
        var points: [InkPoint] = []
        var i = 0
        while i + 1 < flat.count, points.count < InkBoard.maximumPoints {
            if case .number(let x) = flat[i], case .number(let y) = flat[i + 1], x.isFinite, y.isFinite {
                let (px, py) = geometry.shown(x, y)
                points.append(InkPoint(x: (px - part.x) / part.width, y: (py - part.y) / part.height))
            }
            i += 2
        }
        guard !points.isEmpty else { return nil }
        var colour = InkColour.palette[0]
        if case .array(let c)? = d["C"], c.count == 3 {
            let v = c.map { item -> UInt8 in
                if case .number(let n) = item, n.isFinite { UInt8((min(max(n, 0), 1) * 255).rounded()) } else { 0 }
            }
            colour = InkColour(v[0], v[1], v[2])
        }
        var opacity = 1.0
        if case .number(let ca)? = d["CA"], ca.isFinite { opacity = ca }
        var width = InkBoard.widths[1]
        if case .dictionary(let bs)? = d["BS"], case .number(let w)? = bs["W"], w.isFinite, w > 0 {
            width = w / (part.height * shownHeight)
        }
        return InkStroke(points: points, tool: opacity < 1 ? .highlighter : .pen, colour: colour, width: width)
    }
}
