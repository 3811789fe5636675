import Foundation

/// What the headless presenter (the simulator, no compositor) draws for the deck at 1280×720 — the oracle the
/// screenshots are compared with — and a pixel scanner that reads PNGs independently of the code under test
/// (scripts/present-pngscan.py's decoder).
public struct PresentReference: Sendable {
    /// The deck file.
    public let deck: URL
    /// The headless audience PNG of each slide.
    public let slides: [URL]
    /// The notes colour (`rrggbb`): never on an audience view.
    public let notes: String

    /// Writes `text` as a deck and draws its first two slides headless; `notes` is the notes colour.
    public init(deck text: String, notes: String) throws {
        self.notes = notes
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-wl-present-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        deck = folder.appendingPathComponent("deck.md")
        try text.write(to: deck, atomically: true, encoding: .utf8)
        let snapshots = folder.appendingPathComponent("snapshots")
        let result = try runToEnd(try Repository.extdisplay().path, [
            "present", deck.path, "--simulate", "laptop,hdmi-monitor-1080p", "--mode", "1280x720",
            "--snapshot", snapshots.path, "--keys", "next"],
            environment: ["WAYLAND_DISPLAY": nil, "DISPLAY": nil])
        guard result.status == 0 else { throw SupportError("headless present failed: \(result.stderr)") }
        slides = ["000-start", "001-next"].map { snapshots.appendingPathComponent("\($0)-hdmi-monitor-1080p.png") }
    }

    /// How a screenshot compares with the headless view of a slide.
    public struct Comparison: Sendable {
        /// The grid cells ("column,row" of 8×8) whose pixels differ.
        public var differing: [String]
        /// Pixels of the notes colour in the screenshot.
        public var notesPixels: Int
        /// Whether every cell is equal.
        public var matches: Bool { differing.isEmpty }
    }

    private static let script = """
    import importlib.util, sys
    spec = importlib.util.spec_from_file_location("scan", sys.argv[1])
    scan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scan)
    def rgb(path):
        w, h, bpp, rows = scan.read_png(path)
        if bpp == 3:
            return w, h, [bytes(r[:w * 3]) for r in rows]
        out = []
        for r in rows:
            b = bytearray(w * 3)
            b[0::3], b[1::3], b[2::3] = r[0:w * 4:4], r[1:w * 4:4], r[2:w * 4:4]
            out.append(bytes(b))
        return w, h, out
    mode = sys.argv[2]
    w, h, a = rgb(sys.argv[3])
    if mode == "count":
        colour = bytes.fromhex(sys.argv[4])
        print(sum(sum(1 for x in range(w) if row[3 * x:3 * x + 3] == colour) for row in a))
        sys.exit(0)
    w2, h2, b = rgb(sys.argv[4])
    if (w, h) != (w2, h2):
        print(f"size {w}x{h} != {w2}x{h2}")
        sys.exit(0)
    cells = []
    for cy in range(8):
        for cx in range(8):
            x0, x1, y0, y1 = cx * w // 8, (cx + 1) * w // 8, cy * h // 8, (cy + 1) * h // 8
            if any(a[y][3 * x0:3 * x1] != b[y][3 * x0:3 * x1] for y in range(y0, y1)):
                cells.append(f"{cx},{cy}")
    print(" ".join(cells) if cells else "same")
    """

    private func python(_ arguments: [String]) throws -> String {
        let scanner = Repository.root.appendingPathComponent("scripts/present-pngscan.py").path
        let result = try runToEnd("/usr/bin/python3", ["-c", Self.script, scanner] + arguments)
        guard result.status == 0 else { throw SupportError("pixel scan \(arguments) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Pixels of exactly the colour `hex` (`rrggbb`) in a PNG.
    public func count(_ png: URL, hex: String) throws -> Int {
        let text = try python(["count", png.path, hex])
        guard let n = Int(text) else { throw SupportError("pixel count printed \(text)") }
        return n
    }

    /// A screenshot against slide `index`'s headless audience view, in an 8×8 grid of regions.
    public func compare(_ png: URL, slide index: Int) throws -> Comparison {
        let text = try python(["compare", png.path, slides[index].path])
        let differing = text == "same" ? [] : text.split(separator: " ").map(String.init)
        return Comparison(differing: differing, notesPixels: try count(png, hex: notes))
    }

    /// Polls `screenshot` (30 s at most, every 0.2 s) until one equals the headless view of slide `index`; the last
    /// comparison (a compositor maps and draws a new window a few frames after the client asks).
    public func awaitSlide(_ index: Int, in screenshot: () throws -> URL) throws -> Comparison {
        var comparison = try compare(try screenshot(), slide: index)
        _ = try poll(30, every: 0.2) {
            comparison = try compare(try screenshot(), slide: index)
            return comparison.matches
        }
        return comparison
    }
}
