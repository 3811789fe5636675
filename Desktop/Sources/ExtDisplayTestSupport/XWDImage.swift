import Foundation

/// A window dump (XWD, ZPixmap, 24 or 32 bits per pixel: ``RootCapture``'s) read here for pixel comparisons, independent
/// of the code under test's own raster code.
public struct XWDImage: Sendable {
    /// The dump's size in pixels.
    public let width: Int, height: Int
    private let bytes: [UInt8]
    private let offset: Int, bytesPerLine: Int, step: Int, lsbFirst: Bool

    /// Reads the dump in the file at `url`.
    public init(_ url: URL) throws {
        try self.init(bytes: [UInt8](try Data(contentsOf: url)), source: url.path)
    }

    /// Reads a dump from its bytes; `source` names it in the error.
    public init(bytes data: [UInt8], source: String = "the window dump") throws {
        func field(_ i: Int) -> Int {
            guard data.count >= 4 * i + 4 else { return 0 }
            return data[(4 * i)..<(4 * i + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        bytes = data
        width = field(4)
        height = field(5)
        lsbFirst = field(7) == 0
        step = field(11) / 8
        bytesPerLine = field(12)
        offset = field(0) + field(19) * 12
        guard step == 3 || step == 4, bytesPerLine >= width * step, width > 0, height > 0,
              bytes.count >= offset + bytesPerLine * height else {
            throw XorgTestError("\(source) is not a 24/32-bit window dump this reader understands "
                                + "(\(data.count) bytes, header \(data.count > 100 ? (0..<25).map(field) : []))")
        }
    }

    /// The pixel at (x, y) as (r, g, b); (x, y) must be inside the dump.
    public func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let o = offset + y * bytesPerLine + x * step
        if lsbFirst { return (Int(bytes[o + 2]), Int(bytes[o + 1]), Int(bytes[o])) }
        let lead = step - 3
        return (Int(bytes[o + lead]), Int(bytes[o + lead + 1]), Int(bytes[o + lead + 2]))
    }

    /// The pixel at (x, y) as 0xRRGGBB; 0xFFFFFFFF (no colour) outside the dump, so a region past the root
    /// window's edge can never pass for a pixel of any colour.
    public func pixel(x: Int, y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0xFFFF_FFFF }
        let (r, g, b) = pixel(x, y)
        return UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    /// The bounds of the non-black pixels inside (x, y, w, h), or nil.
    public func nonBlackBounds(x: Int, y: Int, width w: Int, height h: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for py in y..<min(y + h, height) {
            for px in x..<min(x + w, width) {
                let p = pixel(px, py)
                guard p.0 + p.1 + p.2 > 24 else { continue }
                minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// Compares the box at (x, y) against `reference` (same size) cell by cell on a `columns`×`rows` grid:
    /// each cell's per-channel median must be within `tolerance`. Returns the cells that differ.
    public func differences(x: Int, y: Int, against reference: (width: Int, height: Int, pixel: (Int, Int) -> (Int, Int, Int)),
                            columns: Int = 32, rows: Int = 18, tolerance: Int = 12) -> [String] {
        var out: [String] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let x0 = reference.width * column / columns, x1 = reference.width * (column + 1) / columns
                let y0 = reference.height * row / rows, y1 = reference.height * (row + 1) / rows
                var ours: [[Int]] = [[], [], []], theirs: [[Int]] = [[], [], []]
                for py in stride(from: y0, to: y1, by: 2) {
                    for px in stride(from: x0, to: x1, by: 2) {
                        let a = pixel(x + px, y + py), b = reference.pixel(px, py)
                        ours[0].append(a.0); ours[1].append(a.1); ours[2].append(a.2)
                        theirs[0].append(b.0); theirs[1].append(b.1); theirs[2].append(b.2)
                    }
                }
                guard !ours[0].isEmpty else { continue }
                let a = ours.map { $0.sorted()[$0.count / 2] }, b = theirs.map { $0.sorted()[$0.count / 2] }
                if zip(a, b).contains(where: { abs($0 - $1) > tolerance }) {
                    out.append("cell \(column),\(row): ours \(a) vs mutool \(b)")
                }
            }
        }
        return out
    }
}
