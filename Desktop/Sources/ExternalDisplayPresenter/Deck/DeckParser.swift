import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import Foundation

/// Reads Markdown slides: slides are separated by lines of `---`; `#` titles, paragraphs, `-` bullets nested
/// once (two spaces or a tab), inline `code`, images `![alt](file.png)` relative to the deck, and speaker notes
/// after a line `Note:`.
///
/// Bad input never stops the deck: each problem becomes a ``DeckDiagnostic`` naming the slide and line, and the
/// deck keeps everything that can be shown.
///
/// ```swift
/// let deck = DeckParser.parse("# Hello\n- one\n  - nested\nNote:\nsay hi", file: "talk.md")
/// deck.slides[0].notes // ["say hi"]
/// ```
public enum DeckParser {
    /// Reads and parses a deck file; images resolve against its folder. A file that starts with `%PDF-` is a
    /// PDF deck whatever its name (``PDFDeckReader``; `beamerNotes` says where split pages keep their notes);
    /// a `.pdf` that is not a PDF is refused. The file is read as untrusted: a regular file only (a directory,
    /// FIFO or device is refused by name), a Markdown deck at most `ExternalDisplaySDL/UntrustedFile/deckLimit`
    /// bytes, within a timeout. Each image is checked with `imageProblem` (default: decoded once) so that an
    /// unreadable one is reported with its slide and line.
    public static func parse(contentsOf url: URL, beamerNotes: BeamerNotes? = nil,
                             imageProblem: @escaping (URL) -> String? = DeckParser.decodeProblem) throws(DeckError) -> Deck {
        var deck = try read(url, beamerNotes: beamerNotes, imageProblem: imageProblem)
        deck.file = url
        return deck
    }

    private static func read(_ url: URL, beamerNotes: BeamerNotes?,
                             imageProblem: @escaping (URL) -> String?) throws(DeckError) -> Deck {
        let bytes: [UInt8]
        do { bytes = try UntrustedFile.read(url, limit: UntrustedFile.deckLimit) } catch {
            if case .missing = error {
                throw DeckError(path: url.path, reason: "does not exist; give the path of a Markdown deck, "
                                    + "e.g. Examples/Decks/ExternalDisplayKit.md")
            }
            // A regular file over the Markdown limit may still be a PDF (the kind was checked before the size).
            if case .tooLarge = error, PDFInfo.looksLikePDF(url) {
                return try PDFDeckReader.read(url, beamerNotes: beamerNotes)
            }
            throw DeckError(path: url.path, reason: error.reason)
        }
        if bytes.starts(with: Array("%PDF-".utf8)) { return try PDFDeckReader.read(url, beamerNotes: beamerNotes) }
        if url.pathExtension.lowercased() == "pdf" {
            throw DeckError(path: url.path, reason: "is named .pdf but is not a PDF (it does not start with %PDF-); "
                                + "export the talk as PDF again, or rename a Markdown deck to .md")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DeckError(path: url.path, reason: "is not UTF-8 text; save the deck as UTF-8 Markdown")
        }
        var seen: [URL: String?] = [:]
        let check = { (image: URL) -> String? in
            if let known = seen[image] { return known }
            let problem = imageProblem(image)
            seen[image] = .some(problem)
            return problem
        }
        return parse(text, file: url.lastPathComponent, baseDirectory: url.deletingLastPathComponent(),
                     imageProblem: check)
    }

    /// Why an image file cannot be shown, by decoding it (nil when it decodes), without keeping the pixels
    /// (a run keeps them in its ``DrawingCaches``: pass ``DrawingCaches/imageProblem`` instead).
    public static func decodeProblem(_ url: URL) -> String? {
        imageProblem(url, in: DecodedImages())
    }

    /// Why an image file cannot be shown, decoded into `images`.
    static func imageProblem(_ url: URL, in images: DecodedImages) -> String? {
        switch images.bitmap(url) {
        case .success: return nil
        case .failure(.unreadableImage(_, let reason)): return reason
        case .failure(let error): return error.description
        }
    }

    /// Parses deck text. `file` names the deck in diagnostics; images resolve against `baseDirectory` (the
    /// current directory when nil); `fileExists` decides whether an image is there.
    public static func parse(_ text: String, file: String = "deck", baseDirectory: URL? = nil,
                             fileExists: @escaping (URL) -> Bool = { FileManager.default.fileExists(atPath: $0.path) },
                             imageProblem: @escaping (URL) -> String? = { _ in nil })
        -> Deck {
        let base = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        // Titles, text and notes are shown and printed: no control character or escape sequence of the file's
        // reaches the terminal (newlines and tabs, which the syntax uses, are kept).
        let chunks = split(TextSanitizer.text(text))
        var slides: [Slide] = []
        var diagnostics: [DeckDiagnostic] = []
        for (position, chunk) in chunks.enumerated() {
            var reader = SlideReader(number: position + 1, startLine: chunk.startLine, file: file,
                                     base: base, fileExists: fileExists, imageProblem: imageProblem)
            for (lineNumber, line) in chunk.lines { reader.read(line, at: lineNumber) }
            let slide = reader.finish()
            diagnostics += reader.diagnostics
            if reader.isEmpty {
                let isEdge = position == 0 || position == chunks.count - 1
                if !isEdge {
                    diagnostics.append(DeckDiagnostic(file: file, slide: position + 1, line: chunk.startLine,
                                                      message: "the slide is empty; it is skipped"))
                }
                continue
            }
            slides.append(slide)
        }
        if slides.isEmpty {
            diagnostics.append(DeckDiagnostic(file: file, slide: 1, line: 1,
                message: "the deck has no slides; write Markdown with slides separated by lines of ---"))
        }
        let fallback = (file as NSString).deletingPathExtension
        let title = slides.first?.title.map(InlineRun.plainText) ?? (fallback.isEmpty ? "Untitled deck" : fallback)
        return Deck(title: title, slides: slides, diagnostics: diagnostics, baseDirectory: base)
    }

    /// The source split at separator lines: each chunk with the line number it starts on.
    static func split(_ text: String) -> [(startLine: Int, lines: [(Int, String)])] {
        var chunks: [(startLine: Int, lines: [(Int, String)])] = [(1, [])]
        // "\r\n" is one Character in Swift: normalise line ends before splitting.
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, raw) in lines.enumerated() {
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            let number = offset + 1
            if isSeparator(line) {
                chunks.append((number + 1, []))
            } else {
                chunks[chunks.count - 1].lines.append((number, line))
            }
        }
        return chunks
    }

    /// A line of three or more dashes and nothing else (surrounding spaces allowed).
    static func isSeparator(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count >= 3 && trimmed.allSatisfy { $0 == "-" }
    }
}

/// A deck file that could not be read at all.
public struct DeckError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path given.
    public var path: String
    /// Why it could not be read.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `"deck PATH REASON"`.
    public var description: String { "deck \(TextSanitizer.line(path)) \(reason)" }
}
