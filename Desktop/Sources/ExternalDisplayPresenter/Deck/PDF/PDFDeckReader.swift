import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopProcesses
import DesktopText
import SDLWindows
import Foundation

/// Where a Beamer deck made with `show notes on second screen` puts the notes on each page:
/// `--notes right|left|bottom`.
public enum BeamerNotes: String, Hashable, Sendable, CaseIterable {
    /// Notes on the right half, the slide on the left.
    case right
    /// Notes on the left half, the slide on the right.
    case left
    /// Notes on the bottom half, the slide on the top.
    case bottom

    /// The part that is the slide.
    var slidePart: PDFPage.Part {
        switch self {
        case .right: .left
        case .left: .right
        case .bottom: .top
        }
    }

    /// The part that holds the notes.
    var notesPart: PDFPage.Part {
        switch self {
        case .right: .right
        case .left: .left
        case .bottom: .bottom
        }
    }
}

/// Reads a PDF deck: one slide per page (sizes from `pdfinfo`), notes from the `.pdfpc` file beside it and,
/// with `beamerNotes`, from the notes half of each Beamer split page; each page's video clips from its movie,
/// screen and link annotations (``PDFClipReader``).
///
/// ```swift
/// let deck = try PDFDeckReader.read(URL(fileURLWithPath: "talk.pdf"))
/// deck.slides[0].pdfPage?.index // 0
/// ```
public enum PDFDeckReader {
    /// Reads the deck, or says precisely why it cannot be presented.
    public static func read(_ url: URL, beamerNotes: BeamerNotes? = nil) throws(DeckError) -> Deck {
        let version = FileSignature(of: url)
        let info = try PDFInfo.read(url)
        let file = url.lastPathComponent
        let notesURL = PdfpcNotes.companion(of: url)
        var pdfpc = PdfpcNotes()
        var diagnostics: [DeckDiagnostic] = []
        if FileManager.default.fileExists(atPath: notesURL.path) {
            // Read as untrusted: a FIFO, device or directory under that name is refused by kind (a FIFO would
            // block the start for ever), a huge file by size, a stalled share by time.
            do {
                pdfpc = PdfpcNotes.parse(Data(try UntrustedFile.read(notesURL, limit: PdfpcNotes.fileLimit)))
            } catch {
                pdfpc.problems.append("\(error.reason); notes from it are not shown")
            }
            for problem in pdfpc.problems {
                diagnostics.append(DeckDiagnostic(file: notesURL.lastPathComponent, slide: 1, line: 1, message: problem))
            }
            for index in pdfpc.notes.keys.sorted() where index >= info.pages.count {
                diagnostics.append(DeckDiagnostic(file: notesURL.lastPathComponent, slide: index + 1, line: 1,
                    message: "a note for page \(index + 1), but the PDF has \(info.pages.count) pages; not shown"))
            }
        }
        let labels = pageLabels(url, pageCount: info.pages.count, pdfpc: pdfpc, diagnostics: &diagnostics)
        let clips = PDFClipReader.read(url, pageCount: info.pages.count)
        for problem in clips.problems {
            diagnostics.append(DeckDiagnostic(file: file, slide: problem.page + 1, line: 1, message: problem.message))
        }
        let slides = info.pages.enumerated().map { index, size in
            var page = PDFPage(document: url.standardizedFileURL, index: index, width: size.width, height: size.height,
                               part: beamerNotes?.slidePart ?? .whole, notesPart: beamerNotes?.notesPart,
                               pageCount: info.pages.count, label: labels[index], version: version,
                               clips: clips.clips[index] ?? [])
            page.rotation = info.rotations.indices.contains(index) ? info.rotations[index] : 0
            return Slide(number: index + 1, line: 1, title: nil, blocks: [.page(page)],
                         notes: pdfpc.notes[index].map(PdfpcNotes.paragraphs) ?? [])
        }
        let name = TextSanitizer.line((file as NSString).deletingPathExtension)
        return Deck(title: name.isEmpty ? "PDF deck" : name, slides: slides, diagnostics: diagnostics,
                    baseDirectory: url.deletingLastPathComponent())
    }

    /// Each page's label: from the `.pdfpc` file where it gives one (pdfpc saves the speaker's own overlay
    /// marks there), else from the PDF's `/PageLabels`.
    static func pageLabels(_ url: URL, pageCount: Int, pdfpc: PdfpcNotes,
                           diagnostics: inout [DeckDiagnostic]) -> [String?] {
        let read = PageLabelReader.read(url, pageCount: pageCount)
        if let problem = read.problem {
            diagnostics.append(DeckDiagnostic(file: url.lastPathComponent, slide: 1, line: 1, message: problem))
        }
        // The PDF's labels are text from the file: cleaned like every label and note (TextSanitizer).
        var labels = read.labels?.map { $0.map(TextSanitizer.line) } ?? [String?](repeating: nil, count: pageCount)
        for (index, label) in pdfpc.labels where labels.indices.contains(index) { labels[index] = TextSanitizer.line(label) }
        return labels
    }
}
