// The benchmark's deck: a PDF written from scratch, one solid colour per page with its number in large white
// Helvetica, so the screen reader can tell every page from its neighbours by one pixel.
import Foundation

/// A 16:9 PDF whose pages differ by colour.
struct BenchDeck {
    /// Page count.
    let pages: Int
    /// The page size in points (16:9).
    static let width = 960, height = 540

    /// The colour of page `index` (0-based): 60 colours from four levels per channel, never grey, with a stride
    /// of 37 so neighbours differ in more than one channel.
    static func colour(ofPage index: Int) -> (r: Int, g: Int, b: Int) {
        let levels = [0x30, 0x70, 0xB0, 0xF0]
        var colours: [(Int, Int, Int)] = []
        for r in levels { for g in levels { for b in levels where !(r == g && g == b) { colours.append((r, g, b)) } } }
        let c = colours[(index * 37) % colours.count]
        return (c.0, c.1, c.2)
    }

    /// The page (0-based) whose colour `pixel` is within 12 per channel of, or nil (a border, black, a half-drawn
    /// frame).
    func page(of pixel: (r: Int, g: Int, b: Int)) -> Int? {
        (0..<pages).first { i in
            let c = Self.colour(ofPage: i)
            return abs(c.r - pixel.r) <= 12 && abs(c.g - pixel.g) <= 12 && abs(c.b - pixel.b) <= 12
        }
    }

    /// The PDF file's bytes.
    func pdf() -> Data {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>",
                       "<< /Type /Pages /Kids [" + (0..<pages).map { "\(4 + 2 * $0) 0 R" }.joined(separator: " ")
                           + "] /Count \(pages) >>",
                       "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
        for i in 0..<pages {
            let c = Self.colour(ofPage: i)
            func unit(_ v: Int) -> String { String(format: "%.4f", Double(v) / 255) }
            let content = "\(unit(c.r)) \(unit(c.g)) \(unit(c.b)) rg 0 0 \(Self.width) \(Self.height) re f\n"
                + "1 1 1 rg BT /F1 200 Tf 330 170 Td (\(i + 1)) Tj ET"
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(Self.width) \(Self.height)] "
                           + "/Resources << /Font << /F1 3 0 R >> >> /Contents \(5 + 2 * i) 0 R >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        out += offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }
}
