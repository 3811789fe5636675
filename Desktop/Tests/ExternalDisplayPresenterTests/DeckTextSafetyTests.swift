import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Text from a deck's files never reaches the terminal or the screen raw: page labels with newlines, BEL and
/// escape sequences, `.pdfpc` labels and notes with them, Markdown titles with them (``TextSanitizer``); and a
/// `.pdfpc` that is not a regular file is named by its kind.
@Suite("Deck text made safe")
struct DeckTextSafetyTests {
    static let esc = "\u{1B}", bel = "\u{07}"

    @Test(arguments: [
        ("plain", "plain", "plain"),
        ("Intro\u{1B}[31mred\u{1B}[0m", "Introred", "Introred"),
        ("title\u{1B}]0;pwned\u{07}end", "titleend", "titleend"),
        ("title\u{1B}]0;pwned\u{1B}\\end", "titleend", "titleend"),
        ("ring\u{07}\u{07}bell", "ringbell", "ringbell"),
        ("two\nlines\tand tab", "two lines and tab", "two\nlines\tand tab"),
        ("crlf\r\nnext", "crlf next", "crlf\nnext"),
        ("over\rwrite", "overwrite", "overwrite"),
        ("c1\u{9B}2Jcsi\u{85}nel\u{7F}del", "c1csineldel", "c1csineldel"),
        ("\u{1B}", "", ""),
        ("\u{1B}[", "", ""),
        ("ünïcødé 日本語 😀", "ünïcødé 日本語 😀", "ünïcødé 日本語 😀"),
    ])
    func theSanitizerRemovesControlsAndEscapeSequences(raw: String, line: String, text: String) {
        #expect(TextSanitizer.line(raw) == line)
        #expect(TextSanitizer.text(raw) == text)
        #expect(TextSanitizer.isClean(TextSanitizer.line(raw)))
        #expect(!TextSanitizer.line(raw).contains("\n"))
    }

    @Test func isCleanSeesWhatWouldBeRemoved() {
        #expect(!TextSanitizer.isClean("a\u{1B}[31m"))
        #expect(!TextSanitizer.isClean("bell\u{07}"))
        #expect(TextSanitizer.isClean("lines\nand\ttabs"))
    }

    /// No scalar below U+0020 other than newline and tab, no DEL or C1 control.
    static func safe(_ text: String, allowingLines: Bool = false) -> Bool {
        !text.unicodeScalars.contains {
            ($0.value < 0x20 && !(allowingLines && ($0 == "\n" || $0 == "\t"))) || ($0.value >= 0x7F && $0.value <= 0x9F)
        }
    }

    @Test func pageLabelsAndPdfpcLabelsAndNotesWithControlsAreCleanedWhenRead() throws {
        let pages = (0..<3).map { _ in MiniPDF.solid(200, 200, 200, width: 400, height: 300) }
        let first = MiniPDF.firstExtraObject(pageCount: 3)
        // Page labels "Intro<newline><BEL><ESC>[31m" + number, then "<ESC>]0;owned<BEL>" + number.
        let data = MiniPDF.data(pages: pages, width: 400, height: 300, catalogExtra: "/PageLabels \(first) 0 R ",
                                extraObjects: ["<< /Nums [0 << /S /D /P (Intro\\n\\007\\033[31m) >> 2 << /S /D /P (\\033]0;owned\\007) >>] >>"])
        let url = try MiniPDF.write(data, name: "talk.pdf")
        let pdfpc = #"{"pdfpcFormat":2,"pages":[{"idx":1,"label":"L\u001b[2J\u0007","note":"say\u001b]0;x\u0007 hi\nnext\u0008line"}]}"#
        try Data(pdfpc.utf8).write(to: PdfpcNotes.companion(of: url))
        let deck = try PDFDeckReader.read(url)
        let labels = deck.slides.compactMap { $0.pdfPage?.label }
        #expect(labels.count == 3)
        for label in labels { #expect(Self.safe(label), "\(label.debugDescription)") }
        #expect(labels.first == "Intro 1", "\(labels)")
        #expect(labels[1] == "L")
        #expect(labels.last == "1" || labels.last == "3" || labels.last?.hasSuffix("1") == true, "\(labels)")
        let notes = deck.slides.flatMap(\.notes)
        #expect(!notes.isEmpty)
        for note in notes { #expect(Self.safe(note), "\(note.debugDescription)") }
        #expect(notes.joined(separator: " ").contains("say hi"), "\(notes)")
        #expect(Self.safe(deck.title))
    }

    @Test func markdownTitlesAndNotesWithControlsAreCleanedWhenRead() {
        let deck = DeckParser.parse("# Ti\u{1B}[31mtle\u{07}\n- point\u{1B}]0;x\u{07}\n\nnote: say\u{1B}[2J here\n", file: "deck.md")
        #expect(deck.title == "Title", "\(deck.title.debugDescription)")
        let notes = deck.slides.flatMap(\.notes)
        #expect(notes.contains { $0.contains("say here") }, "\(notes)")
        for note in notes { #expect(Self.safe(note), "\(note.debugDescription)") }
    }

    @Test func aPdfpcThatIsAFIFOOrADirectoryIsNamedByItsKindAndTheDeckStillReads() throws {
        let data = MiniPDF.data(pages: [MiniPDF.solid(1, 2, 3, width: 400, height: 300)], width: 400, height: 300)
        let fifo = try MiniPDF.write(data, name: "talk.pdf")
        #expect(mkfifo(PdfpcNotes.companion(of: fifo).path, 0o644) == 0)
        let dir = try MiniPDF.write(data, name: "talk.pdf")
        try FileManager.default.createDirectory(at: PdfpcNotes.companion(of: dir), withIntermediateDirectories: false)
        for (url, kind) in [(fifo, "is a FIFO (named pipe), not a regular file"), (dir, "is a directory, not a regular file")] {
            // Reading a FIFO waited for a writer for ever: the read happens off this thread, with a hang guard.
            let outcome = LockedBox<Result<Deck, DeckError>?>(nil)
            Thread {
                let read: Result<Deck, DeckError>
                do throws(DeckError) { read = .success(try PDFDeckReader.read(url)) } catch { read = .failure(error) }
                outcome.withLock { $0 = read }
            }.start()
            #expect(poll(30) { outcome.withLock { $0 } != nil }, "reading the deck beside a \(kind) hung")
            guard case .success(let deck)? = outcome.withLock({ $0 }) else {
                Issue.record("the deck was refused: \(String(describing: outcome.withLock { $0 }))")
                continue
            }
            #expect(deck.slides.count == 1)
            let messages = deck.diagnostics.map(\.description).joined(separator: "\n")
            #expect(messages.contains("talk.pdfpc") && messages.contains(kind), "\(messages)")
            #expect(!messages.contains("NSCocoaErrorDomain") && !messages.contains("permission"), "\(messages)")
        }
    }
}

/// A lone ESC at the end of a line loses the ESC, never the line break (the deck's line numbers stay those of
/// the file; found by the deck fuzz test, seed 1344941997).
@Test func aLoneEscapeAtTheEndOfALineKeepsTheLineBreak() {
    #expect(TextSanitizer.text("one\u{1b}\ntwo\u{1b}\r\nthree\u{1b}\tfour") == "one\ntwo\nthree\tfour")
    #expect(TextSanitizer.line("one\u{1b}\ntwo") == "one two")
}
