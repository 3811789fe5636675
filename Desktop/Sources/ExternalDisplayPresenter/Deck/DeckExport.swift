#if canImport(CSDL2)
import DesktopFiles
import ExternalDisplayKit
import Foundation

/// `extdisplay export DECK OUT.pdf`: any deck, with the ink saved by its talks, as a PDF handout with a page per
/// slide (a Beamer slide's last overlay step, with the ink drawn on any of its steps).
///
/// - A Markdown deck: each slide is drawn as an audience display shows it (``PresenterLayout/audience(_:slideIndex:size:safeFrame:playing:zoom:)``
///   on the headless canvas, a video as its still stand-in) at the size asked (default 1920×1080), and becomes a
///   page of that many points showing that picture (``HandoutPDF``); its ink (the deck's ink file) becomes `/Ink`
///   annotations over it.
/// - A PDF deck: the original's pages (vector, at their own size; only each slide's last overlay step, picked with
///   `mutool clean`), with the ink of its annotated copy added as `/Ink` annotations (``InkAnnotationWriter``).
///
/// ```swift
/// let (ink, _, lines) = DeckExport.savedInk(of: deck, from: nil)
/// let result = try DeckExport.write(deck, ink: ink, to: out, size: nil, caches: DrawingCaches()) { done, total in }
/// ```
public enum DeckExport {
    /// A Markdown deck's page size unless told: 1920×1080.
    public static let defaultSize = PixelSize(width: 1920, height: 1080)
    /// The sides a Markdown handout's pages may have, in pixels (= points).
    public static let sides = 16...8192

    /// What was written.
    public struct Summary: Hashable, Sendable {
        /// Pages in the handout.
        public var pages: Int
        /// Ink annotations on them.
        public var strokes: Int
        /// Pages whose ink was left out, each a line saying why (a PDF page whose `/Rotate` viewers disagree on).
        public var problems: [String] = []
    }

    /// The ink saved for `deck`: from `source` when given, else a Markdown deck's ink file (`NAME.ink.json`) or a PDF
    /// deck's annotated copy (`NAME-annotated.pdf`), when it exists; `source`: the file read (nil: none); `lines`:
    /// what to tell the user (damage, slides whose ink matches nothing now).
    public static func savedInk(of deck: Deck, from source: URL?) -> (strokes: [Int: [InkStroke]], source: URL?, lines: [String]) {
        if let pages = pdfPages(deck), let file = source ?? inkSource(of: deck) {
            guard FileManager.default.fileExists(atPath: file.path) else { return ([:], nil, []) }
            let (strokes, problem) = InkAnnotationReader.read(file, pages: pages)
            return (strokes, file, problem.map { [$0] } ?? [])
        }
        guard let file = source ?? inkSource(of: deck) else { return ([:], nil, []) }
        guard InkFileStore.exists(file) else { return ([:], nil, []) }
        var store = InkFileStore(url: file)
        let (strokes, lines) = store.load(for: deck)
        return (strokes, file, lines)
    }

    /// The deck's pages when every slide is a PDF page.
    static func pdfPages(_ deck: Deck) -> [PDFPage]? {
        let pages = deck.slides.compactMap(\.pdfPage)
        return !pages.isEmpty && pages.count == deck.slides.count ? pages : nil
    }

    /// The file a deck's ink is read from unless told: `NAME.ink.json` beside a Markdown deck, `NAME-annotated.pdf`
    /// beside a PDF deck (nil: a deck not read from a file).
    public static func inkSource(of deck: Deck) -> URL? {
        if let document = pdfPages(deck)?.first?.document { return InkAnnotationWriter.defaultOutput(for: document) }
        return deck.file.map(InkFile.companion(of:))
    }

    /// Refuses an output that is the deck itself or the file its ink is read from (`ink`; even with `force`, however
    /// spelled: a link to it too), a directory, a file that exists (without `force`), or a folder that is missing or
    /// cannot be written; the message says what to do.
    public static func checkOutput(_ output: URL, deck: URL, ink: URL?, force: Bool) throws(InkSaveError) {
        let shown = PrintableText.name(output.path)
        var o = stat()
        let outputExists = stat(output.path, &o) == 0
        func isSame(_ other: URL) -> Bool {
            var d = stat()
            return output.standardizedFileURL.path == other.standardizedFileURL.path
                || (outputExists && stat(other.path, &d) == 0 && o.st_dev == d.st_dev && o.st_ino == d.st_ino)
        }
        if isSame(deck) {
            throw InkSaveError("\(shown) is the deck itself; give another name for the handout (the deck is never written)")
        }
        if let ink, isSame(ink) {
            throw InkSaveError("\(shown) is the file the ink is read from; give another name for the handout (it is never "
                               + "written by export)")
        }
        if outputExists {
            if o.st_mode & S_IFMT == S_IFDIR {
                throw InkSaveError("\(shown) is a directory; give the name of the PDF to write, e.g. \(shown)/handout.pdf")
            }
            guard force else {
                throw InkSaveError("\(shown) exists; add --force to replace it, or give another name")
            }
            guard o.st_mode & S_IFMT == S_IFREG else {
                throw InkSaveError("\(shown) is not a regular file (a FIFO, a device or a socket); give another name")
            }
        }
        let folder = output.deletingLastPathComponent().path
        var f = stat()
        guard stat(folder, &f) == 0, f.st_mode & S_IFMT == S_IFDIR else {
            throw InkSaveError("the folder \(PrintableText.name(folder)) does not exist; create it or write elsewhere")
        }
        guard access(folder, W_OK) == 0 else {
            throw InkSaveError("the folder \(PrintableText.name(folder)) cannot be written (\(String(cString: strerror(errno)))); "
                               + "write the handout elsewhere")
        }
    }

