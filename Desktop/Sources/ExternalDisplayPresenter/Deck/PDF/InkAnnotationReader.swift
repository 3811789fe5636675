import ExternalDisplayKit
import Foundation

/// Reads back the ink annotations extdisplay wrote into an annotated copy of a PDF (``InkAnnotationWriter``:
/// `/Subtype /Ink` whose `/NM` starts with ``InkAnnotationWriter/namePrefix``), as strokes by slide, so the next
/// run of the same deck starts with its ink. Other annotations are left alone. A damaged file gives what could be
/// read and a problem line; it never traps.
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
        var out: [Int: [InkStroke]] = [:]
        var total = 0
        for (slide, page) in pages.enumerated() {
            guard objects.indices.contains(page.index), let number = objects[page.index],
                  let text = show([String(number)]) else { continue }
            var parser = PDFObject.Parser(text)
            guard case .dictionary(let dictionary)? = MutoolShow.shownObjects(&parser).first?.value,
                  case .array(let annots)? = dictionary["Annots"] else { continue }
            let box = InkAnnotationWriter.box(dictionary["CropBox"]) ?? InkAnnotationWriter.box(dictionary["MediaBox"])
                ?? [0, 0, page.width, page.height]
            let numbers = annots.compactMap { if case .reference(let n) = $0 { n } else { nil } }
            guard !numbers.isEmpty, total + numbers.count <= annotationLimit,
                  let shown = show(numbers.map(String.init)) else { continue }
            total += numbers.count
            var p = PDFObject.Parser(shown)
            for entry in MutoolShow.shownObjects(&p) {
                if let stroke = stroke(entry.value, page: page, box: box) { out[slide, default: []].append(stroke) }
            }
        }
        if let stopped = show.stopped { return (out, "the ink in \(annotated.path) was read in part: \(stopped)") }
        return (out, nil)
    }

    /// One annotation as a stroke, if it is an ink annotation of ours with a usable ink list.
    static func stroke(_ object: PDFObject, page: PDFPage, box: [Double]) -> InkStroke? {
        guard case .dictionary(let d) = object, d["Subtype"] == .name("Ink"),
              let name = d["NM"]?.text, name.hasPrefix(InkAnnotationWriter.namePrefix),
              case .array(let lists)? = d["InkList"], case .array(let flat)? = lists.first else { return nil }
        let part = page.part.fraction
        let bw = box[2] - box[0], bh = box[3] - box[1]
        guard bw > 0, bh > 0, part.width > 0, part.height > 0 else { return nil }
        var points: [InkPoint] = []
        var i = 0
        while i + 1 < flat.count, points.count < InkBoard.maximumPoints {
            if case .number(let x) = flat[i], case .number(let y) = flat[i + 1], x.isFinite, y.isFinite {
                let px = (x - box[0]) / bw, py = (box[3] - y) / bh
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
            width = w / (part.height * bh)
        }
        return InkStroke(points: points, tool: opacity < 1 ? .highlighter : .pen, colour: colour, width: width)
    }
}
