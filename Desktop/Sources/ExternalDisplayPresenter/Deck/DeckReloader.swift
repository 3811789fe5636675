import Foundation

/// Watches a deck's file (and a PDF's `.pdfpc` beside it) and reads the deck again once a change is complete:
/// the file has stopped changing for ``settleSeconds``, a PDF ends with `%%EOF`, and the whole deck parses.
/// A re-export seen half-written (a truncated PDF) never replaces the deck shown; the deck that comes back is
/// exactly what a fresh run reads, and the slide shown is kept by index (clamped to the new deck).
///
/// Cheap to call every loop turn: an unchanged file costs two `stat` calls. Not thread-safe: call it from the
/// loop that owns the deck.
///
/// ```swift
/// let reloader = DeckReloader(url: deckURL, beamerNotes: notes)
/// // each turn of the loop (or on a timer, e.g. every 250 ms):
/// if case .reloaded(let deck, let slide) = reloader.check(currentSlide: state.slideIndex) {
///     controller.replaceDeck(deck, slide: slide)
/// }
/// ```
public final class DeckReloader {
    /// What ``check(currentSlide:)`` found.
    public enum Change: Sendable {
        /// Nothing changed since the deck shown was read.
        case unchanged
        /// The file changed and is still being written, or is not complete yet (e.g. a PDF without `%%EOF`):
        /// keep showing the deck; ask again.
        case settling(String)
        /// The file changed and reads completely: the new deck, and the slide index to show (the current one,
        /// clamped to the new deck's slides).
        case reloaded(Deck, slideIndex: Int)
        /// The file stopped changing but cannot be read as a deck: keep showing the old deck. Reported once per
        /// version of the file; a later change is tried again.
        case failed(DeckError)
    }

    /// The deck file watched.
    public let url: URL
    /// How long the file must stay unchanged before it is read (a re-export writes in several steps).
    public let settleSeconds: Double
    private let beamerNotes: BeamerNotes?
    private let reader: (@Sendable (URL) -> Result<Deck, DeckError>)?
    private let now: () -> Double
    /// The files' versions when the deck shown was read.
    private var loaded: [FileSignature?]
    /// The versions last seen changed, and since when.
    private var seen: [FileSignature?]
    private var seenSince: Double
    /// A version already tried and found unreadable (not tried again until it changes).
    private var failedVersion: [FileSignature?]?

    /// Watches `url`, whose deck was just read (its current versions are the ones shown). `read` reads a deck
    /// (default: ``DeckParser/parse(contentsOf:beamerNotes:imageProblem:)`` with `beamerNotes`); `now` is a clock
    /// in seconds (tests move it).
    public init(url: URL, beamerNotes: BeamerNotes? = nil, settleSeconds: Double = 0.3,
                now: @escaping () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
                read: (@Sendable (URL) -> Result<Deck, DeckError>)? = nil) {
        self.url = url
        self.settleSeconds = max(0, settleSeconds)
        self.now = now
        self.beamerNotes = beamerNotes
        self.reader = read
        let versions = Self.versions(of: url)
        loaded = versions
        seen = versions
        seenSince = now()
    }

    /// The versions of the deck and of its `.pdfpc` companion.
    private static func versions(of url: URL) -> [FileSignature?] {
        [FileSignature(of: url), FileSignature(of: PdfpcNotes.companion(of: url))]
    }

    /// Looks at the files; reads the deck again when a change is complete. `currentSlide` is the index shown.
    public func check(currentSlide: Int) -> Change {
        let versions = Self.versions(of: url)
        if versions == loaded { return .unchanged }
        let time = now()
        if versions != seen {
            seen = versions
            seenSince = time
        }
        if let failedVersion, failedVersion == versions { return .unchanged }
        guard time - seenSince >= settleSeconds else { return .settling("the file is being written") }
        guard versions[0] != nil else { return .settling("the file is gone (being replaced?)") }
        if PDFInfo.looksLikePDF(url), !PDFInfo.endsWithEOFMarker(url.path) {
            return .settling("the PDF does not end with %%EOF yet (still being written?)")
        }
        do throws(DeckError) {
            let deck: Deck
            if let reader { deck = try reader(url).get() } else { deck = try DeckParser.parse(contentsOf: url, beamerNotes: beamerNotes) }
            // Changed while it was read: read it again when it settles.
            guard Self.versions(of: url) == versions else { return .settling("the file changed while it was read") }
            loaded = versions
            failedVersion = nil
            let index = deck.slides.isEmpty ? 0 : min(max(0, currentSlide), deck.slides.count - 1)
            return .reloaded(deck, slideIndex: index)
        } catch {
            failedVersion = versions
            return .failed(error)
        }
    }
}
