import Foundation

/// A rendered PDF page in memory: RGBA, 8 bits per channel, rows top to bottom.
public struct PageRaster: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes.
    public var rgba: [UInt8]

    /// Bytes held.
    public var byteCount: Int { rgba.count }

    /// Decodes a binary PPM (`P6`, maxval 255) as `pdftoppm` writes it; nil when it is not one.
    public static func decodePPM(_ data: Data) -> PageRaster? {
        let bytes = [UInt8](data)
        var i = 0
        func token() -> Int? {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                } else if bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                    i += 1
                } else { break }
            }
            var value = 0, digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 9 {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
        i = 2
        guard let w = token(), let h = token(), let maxval = token(), maxval == 255, w > 0, h > 0,
              w <= 16_384, h <= 16_384 else { return nil }
        i += 1 // the single whitespace after maxval
        let count = w * h
        guard bytes.count - i >= count * 3 else { return nil }
        var rgba = [UInt8](repeating: 255, count: count * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { src in
                var s = i
                for p in 0..<count {
                    out[p * 4] = src[s]
                    out[p * 4 + 1] = src[s + 1]
                    out[p * 4 + 2] = src[s + 2]
                    s += 3
                }
            }
        }
        return PageRaster(width: w, height: h, rgba: rgba)
    }
}

/// Renders a part of a PDF page at a pixel size with poppler's `pdftoppm`, in a separate process (poppler is
/// GPL; nothing of it links into the library).
public enum PopplerRasterizer {
    /// Why a page could not be rendered.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The page's `part` rendered to exactly `width`×`height` pixels (the part's aspect should match).
    public static func render(_ page: PDFPage, width: Int, height: Int) throws(Failure) -> PageRaster {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw Failure(description: "cannot render page \(page.index + 1) at \(width)×\(height)")
        }
        let f = page.part.fraction
        // Render the whole page so that the part comes out at the wanted size, then crop to the part.
        let fullW = Int((Double(width) / f.width).rounded()), fullH = Int((Double(height) / f.height).rounded())
        var arguments = ["-f", String(page.index + 1), "-l", String(page.index + 1), "-singlefile",
                         "-scale-to-x", String(fullW), "-scale-to-y", String(fullH)]
        if page.part != .whole {
            arguments += ["-x", String(Int((Double(fullW) * f.x).rounded())), "-y", String(Int((Double(fullH) * f.y).rounded())),
                          "-W", String(width), "-H", String(height)]
        }
        arguments.append(page.document.path)
        let result: ToolProcess.Result
        do { result = try ToolProcess.run("pdftoppm", arguments, timeout: 60) } catch {
            throw Failure(description: error.description)
        }
        if result.status == 127 { throw Failure(description: "pdftoppm is missing: install poppler-utils") }
        if result.timedOut { throw Failure(description: "pdftoppm took over 60 s on page \(page.index + 1)") }
        guard result.status == 0, let raster = PageRaster.decodePPM(result.output) else {
            let line = result.errors.split(separator: "\n").first.map(String.init) ?? "exit \(result.status)"
            throw Failure(description: "page \(page.index + 1) could not be rendered (pdftoppm: \(line))")
        }
        return raster
    }
}
