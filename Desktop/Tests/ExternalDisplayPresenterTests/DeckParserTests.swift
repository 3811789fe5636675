import Foundation
import Testing
@testable import ExternalDisplayPresenter

@Suite("Deck parser")
struct DeckParserTests {
    let base = URL(fileURLWithPath: "/decks")

    func parse(_ text: String, existing: Set<String> = []) -> Deck {
        DeckParser.parse(text, file: "talk.md", baseDirectory: base) { existing.contains($0.path) }
    }

    @Test func splitsSlidesAtDashLines() {
        let deck = parse("# One\nhello\n---\n# Two\n----\n# Three\n")
        #expect(deck.slides.map(\.plainTitle) == ["One", "Two", "Three"])
        #expect(deck.slides.map(\.line) == [1, 4, 6])
        #expect(deck.title == "One")
        #expect(deck.diagnostics.isEmpty)
    }

    @Test func readsParagraphsBulletsAndNesting() {
        let deck = parse("# T\nfirst line\nsecond line\n\n- a\n  - a1\n\t- a2\n- b\n")
        #expect(deck.slides[0].blocks == [
            .paragraph([InlineRun("first line second line")]),
            .bullet(level: 0, [InlineRun("a")]),
            .bullet(level: 1, [InlineRun("a1")]),
            .bullet(level: 1, [InlineRun("a2")]),
            .bullet(level: 0, [InlineRun("b")]),
        ])
    }

    @Test func inlineCodeBecomesCodeRuns() {
        let deck = parse("# Use `present`\nrun `swift build` now")
        #expect(deck.slides[0].title == [InlineRun("Use "), InlineRun("present", isCode: true)])
        #expect(deck.slides[0].blocks == [.paragraph([InlineRun("run "), InlineRun("swift build", isCode: true),
                                                      InlineRun(" now")])])
    }

    @Test func notesAfterNoteLineArePrivateAndOffTheSlide() {
        let deck = parse("# T\nvisible\nNote:\nsecret one\ncontinues\n\nsecret two\n---\n# U\nNotes: inline note")
        #expect(deck.slides[0].notes == ["secret one continues", "secret two"])
        #expect(deck.slides[0].blocks == [.paragraph([InlineRun("visible")])])
        #expect(deck.slides[1].notes == ["inline note"])
    }

    @Test func imagesResolveRelativeToTheDeck() {
        let deck = parse("# T\n![A chart](img/chart.png)", existing: ["/decks/img/chart.png"])
        #expect(deck.slides[0].blocks == [.image(alt: "A chart", url: URL(fileURLWithPath: "/decks/img/chart.png"))])
    }

    @Test func missingImageIsReportedWithSlideAndLineAndTheDeckStillLoads() throws {
        let deck = parse("# A\n---\n# B\ntext\n![x](missing.png)\nmore")
        #expect(deck.slides.count == 2)
        #expect(deck.slides[1].blocks == [.paragraph([InlineRun("text")]), .paragraph([InlineRun("more")])])
        let d = try #require(deck.diagnostics.first)
        #expect(d.slide == 2 && d.line == 5)
        #expect(d.description.hasPrefix("talk.md: slide 2, line 5: image 'missing.png' not found"))
    }

    @Test func malformedInputGetsDiagnosticsNamingSlideAndLine() {
        let deck = parse("# A\n- a\n      - too deep\n---\n# B\n  - orphan\n![broken(x.png\n`open code\n#\n# Second")
        let found = deck.diagnostics.map { "\($0.slide):\($0.line)" }
        #expect(found == ["1:3", "2:6", "2:7", "2:8", "2:9", "2:10"])
        #expect(deck.slides[0].blocks.last == .bullet(level: 1, [InlineRun("too deep")]))
        #expect(deck.slides[1].blocks.first == .bullet(level: 0, [InlineRun("orphan")]))
        #expect(deck.slides[1].blocks.contains(.paragraph([InlineRun("`open code")])))
        #expect(deck.slides[1].blocks.last == .heading([InlineRun("Second")]))
    }

    @Test func emptySlidesAreSkippedAndAnEmptyDeckSaysSo() {
        let deck = parse("---\n# A\n---\n\n---\n# B\n---\n")
        #expect(deck.slides.map(\.plainTitle) == ["A", "B"])
        #expect(deck.diagnostics.map(\.slide) == [3])
        let empty = parse("\n\n")
        #expect(empty.slides.isEmpty)
        #expect(empty.diagnostics.count == 1)
        #expect(empty.title == "talk")
    }

    @Test func crlfAndBulletContinuations() {
        let deck = parse("# T\r\n- long bullet\r\n  that wraps\r\n")
        #expect(deck.slides[0].blocks == [.bullet(level: 0, [InlineRun("long bullet"), InlineRun(" that wraps")])])
    }

    @Test func unreadableFileIsATypedError() {
        #expect(throws: DeckError.self) {
            try DeckParser.parse(contentsOf: URL(fileURLWithPath: "/nonexistent/deck.md"))
        }
    }
}