    /// Writes `deck` with `ink` (by slide index) as a handout at `output` (atomically: a failure leaves no file
    /// there and an older one unchanged); `size`: a Markdown deck's page size (nil: ``defaultSize``; a PDF deck
    /// keeps its own); `progress` is told each slide done (done, total).
    public static func write(_ deck: Deck, ink: [Int: [InkStroke]], to output: URL, size: PixelSize?, caches: DrawingCaches,
                             progress: (Int, Int) -> Void = { _, _ in }) throws(InkSaveError) -> Summary {
        guard !deck.slides.isEmpty else { throw InkSaveError("the deck has no slides; there is nothing to export") }
        if let pages = pdfPages(deck) { return try writePDF(deck, pages: pages, ink: ink, to: output, progress: progress) }
        let size = size ?? defaultSize
        guard sides.contains(size.width), sides.contains(size.height) else {
            throw InkSaveError("a page of \(size.width)×\(size.height) is not possible: each side must be "
                               + "\(sides.lowerBound)…\(sides.upperBound) pixels")
        }
        let canvas: SDLPresenterCanvas
        do { canvas = try SDLPresenterCanvas(size: size, caches: caches) } catch {
            throw InkSaveError("cannot make a canvas of \(size.width)×\(size.height) to draw the slides: \(error.description)")
        }
        let layout = PresenterLayout(metrics: canvas, theme: PresenterTheme())
        var pdf = HandoutPDF(title: deck.title)
        for index in deck.slides.indices {
            let list = layout.audience(deck, slideIndex: index, size: size, safeFrame: Rect(origin0: size))
            canvas.draw(list)
            let slide = Rect(origin0: size).fitting(aspect: deck.slides[index].aspect)
            pdf.addPage(rgba: canvas.canvas.readPixels().pixels, size: size, slide: slide, strokes: ink[index] ?? [],
                        slideNumber: index)
            progress(index + 1, deck.slides.count)
        }
        do { try AtomicFile.write(pdf.finished(), to: output) } catch { throw InkSaveError(error.description) }
        return Summary(pages: pdf.pageCount, strokes: pdf.strokeCount)
    }

    /// A PDF deck: the original's last overlay step of each slide, with the ink of all its steps.
    static func writePDF(_ deck: Deck, pages: [PDFPage], ink: [Int: [InkStroke]], to output: URL,
                         progress: (Int, Int) -> Void) throws(InkSaveError) -> Summary {
        guard let document = pages.first?.document, pages.allSatisfy({ $0.document == document }) else {
            throw InkSaveError("the deck's pages come from more than one file; it cannot be exported as one PDF")
        }
        let numbering = deck.numbering
        let slides = (0..<numbering.slideCount).map { numbering.pages(ofSlide: $0) }
        var merged: [Int: [InkStroke]] = [:]
        for (slide, range) in slides.enumerated() {
            let strokes = range.flatMap { ink[$0] ?? [] }
            if !strokes.isEmpty { merged[slide] = strokes }
        }
        let lastSteps = slides.compactMap(\.last)
        var source = document
        var kept = lastSteps.map { pages[$0] }
        var cleaned: URL?
        defer { if let cleaned { unlink(cleaned.path) } }
        if lastSteps.count < pages.count {
            // Only each slide's last step: a new file with those pages (MuPDF's `mutool clean`), then annotated.
            let temporary = output.deletingLastPathComponent()
                .appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).pages.pdf")
            cleaned = temporary
            let list = kept.map { String($0.index + 1) }.joined(separator: ",")
            let run: ToolProcess.Result
            do {
                run = try ToolProcess.run("mutool", ["clean", document.path, temporary.path, list],
                                          timeout: max(30, ToolLimits.current.mutool))
            } catch {
                throw InkSaveError("mutool could not be started to pick the last overlay of each slide (\(error.description)); "
                                   + "install mupdf-tools")
            }
            guard run.status == 0, !run.timedOut else {
                throw InkSaveError("mutool could not pick the last overlay of each slide of \(PrintableText.name(document.path))"
                                   + (run.timedOut ? " (it was stopped: too slow)" : ": \(PrintableText.line(run.errors, limit: 200))"))
            }
            source = temporary
            kept = kept.enumerated().map { position, page in
                var copy = page
                copy.document = temporary
                copy.index = position
                copy.pageCount = lastSteps.count
                return copy
            }
        }
        progress(slides.count, slides.count)
        let count = merged.values.reduce(0) { $0 + $1.count }
        if count == 0 {
            let bytes: [UInt8]
            do { bytes = try UntrustedFile.read(source, limit: Int.max) } catch {
                throw InkSaveError("\(error.description)")
            }
            do { try AtomicFile.write(Data(bytes), to: output) } catch { throw InkSaveError(error.description) }
            return Summary(pages: kept.count, strokes: 0)
        }
        let written = try InkAnnotationWriter.write(strokes: merged, pages: kept, to: output)
        return Summary(pages: kept.count, strokes: written.strokes, problems: written.problems)
    }
}
#endif
