import ArgumentParser
import DesktopFiles
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

/// `extdisplay export DECK OUT.pdf`: a deck, with the ink its talks saved, as a PDF handout (a page per slide).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a deck, with the ink saved by its talks, as a PDF handout: one page per slide.",
        discussion: """
        A Markdown deck: each slide is drawn as the audience sees it (a video as its still picture) at --width × \
        --height pixels (default 1920×1080; one given, the other follows at 16:9), and each becomes a page of that \
        many points; the ink is drawn over it as PDF ink annotations (a viewer can hide, move or delete them). The \
        ink comes from the deck's ink file (talk.md → talk.ink.json, written by `present`).

        A PDF deck: the original's own pages at their own size (text stays text), with the ink of its annotated \
        copy (talk.pdf → talk-annotated.pdf, written by `present`) added as ink annotations. Beamer overlays: only \
        the last step of each slide is kept (every overlay uncovered), with the ink drawn on any of its steps. \
        --width and --height do not apply.

        The deck and its ink file are never written. OUT is written whole or not at all (a temporary file renamed \
        into place). Exit status: 0 written; 1 OUT cannot be written (it exists without --force, it is the deck or \
        its ink file, its folder is missing or read-only); 2 the deck or the ink file given with --ink cannot be read. See \
        docs/ink.md.
        """)

    @Argument(help: "The deck: Markdown, or a PDF.")
    var deck: String

    @Argument(help: "The PDF to write.")
    var output: String

    @Option(help: "Markdown decks: the page width in pixels (= points), 16…8192 (default 1920).")
    var width: Int?

    @Option(help: "Markdown decks: the page height in pixels (= points), 16…8192 (default 1080).")
    var height: Int?

    @Option(help: "Where the ink comes from (default: NAME.ink.json beside a Markdown deck, NAME-annotated.pdf beside a PDF deck).")
    var ink: String?

    @Flag(name: .customLong("no-ink"), help: "Export the slides without their ink.")
    var noInk = false

    @Option(help: "PDF decks made by Beamer with notes on a second screen: where the notes half is (right, left, bottom), as in present.")
    var notes: BeamerNotes?

    @Flag(help: "Replace OUT when it exists.")
    var force = false

    func validate() throws {
        for (name, value) in [("--width", width), ("--height", height)] {
            if let value, !DeckExport.sides.contains(value) {
                throw ValidationError("\(name) \(value): give \(DeckExport.sides.lowerBound)…\(DeckExport.sides.upperBound) pixels")
            }
        }
        if noInk, ink != nil { throw ValidationError("--no-ink and --ink contradict each other; give one") }
    }

    /// The page size asked for: both sides, or one with the other at 16:9; nil: the default.
    var size: PixelSize? {
        switch (width, height) {
        case let (w?, h?): PixelSize(width: w, height: h)
        case let (w?, nil): PixelSize(width: w, height: min(DeckExport.sides.upperBound, max(DeckExport.sides.lowerBound, w * 9 / 16)))
        case let (nil, h?): PixelSize(width: min(DeckExport.sides.upperBound, max(DeckExport.sides.lowerBound, h * 16 / 9)), height: h)
        case (nil, nil): nil
        }
    }

    func run() throws {
        let deckURL = URL(fileURLWithPath: deck)
        let out = URL(fileURLWithPath: output)
        let caches = DrawingCaches()
        let parsed: Deck
        do { parsed = try DeckParser.parse(contentsOf: deckURL, beamerNotes: notes, imageProblem: caches.imageProblem) } catch {
            Self.warn(error.description)
            throw ExitCode(2)
        }
        for diagnostic in parsed.diagnostics { Self.warn(diagnostic.description) }
        guard !parsed.slides.isEmpty else {
            Self.warn("\(PrintableText.name(deckURL.path)) has no slides; there is nothing to export")
            throw ExitCode(2)
        }
        let inkFile = noInk ? nil : (ink.map { URL(fileURLWithPath: $0) } ?? DeckExport.inkSource(of: parsed))
        do { try DeckExport.checkOutput(out, deck: deckURL, ink: inkFile, force: force) } catch {
            Self.warn(error.description)
            throw ExitCode(1)
        }
        let isPDF = parsed.slides.first?.pdfPage != nil
        if isPDF, width != nil || height != nil {
            Self.warn("--width and --height apply to Markdown decks; a PDF deck keeps its own page size")
        }
        var strokes: [Int: [InkStroke]] = [:]
        var source: URL?
        if !noInk {
            let given = ink.map { URL(fileURLWithPath: $0) }
            if let given, !FileManager.default.fileExists(atPath: given.path) {
                Self.warn("the ink file \(PrintableText.name(given.path)) does not exist; give the file `present` wrote, "
                          + "or leave --ink out")
                throw ExitCode(2)
            }
            let read = DeckExport.savedInk(of: parsed, from: given)
            for line in read.lines { Self.warn(line) }
            strokes = read.strokes
            source = read.source
            if given != nil, read.source != nil, strokes.isEmpty, !read.lines.isEmpty {
                Self.warn("no usable ink in \(PrintableText.name(given?.path ?? "")); the slides are exported without ink")
            }
        }
        let total = parsed.slides.count
        let summary: DeckExport.Summary
        do {
            summary = try DeckExport.write(parsed, ink: strokes, to: out, size: isPDF ? nil : size, caches: caches) { done, all in
                // Progress for long decks: every tenth slide and the last.
                if total > 10, done % 10 == 0 || done == all { Self.progress("slide \(done) of \(all)") }
            }
        } catch {
            Self.warn(error.description)
            throw ExitCode(1)
        }
        for problem in summary.problems { Self.warn("ink left out: " + problem) }
        let from = source.map { " from \(PrintableText.name($0.lastPathComponent))" } ?? ""
        StandardStreams.line("wrote \(PrintableText.name(out.path)): \(summary.pages) page\(summary.pages == 1 ? "" : "s"), "
                             + "\(summary.strokes) ink stroke\(summary.strokes == 1 ? "" : "s")\(from)")
    }

    static func warn(_ message: String) {
        StandardStreams.errorLine("extdisplay export: " + PrintableText.line(message))
    }

    static func progress(_ message: String) {
        StandardStreams.errorLine("extdisplay export: " + message)
    }
}
