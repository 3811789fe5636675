import Foundation

/// Writes small PDFs by hand for the tests: each page a set of solid rectangles (known regions to check
/// rendered pixels against), written from scratch here, not by the code under test.
public enum MiniPDF {
    /// A solid rectangle in PDF points (origin bottom-left) and an RGB colour 0…255.
    public struct Box: Sendable {
        public var x: Double, y: Double, width: Double, height: Double
        public var r: Int, g: Int, b: Int

        /// A rectangle at (x, y), `width`×`height` points, in colour (r, g, b).
        public init(x: Double, y: Double, width: Double, height: Double, r: Int, g: Int, b: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
            self.r = r; self.g = g; self.b = b
        }
    }

    /// The bytes of a PDF with one page per entry of `pages`, each `width`×`height` points. `catalogExtra` is
    /// added to the catalog (e.g. `/PageLabels`), and `extraObjects` are written after the pages, numbered
    /// from ``firstExtraObject(pageCount:)``.
    public static func data(pages: [[Box]], width: Double, height: Double, trailerExtra: String = "",
                     catalogExtra: String = "", extraObjects: [String] = []) -> Data {
        var objects: [String] = []
        let kids = pages.indices.map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Catalog /Pages 2 0 R \(catalogExtra)>>")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>")
        for (i, boxes) in pages.enumerated() {
            let content = boxes.map { b in
                String(format: "%.4f %.4f %.4f rg %.2f %.2f %.2f %.2f re f",
                       Double(b.r) / 255, Double(b.g) / 255, Double(b.b) / 255, b.x, b.y, b.width, b.height)
            }.joined(separator: "\n")
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Contents \(4 + 2 * i) 0 R >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        objects += extraObjects
        return assemble(objects, trailerExtra: trailerExtra)
    }

    /// A PDF file of `objects` (object 1 the catalog): header, objects, cross-reference table, trailer, %%EOF.
    public static func assemble(_ objects: [String], trailerExtra: String = "") -> Data {
        var out = Data("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(out.count)
            out.append(Data("\(i + 1) 0 obj\n\(object)\nendobj\n".utf8))
        }
        let xref = out.count
        var table = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { table += String(format: "%010d 00000 n \n", offset) }
        table += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R \(trailerExtra)>>\nstartxref\n\(xref)\n%%EOF\n"
        out.append(Data(table.utf8))
        return out
    }

    /// A small PDF whose pages take pdftoppm many minutes each: every page draws a form that draws the next
    /// `fanout` times, `depth` forms deep (12 ^ 7 ≈ 36 million rectangles a page with the defaults), in a few
    /// kilobytes.
    public static func nestedForms(pages: Int = 3, depth: Int = 8, fanout: Int = 12) -> Data {
        // 1 catalog, 2 pages, then each page and its content, then the forms.
        let firstForm = 3 + 2 * pages
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>",
                       "<< /Type /Pages /Kids [\((0..<pages).map { "\(3 + 2 * $0) 0 R" }.joined(separator: " "))] /Count \(pages) >>"]
        for page in 0..<pages {
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 800 600] /Contents \(4 + 2 * page) 0 R "
                           + "/Resources << /XObject << /F \(firstForm) 0 R >> >> >>")
            objects.append("<< /Length 5 >>\nstream\n/F Do\nendstream")
        }
        for level in 0..<depth {
            let last = level == depth - 1
            let body = last ? "0.5 0 0 rg 0 0 10 10 re f"
                : (0..<fanout).map { "q 1 0 0 1 \($0) \($0) cm /F Do Q" }.joined(separator: " ")
            let resources = last ? "" : "/Resources << /XObject << /F \(firstForm + level + 1) 0 R >> >> "
            objects.append("<< /Type /XObject /Subtype /Form /BBox [0 0 800 600] \(resources)/Length \(body.utf8.count) >>"
                           + "\nstream\n\(body)\nendstream")
        }
        return assemble(objects)
    }

    /// A PDF of `count` identical 400×300 pages sharing one content stream (100,000 pages: 12 MB).
    public static func manyPages(_ count: Int) -> Data {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>",
                       "<< /Type /Pages /Kids [\((0..<count).map { "\(4 + $0) 0 R" }.joined(separator: " "))] /Count \(count) >>"]
        let content = "0.2 0.4 0.8 rg 0 0 400 300 re f"
        objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        objects += [String](repeating: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Contents 3 0 R >>", count: count)
        return assemble(objects)
    }

    /// The object number of the first of `extraObjects` in a PDF of `pageCount` pages.
    public static func firstExtraObject(pageCount: Int) -> Int { 3 + 2 * pageCount }

    /// Writes `data` into a fresh temporary folder under `name`.
    public static func write(_ data: Data, name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("minipdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// A page in four solid quadrants (red, green, blue, yellow from top-left, clockwise) — a 4:3 page.
    public static func quadrants(width: Double = 800, height: Double = 600) -> [Box] {
        let w = width / 2, h = height / 2
        return [Box(x: 0, y: h, width: w, height: h, r: 220, g: 30, b: 30),
                Box(x: w, y: h, width: w, height: h, r: 30, g: 200, b: 40),
                Box(x: w, y: 0, width: w, height: h, r: 30, g: 40, b: 210),
                Box(x: 0, y: 0, width: w, height: h, r: 240, g: 220, b: 20)]
    }

    /// A full page of one colour.
    public static func solid(_ r: Int, _ g: Int, _ b: Int, width: Double, height: Double) -> [Box] {
        [Box(x: 0, y: 0, width: width, height: height, r: r, g: g, b: b)]
    }
}
