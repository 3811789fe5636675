import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A deck re-exported during the talk: a half-written (truncated) file never replaces the deck shown; once the
/// file is complete the deck read is exactly what a fresh run reads, the slide kept by index (clamped), and
/// pages of the old file are never shown for the new one.
@Suite("Deck reloading")
struct DeckReloaderTests {
    /// A clock the test moves.
    final class Clock: @unchecked Sendable {
        var seconds = 1_000.0
    }

    static func pdf(pages count: Int, colour: Int = 0) -> Data {
        let pages = (0..<count).map { MiniPDF.solid(40 * $0 + colour, 100, 200, width: 400, height: 300) }
        return MiniPDF.data(pages: pages, width: 400, height: 300)
    }

    /// Writes `data` over `url` in place (as an exporter does), its modification time moved on so that two
    /// writes within one clock tick still differ.
    static func overwrite(_ url: URL, _ data: Data, tick: Int) throws {
        try data.write(to: url)
        var times = [timespec(tv_sec: 1_700_000_000 + tick, tv_nsec: 0), timespec(tv_sec: 1_700_000_000 + tick, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
    }

    @Test func aTruncatedReExportNeverReplacesTheDeckAndTheCompleteOneIsWhatAFreshRunReads() throws {
        let url = try MiniPDF.write(Self.pdf(pages: 3), name: "talk.pdf")
        let first = try DeckParser.parse(contentsOf: url)
        #expect(first.slides.count == 3)
        let clock = Clock()
        let reloader = DeckReloader(url: url, settleSeconds: 0.3, now: { clock.seconds })
        #expect(isUnchanged(reloader.check(currentSlide: 2)))

        // Half of the new export is written: a truncated PDF.
        let next = Self.pdf(pages: 2, colour: 7)
        try Self.overwrite(url, next.prefix(next.count * 6 / 10), tick: 1)
        #expect(isSettling(reloader.check(currentSlide: 2)), "a file just changed was read at once")
        clock.seconds += 1
        guard case .settling(let why) = reloader.check(currentSlide: 2) else {
            Issue.record("a truncated PDF replaced the deck")
            return
        }
        #expect(why.contains("%%EOF"), "\(why)")

        // The export completes.
        try Self.overwrite(url, next, tick: 2)
        #expect(isSettling(reloader.check(currentSlide: 2)))
        clock.seconds += 1
        guard case .reloaded(let deck, let slide) = reloader.check(currentSlide: 2) else {
            Issue.record("the complete export was not read")
            return
        }
        #expect(slide == 1, "the slide index was not clamped to the 2-page deck")
        #expect(deck == (try DeckParser.parse(contentsOf: url)), "the reloaded deck differs from a fresh read")
        #expect(isUnchanged(reloader.check(currentSlide: 1)))

        // The same page of the new file is another cache key: no page of the old file is shown.
        let old = try #require(first.slides[0].pdfPage), new = try #require(deck.slides[0].pdfPage)
        #expect(PageRasterCache.key(old, width: 400, height: 300) != PageRasterCache.key(new, width: 400, height: 300))
    }

    @Test func aFileThatStaysUnreadableIsReportedOnceThenTriedAgainWhenItChanges() throws {
        let url = try MiniPDF.write(Self.pdf(pages: 2), name: "talk.pdf")
        let clock = Clock()
        let reloader = DeckReloader(url: url, settleSeconds: 0.3, now: { clock.seconds })
        try Self.overwrite(url, Data("%PDF-1.4\nnot really a pdf\n%%EOF\n".utf8), tick: 1)
        #expect(isSettling(reloader.check(currentSlide: 0)))
        clock.seconds += 1
        guard case .failed(let error) = reloader.check(currentSlide: 0) else {
            Issue.record("a damaged PDF was not reported: \(reloader.check(currentSlide: 0))")
            return
        }
        #expect(error.description.contains("talk.pdf"), "\(error)")
        #expect(isUnchanged(reloader.check(currentSlide: 0)), "the same damaged version was reported again")
        try Self.overwrite(url, Self.pdf(pages: 4), tick: 2)
        #expect(isSettling(reloader.check(currentSlide: 0)))
        clock.seconds += 1
        guard case .reloaded(let deck, let slide) = reloader.check(currentSlide: 0) else {
            Issue.record("the repaired file was not read")
            return
        }
        #expect(deck.slides.count == 4 && slide == 0)
    }

    @Test func aMarkdownDeckKeepsTheSlideByIndexAndAPdfpcChangeAloneReloads() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let md = dir.appendingPathComponent("deck.md")
        try Self.overwrite(md, Data("# One\n---\n# Two\n---\n# Three\n".utf8), tick: 0)
        let clock = Clock()
        let reloader = DeckReloader(url: md, settleSeconds: 0, now: { clock.seconds })
        try Self.overwrite(md, Data("# One\n---\n# Two, edited\n---\n# Three\n---\n# Four\n".utf8), tick: 1)
        guard case .reloaded(let deck, let slide) = reloader.check(currentSlide: 1) else {
            Issue.record("the edited deck was not read")
            return
        }
        #expect(slide == 1 && deck.slides.count == 4)

        let pdf = try MiniPDF.write(Self.pdf(pages: 2), name: "talk.pdf")
        let pdfReloader = DeckReloader(url: pdf, settleSeconds: 0, now: { clock.seconds })
        try Data(#"{"pdfpcFormat":2,"pages":[{"idx":1,"note":"new note"}]}"#.utf8).write(to: PdfpcNotes.companion(of: pdf))
        guard case .reloaded(let withNotes, _) = pdfReloader.check(currentSlide: 1) else {
            Issue.record("a new .pdfpc did not reload the deck")
            return
        }
        #expect(withNotes.slides[1].notes == ["new note"])
    }

    func isUnchanged(_ change: DeckReloader.Change) -> Bool {
        if case .unchanged = change { true } else { false }
    }

    func isSettling(_ change: DeckReloader.Change) -> Bool {
        if case .settling = change { true } else { false }
    }
}
