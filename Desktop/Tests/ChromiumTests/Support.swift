import ExtDisplayTestSupport
import Foundation

/// The package root, found from this file's path.
let packageRoot = Repository.root

/// A three-slide deck whose notes are long enough to paint many notes-colour pixels on the console.
func writeDeck() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edk-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let deck = directory.appendingPathComponent("deck.md")
    try """
    # Browsers are displays

    Every page that opens the URL

    Note: SECRET NOTES FOR THE SPEAKER ONLY, NEVER FOR THE AUDIENCE

    ---

    # Second slide

    - a bullet
    - another bullet

    Note: MORE SECRET NOTES ON SLIDE TWO

    ---

    # Third slide

    The end
    """.write(to: deck, atomically: true, encoding: .utf8)
    return deck
}

/// Runs a command and returns its standard output; throws with its error output when it fails.
@discardableResult
func run(_ arguments: [String]) throws -> String {
    let result = try runToEnd(arguments[0], Array(arguments.dropFirst()), environment: ["DISPLAY": nil])
    guard result.status == 0 else {
        throw SupportError("\(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
    }
    return result.stdout
}

/// Counts pixels of colours (RRGGBB) in a PNG, with the project's PNG scanner (an independent decoder).
func countColours(_ png: URL, _ colours: [String], region: String? = nil) throws -> [Int] {
    var arguments = ["/usr/bin/env", "python3", packageRoot.appendingPathComponent("scripts/present-pngscan.py").path]
    if let region { arguments += ["--region", region] }
    arguments += [png.path] + colours
    return try run(arguments).split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
}

/// Compares two PNGs pixel by pixel (RGB; alpha ignored) with the project's independent PNG decoder
/// (scripts/present-pngscan.py): returns the sizes and how many pixels differ by more than `tolerance` in any
/// channel.
func comparePNGs(_ a: URL, _ b: URL, tolerance: Int = 0) throws -> (sizeA: String, sizeB: String, differing: Int) {
    let script = """
    import importlib.util, sys
    spec = importlib.util.spec_from_file_location("scan", sys.argv[1])
    scan = importlib.util.module_from_spec(spec); spec.loader.exec_module(scan)
    wa, ha, ba, ra = scan.read_image(sys.argv[2]); wb, hb, bb, rb = scan.read_image(sys.argv[3])
    tol = int(sys.argv[4]); differing = 0
    if (wa, ha) == (wb, hb):
        for y in range(ha):
            la, lb = ra[y], rb[y]
            for x in range(wa):
                pa, pb = la[x * ba:x * ba + 3], lb[x * bb:x * bb + 3]
                if max(abs(pa[0] - pb[0]), abs(pa[1] - pb[1]), abs(pa[2] - pb[2])) > tol: differing += 1
    else:
        differing = -1
    print(f"{wa}x{ha} {wb}x{hb} {differing}")
    """
    let out = try run(["/usr/bin/env", "python3", "-c", script,
                       packageRoot.appendingPathComponent("scripts/present-pngscan.py").path, a.path, b.path,
                       String(tolerance)]).split(separator: " ").map(String.init)
    guard out.count == 3 else { throw SupportError("PNG comparison printed \(out)") }
    return (out[0], out[1], Int(out[2].trimmingCharacters(in: .whitespacesAndNewlines)) ?? -2)
}

/// Writes data to a temporary file and returns its URL.
func temporaryFile(_ data: Data, _ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("edk-\(UUID().uuidString)-\(name)")
    try data.write(to: url)
    return url
}
