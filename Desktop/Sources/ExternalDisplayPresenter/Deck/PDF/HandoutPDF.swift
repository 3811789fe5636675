import DesktopImages
import ExternalDisplayKit
import Foundation

/// A PDF made of pictures, a page per picture, with ink annotations over them: what `extdisplay export` writes
/// for a Markdown deck. Each page is as many points as its picture has pixels; the picture is an RGB image
/// (`/FlateDecode`) filling the page, and each stroke an `/Ink` annotation built as in the annotated copy of a PDF
/// deck (``InkAnnotationWriter``). Pages are added one at a time (their pixels can be freed between pages); the
/// file is a plain PDF 1.4 with a classic cross-reference table.
///
/// ```swift
/// var pdf = HandoutPDF(title: deck.title)
/// pdf.addPage(rgba: pixels, size: PixelSize(width: 1920, height: 1080), slide: rect, strokes: ink[0] ?? [], slideNumber: 0)
/// let bytes = pdf.finished()
/// ```
public struct HandoutPDF: Sendable {
    private var data = Data("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
    private var offsets: [Int: Int] = [:]
    private var pages: [Int] = []
    private var next = 3
    private let title: String
    /// How many strokes the pages carry.
    public private(set) var strokeCount = 0

    /// The objects numbered before the pages: the catalogue and the page tree.
    private static let catalogue = 1, pageTree = 2

    /// An empty handout whose document title is `title`.
    public init(title: String) { self.title = title }

    /// How many pages were added.
    public var pageCount: Int { pages.count }

    private mutating func number() -> Int {
        defer { next += 1 }
        return next
    }

    private mutating func add(_ number: Int, _ body: Data) {
        offsets[number] = data.count
        data.append(Data("\(number) 0 obj\n".utf8))
        data.append(body)
        data.append(Data("\nendobj\n".utf8))
    }

    /// Adds a page showing `rgba` (`size.width × size.height` pixels, 4 bytes each; alpha is ignored), with
    /// `strokes` drawn over the slide that fills `slide` (pixels of the picture) as ink annotations named after
    /// `slideNumber` (0-based).
    public mutating func addPage(rgba: [UInt8], size: PixelSize, slide: Rect, strokes: [InkStroke], slideNumber: Int) {
        let w = size.width, h = size.height
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        let pixels = min(w * h, rgba.count / 4)
        for i in 0..<pixels {
            rgb[3 * i] = rgba[4 * i]
            rgb[3 * i + 1] = rgba[4 * i + 1]
            rgb[3 * i + 2] = rgba[4 * i + 2]
        }
        let packed = Deflate.compress(rgb)
        let image = number(), content = number(), page = number()
        var body = Data(("<</Type/XObject/Subtype/Image/Width \(w)/Height \(h)/ColorSpace/DeviceRGB/BitsPerComponent 8"
                         + "/Filter/FlateDecode/Length \(packed.count)>>\nstream\n").utf8)
        body.append(contentsOf: packed)
        body.append(Data("\nendstream".utf8))
        add(image, body)
        let drawing = "q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q"
        add(content, Data("<</Length \(drawing.utf8.count)>>\nstream\n\(drawing)\nendstream".utf8))
        let box = PageGeometry(box: (0, 0, Double(w), Double(h)), rotation: 0)
        let part = (x: Double(slide.x) / Double(w), y: Double(slide.y) / Double(h),
                    width: Double(slide.width) / Double(w), height: Double(slide.height) / Double(h))
        var annots: [Int] = []
        for (i, stroke) in strokes.enumerated() {
            guard let annotation = InkAnnotationWriter.annotation(stroke, part: part, page: box, pageObject: page,
                                                                  name: "\(InkAnnotationWriter.namePrefix)-\(slideNumber)-\(i)")
            else { continue }
            let appearance = number(), annot = number()
            add(appearance, annotation.appearance)
            add(annot, Data(annotation.dictionary.replacingOccurrences(of: "@AP@", with: "\(appearance) 0 R").utf8))
            annots.append(annot)
        }
        strokeCount += annots.count
        let annotList = annots.isEmpty ? "" : "/Annots[\(annots.map { "\($0) 0 R" }.joined(separator: " "))]"
        add(page, Data(("<</Type/Page/Parent \(Self.pageTree) 0 R/MediaBox[0 0 \(w) \(h)]"
                        + "/Resources<</XObject<</Im0 \(image) 0 R>>>>/Contents \(content) 0 R\(annotList)>>").utf8))
        pages.append(page)
    }

    /// The whole file: the pages added, the page tree, the catalogue, the document information (title, creator),
    /// the cross-reference table and the trailer.
    public func finished() -> Data {
        var pdf = self
        pdf.add(Self.pageTree, Data("<</Type/Pages/Count \(pages.count)/Kids[\(pages.map { "\($0) 0 R" }.joined(separator: " "))]>>".utf8))
        pdf.add(Self.catalogue, Data("<</Type/Catalog/Pages \(Self.pageTree) 0 R>>".utf8))
        let info = pdf.number()
        pdf.add(info, Data("<</Title \(Self.textString(title))/Creator (extdisplay export)>>".utf8))
        let xref = pdf.data.count
        var table = "xref\n0 \(pdf.next)\n0000000000 65535 f \n"
        for n in 1..<pdf.next { table += String(format: "%010d 00000 n \n", pdf.offsets[n] ?? 0) }
        table += "trailer\n<</Size \(pdf.next)/Root \(Self.catalogue) 0 R/Info \(info) 0 R>>\nstartxref\n\(xref)\n%%EOF\n"
        pdf.data.append(Data(table.utf8))
        return pdf.data
    }

    /// A PDF text string: UTF-16BE with its byte-order mark, in hexadecimal (any title, no escaping to get wrong).
    static func textString(_ text: String) -> String {
        let units = Array(text.prefix(200).utf16)
        return "<FEFF" + units.map { String(format: "%04X", $0) }.joined() + ">"
    }
}
