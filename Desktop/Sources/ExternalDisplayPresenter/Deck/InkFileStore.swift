import DesktopFiles
import Foundation

/// A Markdown deck's ink file on disk (``InkFile``): read at the start of a talk, written at its end and on Ctrl-S.
///
/// Nothing is lost on the way:
/// - the file is written atomically (a temporary file renamed over it): a failed write leaves the previous file;
/// - a file that could not be read whole (not JSON, cut short, too large, a newer version, damaged strokes) is not
///   written over: the first save moves it aside to `NAME.ink.json.bad` (`.bad-2`, … when that exists) and says
///   so, then writes the talk's ink; if it cannot be moved, nothing is written;
/// - a path that is not a regular file (a FIFO, a directory, a device) is neither read nor written: saving says
///   what it is and what to do;
/// - ink of slides that match no slide of the deck now is written back unchanged.
///
/// ```swift
/// var store = InkFileStore(url: InkFile.companion(of: deckURL))
/// let (strokes, lines) = store.load(for: deck)
/// let saved = try store.save(state.ink.savedStrokes, deck: deck)  // saved.count, saved.keptAside
/// ```
public struct InkFileStore: Sendable {
    /// The ink file.
    public let url: URL
    /// Entries of the file read that match no slide now (written back on save).
    public private(set) var unmatched: [InkFile.Entry] = []
    /// Whether the file read was damaged (moved aside before the next save).
    public private(set) var isDamaged = false
    /// Why the path is never written (it is not a regular file), if so.
    public private(set) var refusal: String?

    /// A store for `url`.
    public init(url: URL) { self.url = url }

    private var name: String { PrintableText.name(url.lastPathComponent) }

    /// Reads the file for `deck`: the strokes by slide index, and the lines to tell the speaker (problems, slides
    /// whose ink matches nothing now). No file: nothing, silently.
    public mutating func load(for deck: Deck) -> (strokes: [Int: [InkStroke]], lines: [String]) {
        unmatched = []
        isDamaged = false
        refusal = nil
        guard Self.exists(url) else { return ([:], []) }
        let bytes: [UInt8]
        do { bytes = try UntrustedFile.read(url, limit: InkFile.fileLimit) } catch {
            switch error {
            case .missing: return ([:], [])
            case .notRegular:
                refusal = "\(PrintableText.name(url.path)) \(error.reason); remove or rename it (or give --ink-out FILE) "
                    + "so the ink can be saved"
                return ([:], ["the ink file \(name) \(error.reason): its ink is not read, and it is never written over"])
            default:
                isDamaged = true
                return ([:], ["the ink file \(name) \(error.reason): not read; the talk goes on without it, and it is "
                              + "kept as \(name).bad when the ink is next saved"])
            }
        }
        let (file, problems) = InkFile.decode(Data(bytes))
        guard let file else {
            isDamaged = true
            return ([:], ["the ink file \(name) is not usable (\(problems.joined(separator: "; "))): its ink is not read; "
                          + "the talk goes on without it, and it is kept as \(name).bad when the ink is next saved"])
        }
        var lines = problems.map { "the ink file \(name): \($0)" }
        if !problems.isEmpty {
            isDamaged = true
            lines.append("the ink file \(name) is damaged in part: the rest is read, and the file is kept as \(name).bad "
                         + "when the ink is next saved")
        }
        let (strokes, unmatched, note) = file.matched(to: deck)
        self.unmatched = unmatched
        if let note { lines.append("ink: \(note)") }
        return (strokes, lines)
    }

    /// What a save did.
    public struct Saved: Hashable, Sendable {
        /// How many strokes were written.
        public var count: Int
        /// Where a damaged file was moved to before writing, if one was.
        public var keptAside: URL?
        /// Whether the file written is larger than the next run reads (``InkFile/fileLimit``): it is written all the
        /// same (nothing is lost), and the speaker is told to clear some ink.
        public var isTooLargeToRead: Bool
    }

    /// Writes `strokes` (the room's ink by slide index) for `deck`, with the unmatched entries of the file read.
    /// Throws, having written nothing, when the path is not a regular file, a damaged file cannot be moved aside,
    /// or the write fails.
    public mutating func save(_ strokes: [Int: [InkStroke]], deck: Deck) throws(InkSaveError) -> Saved {
        if let refusal { throw InkSaveError(refusal) }
        var info = stat()
        if stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw InkSaveError("\(PrintableText.name(url.path)) is not a regular file; remove or rename it (or give "
                               + "--ink-out FILE) so the ink can be saved")
        }
        var keptAside: URL?
        if isDamaged, Self.exists(url) {
            let aside = try Self.moveAside(url)
            keptAside = aside
        }
        isDamaged = false
        let data = InkFile(strokes: strokes, deck: deck, kept: unmatched).encoded()
        do { try AtomicFile.write(data, to: url) } catch {
            throw InkSaveError(error.description)
        }
        let count = strokes.reduce(0) { $0 + (deck.slides.indices.contains($1.key) ? $1.value.count : 0) }
        return Saved(count: count, keptAside: keptAside, isTooLargeToRead: data.count > InkFile.fileLimit)
    }

    /// Whether anything (even a dangling link) is at `url`.
    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }

    /// Renames a damaged file to the first free `NAME.bad`, `NAME.bad-2`, …; throws when none can be made.
    static func moveAside(_ url: URL) throws(InkSaveError) -> URL {
        for n in 1...100 {
            let aside = URL(fileURLWithPath: url.path + (n == 1 ? ".bad" : ".bad-\(n)"))
            if exists(aside) { continue }
            guard rename(url.path, aside.path) == 0 else {
                let reason = String(cString: strerror(errno))
                throw InkSaveError("the damaged ink file \(PrintableText.name(url.path)) could not be kept as "
                                   + "\(aside.lastPathComponent) (\(reason)), so the ink was not saved over it: "
                                   + "move it away and save again (Ctrl-S)")
            }
            return aside
        }
        throw InkSaveError("the damaged ink file \(PrintableText.name(url.path)) could not be kept: \(url.lastPathComponent)"
                           + ".bad to .bad-100 exist already; remove some and save again (Ctrl-S)")
    }
}
