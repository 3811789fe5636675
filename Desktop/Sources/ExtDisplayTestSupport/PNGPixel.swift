import Foundation

/// One pixel of a PNG screenshot, read with scripts/present-pngscan.py's decoder (Python's zlib; independent of
/// the code under test).
public enum PNGPixel {
    private static let script = """
    import importlib.util, sys
    spec = importlib.util.spec_from_file_location("scan", sys.argv[1])
    scan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scan)
    w, h, bpp, rows = scan.read_png(sys.argv[2])
    x, y = int(sys.argv[3]), int(sys.argv[4])
    if not (0 <= x < w and 0 <= y < h):
        sys.exit(f"({x},{y}) is outside the {w}x{h} image")
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
}
