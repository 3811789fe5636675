import Foundation

/// MuPDF (`mutool draw`, from mupdf-tools) as an independent renderer of PDF pages, for pixel comparisons with
/// the presenter's own rendering.
public enum MuPDF {
    /// A page rendered by MuPDF, exactly `width`×`height` (`-f`), read from its PNM output here.
    public static func draw(_ url: URL, page: Int, width: Int, height: Int) throws -> (width: Int, height: Int, pixel: (Int, Int) -> (Int, Int, Int)) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mutool-\(UUID().uuidString).pnm")
        let run = try Shell.run(["mutool", "draw", "-q", "-f", "-c", "rgb", "-w", "\(width)", "-h", "\(height)", "-F", "pnm",
                                 "-o", out.path, url.path, "\(page)"])
        guard run.status == 0 else { throw XorgTestError("mutool draw failed: \(run.output)") }
        let bytes = [UInt8](try Data(contentsOf: out))
        // "P6\n<w> <h>\n255\n" then RGB triples.
        guard bytes.starts(with: Array("P6".utf8)) else { throw XorgTestError("mutool did not write an RGB PNM") }
        var fields: [Int] = [], i = 2, current = ""
        while fields.count < 3 && i < bytes.count {
            let c = Character(UnicodeScalar(bytes[i]))
            if c.isNumber { current.append(c) } else if !current.isEmpty { fields.append(Int(current)!); current = "" }
            i += 1
        }
        let (w, h) = (fields[0], fields[1]), start = i
        return (w, h, { x, y in
            let o = start + (y * w + x) * 3
            return (Int(bytes[o]), Int(bytes[o + 1]), Int(bytes[o + 2]))
        })
    }
}
