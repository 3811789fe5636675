import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import ExtDisplayTestSupport
import Foundation
import Testing

/// An independent renderer of text for the tests: Pango (pango-view from Debian's pango1.0-tools), which does
/// its own font fallback, shaping and bidi ordering. Nothing here shares code with the canvas under test; the
/// comparisons below work on ink (lit pixels) only, so the two renderers' placement on the page does not matter.
enum TextOracle {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `text` drawn by pango-view in `family` at `size` pixels, white on black, no margin.
    static func pango(_ text: String, family: String, size: Int, rightToLeft: Bool = false) throws -> Bitmap {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("edk-pango-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = ["pango-view", "-q", "--pixels", "--font=\(family) \(size)", "--margin=0",
                         "--background=black", "--foreground=white", "-t", text, "-o", out.path] + (rightToLeft ? ["--rtl"] : [])
        let result: CommandResult
        do { result = try runToEnd("/usr/bin/env", arguments) } catch {
            throw Failure(description: "pango-view could not run (\(error)): install pango1.0-tools (scripts/install-deps.sh)")
        }
        guard result.status == 0 else {
            throw Failure(description: "pango-view failed (\(result.status)): \(result.stderr); install pango1.0-tools")
        }
        return try Bitmap(contentsOf: out)
    }
}

/// The lit pixels of a white-on-black (or colour-on-black) picture, cropped to their bounding box.
struct Ink: CustomStringConvertible {
    /// Brightness 0…1 of each pixel inside the box, row by row.
    let values: [Double]
    let width: Int
    let height: Int
    /// The box's position in the picture.
    let left: Int, top: Int
    /// Pixels whose colour is far from grey (colour emoji), inside the box.
    let colouredPixels: Int

    init?(_ bitmap: Bitmap, region: Rect? = nil, threshold: Int = 60) {
        let area = region ?? Rect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in area.y..<min(bitmap.height, area.y + area.height) {
            for x in area.x..<min(bitmap.width, area.x + area.width) {
                let c = bitmap.pixel(x: x, y: y)
                if Int(max(c.red, c.green, c.blue)) > threshold {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= 0 else { return nil }
        width = maxX - minX + 1
        height = maxY - minY + 1
        left = minX
        top = minY
        var values: [Double] = []
        var coloured = 0
        for y in minY...maxY {
            for x in minX...maxX {
                let c = bitmap.pixel(x: x, y: y)
                let hi = max(c.red, c.green, c.blue), lo = min(c.red, c.green, c.blue)
                values.append(Double(hi) / 255)
                if Int(hi) - Int(lo) > 60 { coloured += 1 }
            }
        }
        self.values = values
        colouredPixels = coloured
    }

    var description: String { "ink \(width)×\(height) at (\(left), \(top))" }

    /// Ink per column, resampled to `bins` columns: the left-to-right shape of the text.
    func columnProfile(bins: Int = 96) -> [Double] {
        var columns = [Double](repeating: 0, count: width)
        for y in 0..<height { for x in 0..<width { columns[x] += values[y * width + x] } }
        return (0..<bins).map { b in
            let from = b * width / bins, to = max(from + 1, (b + 1) * width / bins)
            return columns[from..<min(to, width)].reduce(0, +) / Double(to - from)
        }
    }

    /// The box resampled to a `columns` × `rows` grid of mean brightness: the glyph image at a common size.
    func grid(columns: Int = 48, rows: Int = 12) -> [Double] {
        var cells = [Double](repeating: 0, count: columns * rows)
        var counts = [Double](repeating: 0, count: columns * rows)
        for y in 0..<height {
            for x in 0..<width {
                let cell = (y * rows / height) * columns + x * columns / width
                cells[cell] += values[y * width + x]
                counts[cell] += 1
            }
        }
        return zip(cells, counts).map { $1 > 0 ? $0 / $1 : 0 }
    }
}

/// The ink of `bitmap`, or a failure naming what drew nothing.
func ink(_ bitmap: Bitmap, _ what: String) throws -> Ink {
    guard let found = Ink(bitmap) else { throw TextOracle.Failure(description: "\(what) drew nothing") }
    return found
}

/// Pearson correlation of two equally long series (1: same shape, 0: unrelated, -1: opposite).
func correlation(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(min(a.count, b.count))
    guard n > 1 else { return 0 }
    let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
    var num = 0.0, da = 0.0, db = 0.0
    for (x, y) in zip(a, b) {
        num += (x - ma) * (y - mb)
        da += (x - ma) * (x - ma)
        db += (y - mb) * (y - mb)
    }
    return da > 0 && db > 0 ? num / (da * db).squareRoot() : 0
}

/// `text` drawn by the canvas under test, white on black, with room around it.
func canvasText(_ text: String, font: CanvasFont) throws -> (Bitmap, PixelSize) {
    let canvas = try Canvas(width: 40 + font.size * (text.count + 2), height: font.size * 3)
    canvas.clear(.black)
    let drawn = try canvas.text(text, x: 20, y: font.size / 2, font: font, color: .white)
    return (canvas.readPixels(), drawn)
}
