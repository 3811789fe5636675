import ExtDisplayTestSupport
import Foundation
import Testing

/// Zoom renders only the region the room sees: a headless `present --simulate` snapshot of a zoomed PDF page is
/// compared with poppler's own rendering of that region (`pdftoppm -r DPI -x -y -W -H`, its crop computed here
/// from the page size, the display size and the zoom keys' documented rule), and its fine detail is crisp.
@Suite("Zoom renders the visible region of a PDF page")
struct ZoomRegionTests {
    /// The page: 960×540 pt (16:9), so on a 1920×1080 monitor without overscan the slide fills the display at
    /// 2 px per point.
    static let pageWidth = 960.0, pageHeight = 540.0
    static let display = (name: "hdmi-monitor-1080p", width: 1920, height: 1080)

    /// A white page with a grid of 0.3 pt black lines (every 24 pt, from 7 pt), coloured blocks, a black
    /// quadrilateral whose left edge leans (480 → 486 pt over 70 pt; poppler snaps the edges of upright rectangles
    /// to pixels, not slanted ones), and a 0.3 pt diagonal stroke. In PDF coordinates (origin bottom-left).
    static func pdf() -> Data {
        var boxes = MiniPDF.solid(255, 255, 255, width: pageWidth, height: pageHeight)
        for x in stride(from: 7.0, to: pageWidth, by: 24) {
            boxes.append(MiniPDF.Box(x: x, y: 0, width: 0.3, height: pageHeight, r: 0, g: 0, b: 0))
        }
        for y in stride(from: 7.0, to: pageHeight, by: 24) {
            boxes.append(MiniPDF.Box(x: 0, y: y, width: pageWidth, height: 0.3, r: 0, g: 0, b: 0))
        }
        boxes.append(MiniPDF.Box(x: 380, y: 540 - 260, width: 60, height: 50, r: 220, g: 40, b: 40))
        boxes.append(MiniPDF.Box(x: 600, y: 540 - 320, width: 100, height: 60, r: 40, g: 60, b: 220))
        boxes.append(MiniPDF.Box(x: 300, y: 540 - 230, width: 50, height: 20, r: 40, g: 180, b: 60))
        var content = boxes.map { b in
            String(format: "%.4f %.4f %.4f rg %.2f %.2f %.2f %.2f re f", Double(b.r) / 255, Double(b.g) / 255,
                   Double(b.b) / 255, b.x, b.y, b.width, b.height)
        }
        // The quadrilateral: top-down corners (480, 230), (560, 230), (560, 300), (486, 300).
        content.append("0 0 0 rg 480 310 m 560 310 l 560 240 l 486 240 l h f")
        // The diagonal: top-down from (380, 280) to (440, 330).
        content.append("0 0 0 RG 0.3 w 380 260 m 440 210 l S")
        let stream = content.joined(separator: "\n")
        return MiniPDF.assemble([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(pageWidth) \(pageHeight)] /Contents 4 0 R >>",
            "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
        ])
    }

    static func tool(_ arguments: [String], in dir: URL) throws -> CommandResult {
        try runToEnd("/usr/bin/timeout", ["-s", "KILL", "120"] + arguments, directory: dir)
    }

    /// The snapshots of the audience display after each of `keys`, in order.
    static func zoomedSnapshots(_ keys: [String], in dir: URL) throws -> [URL] {
        try pdf().write(to: dir.appendingPathComponent("detail.pdf"))
        let run = try runToEnd("/usr/bin/timeout", ["-s", "KILL", "120", try Repository.extdisplay().path, "present",
                                                    "detail.pdf", "--simulate", "laptop,\(display.name)",
                                                    "--snapshot", "shots", "--keys", keys.joined(separator: ",")],
                               environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], directory: dir)
        try #require(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("shots").path)
        return try keys.indices.map { i in
            let prefix = String(format: "%03d-", i + 1)
            let name = try #require(names.first { $0.hasPrefix(prefix) && $0.hasSuffix("-\(display.name).png") },
                                    "no snapshot \(prefix)…-\(display.name).png among \(names.sorted())")
            return dir.appendingPathComponent("shots").appendingPathComponent(name)
        }
    }

    /// pdftoppm's own rendering of the zoom rectangle (left, top in fractions of the page; `scale` times the
    /// display's size), as a PNG: at `-r` 72 × 2 × scale dpi the page is 1920·scale pixels wide, and the crop is
    /// the display's size at the rectangle's corner.
    static func expected(scale: Double, left: Double, top: Double, in dir: URL) throws -> URL {
        let dpi = 72 * Double(display.width) / pageWidth * scale
        let x = Int((left * pageWidth * dpi / 72).rounded()), y = Int((top * pageHeight * dpi / 72).rounded())
        let base = dir.appendingPathComponent("expected-\(scale)-\(x)-\(y)")
        let result = try tool(["pdftoppm", "-cropbox", "-r", String(dpi), "-x", String(x), "-y", String(y),
                               "-W", String(display.width), "-H", String(display.height), "-png", "-singlefile",
                               dir.appendingPathComponent("detail.pdf").path, base.path], in: dir)
        try #require(result.status == 0, "pdftoppm: \(result.stderr)")
        return base.appendingPathExtension("png")
    }

    /// The mean and the 99th percentile of the per-channel absolute differences of two PNGs of one size (read
    /// with scripts/present-pngscan.py's decoder and numpy).
    static func difference(_ a: URL, _ b: URL, in dir: URL) throws -> (mean: Double, p99: Double) {
        let script = """
        import importlib.util, sys
        import numpy as np
        spec = importlib.util.spec_from_file_location("scan", sys.argv[1])
        scan = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(scan)
        def load(path):
            w, h, bpp, rows = scan.read_png(path)
            return np.frombuffer(b"".join(bytes(r) for r in rows), dtype=np.uint8).reshape(h, w, bpp)[:, :, :3].astype(int)
        a, b = load(sys.argv[2]), load(sys.argv[3])
        if a.shape != b.shape:
            sys.exit(f"sizes differ: {a.shape} and {b.shape}")
        d = np.abs(a - b)
        print(d.mean(), np.percentile(d, 99))
        """
        let scanner = Repository.root.appendingPathComponent("scripts/present-pngscan.py").path
        let result = try tool(["/usr/bin/python3", "-c", script, scanner, a.path, b.path], in: dir)
        let values = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        try #require(result.status == 0 && values.count == 2, "comparing: \(result.stderr)")
        return (values[0], values[1])
    }

    /// One row of a PNG's grey values (the red channel) from x0 to x1.
    static func row(_ png: URL, y: Int, from x0: Int, to x1: Int, in dir: URL) throws -> [Int] {
        let script = """
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("scan", sys.argv[1])
        scan = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(scan)
        w, h, bpp, rows = scan.read_png(sys.argv[2])
        y, x0, x1 = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        print(" ".join(str(rows[y][bpp * x]) for x in range(x0, x1)))
        """
        let scanner = Repository.root.appendingPathComponent("scripts/present-pngscan.py").path
        let result = try tool(["/usr/bin/python3", "-c", script, scanner, png.path, String(y), String(x0), String(x1)],
                              in: dir)
        try #require(result.status == 0, "reading a row: \(result.stderr)")
        return result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zoom-region-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("2×, 4× and a panned 4× region equal pdftoppm's rendering of that region, and fine detail stays crisp")
    func zoomedRegionsArePopplersOwnPixels() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Without a pointer, Z zooms around the region's centre (the slide's at first), twice as large each time;
        // Ctrl-Right moves the region by a quarter of its width.
        let shots = try Self.zoomedSnapshots(["zoom-in", "zoom-in", "pan-right"], in: dir)
        let cases: [(scale: Double, left: Double, top: Double)] = [
            (2, 0.5 - 0.25, 0.5 - 0.25),
            (4, 0.5 - 0.125, 0.5 - 0.125),
            (4, 0.5 + 0.25 / 4 - 0.125, 0.5 - 0.125),
        ]
        for (shot, zoom) in zip(shots, cases) {
            let reference = try Self.expected(scale: zoom.scale, left: zoom.left, top: zoom.top, in: dir)
            let d = try Self.difference(shot, reference, in: dir)
            #expect(d.mean < 1.5 && d.p99 <= 16, "\(shot.lastPathComponent) against pdftoppm \(zoom): \(d)")
        }
        // The unzoomed page is not what the zoomed snapshot shows (the comparison can tell regions apart).
        let whole = try Self.expected(scale: 1, left: 0, top: 0, in: dir)
        let apart = try Self.difference(shots[1], whole, in: dir)
        #expect(apart.mean > 10, "the 4× snapshot looks like the whole page: \(apart)")
        let panned = try Self.difference(shots[1], shots[2], in: dir)
        #expect(panned.mean > 10, "panning did not change the picture: \(panned)")

        // At 4× (8 px per point; the region's left at 360 pt, its top at 202.5 pt): the quadrilateral's leaning
        // edge goes from white to black within 2 pixels on every row (at 1×, 2 px per point, its edge pixels are
        // grey, and enlarged 4× they would be 4 grey pixels wide).
        var widest = 0
        for top in stride(from: 240.0, through: 290, by: 2.5) {
            let y = Int(((top - 202.5) * 8).rounded())
            let edgeX = Int(((480 + 6 * (top - 230) / 70 - 360) * 8).rounded())
            let row = try Self.row(shots[1], y: y, from: edgeX - 20, to: edgeX + 20, in: dir)
            #expect(row.count == 40 && row.prefix(8).allSatisfy { $0 > 215 } && row.suffix(8).allSatisfy { $0 < 40 },
                    "row \(y) across the edge at \(edgeX): \(row)")
            widest = max(widest, row.filter { $0 > 40 && $0 < 215 }.count)
        }
        #expect(widest <= 2, "an edge pixel row had \(widest) grey pixels: enlarged pixels")
    }
}
