import Foundation

/// One pixel of a PNG screenshot, read with scripts/present-pngscan.py's decoder (Python's zlib; independent of
/// the code under test).
public enum PNGPixel {
    /// Loads the scanner (argv 1) and reads the PNG (argv 2) into `w, h, bpp, rows`.
    private static let reader = """
    import importlib.util, sys
    spec = importlib.util.spec_from_file_location("scan", sys.argv[1])
    scan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scan)
    w, h, bpp, rows = scan.read_png(sys.argv[2])

    """

    /// Reads the point (argv 3, 4) into `x, y`, refused outside the image.
    private static let point = reader + """
    x, y = int(sys.argv[3]), int(sys.argv[4])
    if not (0 <= x < w and 0 <= y < h):
        sys.exit(f"({x},{y}) is outside the {w}x{h} image")

    """

    private static let script = point + """
    print(" ".join(str(v) for v in rows[y][bpp * x:bpp * x + 3]))
    """

    /// The red, green and blue of the pixel at (x, y) of `png`; throws when the file is no 8-bit RGB(A) PNG or the
    /// point is outside it.
    public static func at(_ png: URL, x: Int, y: Int) throws -> (UInt8, UInt8, UInt8) {
        let scanner = Repository.root.appendingPathComponent("scripts/present-pngscan.py").path
        let result = try runToEnd("/usr/bin/python3", ["-c", script, scanner, png.path, String(x), String(y)])
        let values = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0) }
        guard result.status == 0, values.count == 3 else {
            throw SupportError("reading pixel (\(x),\(y)) of \(png.path) failed: \(result.stderr)")
        }
        return (values[0], values[1], values[2])
    }

    private static let alphaScript = point + """
    print(rows[y][bpp * x + 3] if bpp == 4 else 255)
    """

    /// The alpha of the pixel at (x, y) of `png` (255 when it has no alpha channel): a compositor's window
    /// recording leaves what is not the window transparent.
    public static func alpha(_ png: URL, x: Int, y: Int) throws -> UInt8 {
        let scanner = Repository.root.appendingPathComponent("scripts/present-pngscan.py").path
        let result = try runToEnd("/usr/bin/python3", ["-c", alphaScript, scanner, png.path, String(x), String(y)])
        guard result.status == 0, let value = UInt8(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SupportError("reading the alpha at (\(x),\(y)) of \(png.path) failed: \(result.stderr)")
        }
        return value
    }

    private static let counter = reader + """
    r, g, b, t = (int(v) for v in sys.argv[3:7])
    n = 0
    for row in rows:
        for x in range(0, w * bpp, bpp):
            if abs(row[x] - r) <= t and abs(row[x + 1] - g) <= t and abs(row[x + 2] - b) <= t:
                n += 1
    print(n)
    """

    /// How many pixels of `png` are within `tolerance` of (r, g, b) in every channel.
    public static func count(_ png: URL, _ r: UInt8, _ g: UInt8, _ b: UInt8, tolerance: Int = 8) throws -> Int {
        let scanner = Repository.root.appendingPathComponent("scripts/present-pngscan.py").path
        let result = try runToEnd("/usr/bin/python3", ["-c", counter, scanner, png.path, String(r), String(g), String(b),
                                                       String(tolerance)])
        guard result.status == 0, let n = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SupportError("counting pixels of \(png.path) failed: \(result.stderr)")
        }
        return n
    }
}
