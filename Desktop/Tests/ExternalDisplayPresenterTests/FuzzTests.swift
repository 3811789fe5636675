#if canImport(CSDL2)
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import ExternalDisplayTesting
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Fuzzes the deck, image and key parsers with random and mutated inputs: none may trap, hang or blow the
/// memory ceiling, and what they accept must respect their documented limits. A detector, not a speed test.
///
/// `EXTDISPLAY_FUZZ_COUNT` sets inputs per parser (default 5,000: about 15 s in debug);
/// `EXTDISPLAY_FUZZ_SEED` replays a run. The seed is printed first, and a failing input is printed with its
/// own seed, runnable as `EXTDISPLAY_FUZZ_SEED=S EXTDISPLAY_FUZZ_ONE=I swift test --filter FuzzTests`; a trap ends
/// the process, so replay the seed with `EXTDISPLAY_FUZZ_VERBOSE=1` to see the input it stopped at.
@Suite("Fuzz: deck, image and key parsers", .serialized)
struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let count = Int(environment["EXTDISPLAY_FUZZ_COUNT"] ?? "") ?? 5_000
    static let seed = UInt64(environment["EXTDISPLAY_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64(UInt32.max))
    static let only = Int(environment["EXTDISPLAY_FUZZ_ONE"] ?? "")
    static let verbose = environment["EXTDISPLAY_FUZZ_VERBOSE"] == "1"
    /// Per input: at most 20 s (hang guard) and at most 1 GiB of peak resident memory above the start.
    static let hangSeconds = 20.0
    static let memoryCeiling = 1 << 30

    /// Runs `body` on inputs 0..<count (or just `EXTDISPLAY_FUZZ_ONE`), each with a generator seeded from the
    /// run seed and its index, under the hang guard and the memory ceiling.
    func fuzz(_ parser: String, _ body: (inout FuzzRandom, Int) throws -> Void) rethrows {
        print("fuzz \(parser): seed \(Self.seed), \(Self.count) inputs (EXTDISPLAY_FUZZ_SEED=\(Self.seed) to replay)")
        let baseline = Self.peakResident()
        let indices = Self.only.map { [$0] } ?? Array(0..<Self.count)
        for index in indices {
            var random = FuzzRandom(seed: Self.seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            // A trap ends the process before any report: EXTDISPLAY_FUZZ_VERBOSE=1 names each input as it starts.
            if Self.verbose { print("fuzz \(parser): input \(index)") }
            let reproducer = "fuzz \(parser): input \(index) hung; replay with EXTDISPLAY_FUZZ_SEED=\(Self.seed) "
                + "EXTDISPLAY_FUZZ_ONE=\(index)"
            let guardian = HangGuard(seconds: Self.hangSeconds, reproducer: reproducer)
            try body(&random, index)
            guardian.cancel()
            let grown = Self.peakResident() - baseline
            if grown > Self.memoryCeiling {
                let message = "fuzz \(parser): input \(index) took the peak memory \(grown >> 20) MiB above the start; "
                    + "replay with EXTDISPLAY_FUZZ_SEED=\(Self.seed) EXTDISPLAY_FUZZ_ONE=\(index)"
                Issue.record(Comment(rawValue: message))
                return
            }
        }
    }

    static func peakResident() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    // MARK: Deck

    static let deckPieces = ["# ", "## ", "- ", "  - ", "\t- ", "---", "----", " --- ", "Note:", "Note: ", "`", "``",
                             "![", "](", ")", "![a](b.png)", "![](x)", "\n", "\r\n", "\r", " ", "word ", "é", "😀",
                             "\u{0}", "\u{FEFF}", "\u{202E}", "*", "_", "[", "]", "(", "#", "-", "Note", ":"]
    static let validDeck = "# Title `code`\n- one\n  - two\n\nPara text\n![alt](img.png)\nNote:\nsay this\n---\n# Two\n"

    @Test func deckParserNeverTrapsAndLocatesEveryDiagnostic() {
        fuzz("deck") { random, index in
            var text: String
            if index % 2 == 0 {
                text = ""
                for _ in 0..<random.below(200) { text += random.pick(Self.deckPieces) }
                if random.below(10) == 0 { text += String(repeating: random.pick(Self.deckPieces), count: random.below(5_000)) }
            } else {
                var bytes = Array(Self.validDeck.utf8)
                random.mutate(&bytes)
                text = String(decoding: bytes, as: UTF8.self)
            }
            let deck = DeckParser.parse(text, file: "fuzz.md", baseDirectory: URL(fileURLWithPath: "/nonexistent"),
                                        fileExists: { $0.path.count % 2 == 0 }, imageProblem: { _ in nil })
            // Lines as an editor counts them: one more than the line feeds (a CR CR LF is one line end, as in the
            // parser; counting Characters would miss it: "\r\n" after a lone "\r" is one Character).
            let lines = text.unicodeScalars.filter { $0 == "\n" }.count + 1
            for diagnostic in deck.diagnostics {
                #expect(diagnostic.slide >= 1 && diagnostic.line >= 1 && diagnostic.line <= lines + 1,
                        "input \(index): \(diagnostic) in \(lines) lines")
            }
            // Lay the first slide out too: layout is where long text used to cost.
            if let slide = deck.slides.first {
                _ = SlideLayout().operations(for: slide, in: Rect(x: 0, y: 0, width: 1920, height: 1080))
            }
        }
    }

    // MARK: Images

    static let jpeg = Array(Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAIABADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD4vr5Door+qP2Zf/NV/wDcj/7uH9qftDP+aZ/7nf8A3UP/2Q==")!)

    static func smallPNG(_ random: inout FuzzRandom) -> [UInt8] {
        let w = 1 + random.below(12), h = 1 + random.below(12)
        let pixels = (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return Array(Bitmap(width: w, height: h, pixels: pixels).pngData())
    }

    @Test func imageDecoderNeverTrapsAndHonoursTheLimits() {
        fuzz("image") { random, index in
            var bytes: [UInt8]
            switch index % 4 {
            case 0: bytes = Self.smallPNG(&random); random.mutate(&bytes)
            case 1: bytes = Self.jpeg; random.mutate(&bytes)
            case 2:
                // A header with random fields: size, depth, colour type, interlace; then random data.
                bytes = Self.smallPNG(&random)
                for offset in 16..<29 where random.below(3) == 0 { bytes[offset] = UInt8(truncatingIfNeeded: random.next()) }
            default:
                bytes = random.pick([[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], [0xFF, 0xD8, 0xFF], [0x42, 0x4D], []])
                bytes += (0..<random.below(400)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            if let image = try? Bitmap(decoding: bytes, path: "fuzz-\(index)") {
                #expect(image.width >= 1 && image.height >= 1 && image.width <= ImageLimits.maxSide
                        && image.height <= ImageLimits.maxSide && image.pixels.count == image.width * image.height * 4,
                        "input \(index): \(image.width)×\(image.height)")
            }
            _ = ImageInfo.pixelSize(header: bytes)
        }
    }

    // MARK: Keys

    static let keyPieces = ["next", "previous", "home", "end", "b", "p", "m", "a", "q", "wait:", "mode:", "plug:",
                            "unplug:", "remote:", "next", "playpause", ",", ":", "x", "1e308", "nan", "inf", "-inf",
                            "-1", "0", "1e9", "1e9.1", "99999", "16384", "1280x720", "hdmi-tv-1080p", " ", "",
                            "0x10", "1_000", "٣", "+5", ".5", "9223372036854775808"]

    @Test func keyParserNeverTrapsAndAcceptsOnlyValuesInRange() {
        fuzz("keys") { random, index in
            var text = ""
            for _ in 0..<random.below(12) { text += random.pick(Self.keyPieces) }
            if index % 3 == 0 {
                var bytes = Array(text.utf8)
                random.mutate(&bytes)
                text = String(decoding: bytes, as: UTF8.self)
            }
            guard let steps = try? HeadlessStep.parseList(text) else { return }
            for step in steps {
                _ = step.label
                switch step {
                case .wait(let s): #expect(s.isFinite && HeadlessStep.waitRange.contains(s), "input \(index): '\(text)'")
                case .mode(_, let size):
                    #expect(HeadlessStep.sideRange.contains(size.width) && HeadlessStep.sideRange.contains(size.height),
                            "input \(index): '\(text)'")
                default: break
                }
            }
        }
    }
}

/// A seeded generator (SplitMix64) with the mutations the fuzzers use.
struct FuzzRandom {
    private var source: SeededRandom
    init(seed: UInt64) { source = SeededRandom(state: seed) }

    mutating func next() -> UInt64 { source.next() }

    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Flips, overwrites with extreme bytes, inserts, deletes, duplicates and truncates.
    mutating func mutate(_ bytes: inout [UInt8]) {
        for _ in 0..<(1 + below(8)) {
            let at = below(max(1, bytes.count))
            switch below(6) {
            case 0 where !bytes.isEmpty: bytes[at] ^= UInt8(1 << below(8))
            case 1 where !bytes.isEmpty: bytes[at] = pick([0, 0xFF, 0x7F, 0x80])
            case 2: bytes.insert(UInt8(truncatingIfNeeded: next()), at: min(at, bytes.count))
            case 3 where !bytes.isEmpty: bytes.remove(at: at)
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, at + below(64))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            default: bytes = Array(bytes.prefix(at))
            }
        }
    }
}

/// Prints the reproducer and aborts the test process when an input runs longer than its bound: a hang must
/// fail the run loudly, with the seed, rather than stall it.
final class HangGuard: @unchecked Sendable {
    private let item: DispatchWorkItem

    init(seconds: Double, reproducer: String) {
        item = DispatchWorkItem {
            FileHandle.standardError.write(Data((reproducer + "\n").utf8))
            abort()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
    }

    func cancel() { item.cancel() }
}
#endif
