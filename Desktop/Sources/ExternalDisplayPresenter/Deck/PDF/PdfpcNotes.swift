import Foundation

/// Speaker notes from pdfpc's `.pdfpc` file (the JSON format of pdfpc 4.5 and later, `"pdfpcFormat": 2`)
/// beside a PDF: `talk.pdf` → `talk.pdfpc`.
///
/// Read fields: `pages[].idx` (the 0-based page), `pages[].note`, `pages[].label` (the page label pdfpc groups
/// overlays by), and the top-level `duration` (minutes).
/// Anything else is ignored; a file that is not that JSON becomes a diagnostic, never an error.
///
/// ```swift
/// let notes = PdfpcNotes.parse(Data(#"{"pdfpcFormat":2,"pages":[{"idx":0,"note":"Hello"}]}"#.utf8))
/// notes.notes[0] // "Hello"
/// ```
public struct PdfpcNotes: Hashable, Sendable {
    /// Notes by 0-based page index.
    public var notes: [Int: String] = [:]
    /// Page labels by 0-based page index (pages sharing a label are overlays of one slide).
    public var labels: [Int: String] = [:]
    /// The talk's planned duration in minutes, if the file gives one.
    public var durationMinutes: Double?
    /// What could not be read.
    public var problems: [String] = []

    /// Creates notes.
    public init(notes: [Int: String] = [:], durationMinutes: Double? = nil, problems: [String] = []) {
        self.notes = notes
        self.durationMinutes = durationMinutes
        self.problems = problems
    }

    /// The largest `.pdfpc` file read: 16 MiB (notes for thousands of pages); a bigger one is refused.
    public static let fileLimit = 16 << 20

    /// The `.pdfpc` file beside a PDF (same name, extension `.pdfpc`).
    public static func companion(of pdf: URL) -> URL {
        pdf.deletingPathExtension().appendingPathExtension("pdfpc")
    }

    /// Parses a `.pdfpc` file's bytes.
    public static func parse(_ data: Data) -> PdfpcNotes {
        guard let file = try? JSONDecoder().decode(FileShape.self, from: data) else {
            let text = String(decoding: data.prefix(64), as: UTF8.self)
            let hint = text.hasPrefix("[") ? " (it looks like the format of pdfpc before 4.5; open and save it "
                + "with a newer pdfpc)" : ""
            return PdfpcNotes(problems: ["not pdfpc JSON\(hint); notes from it are not shown"])
        }
        var result = PdfpcNotes()
        if let minutes = file.duration, minutes.isFinite, minutes > 0 { result.durationMinutes = minutes }
        if file.pagesNotAList { result.problems.append("\"pages\" is not a list; no notes read") }
        for (position, page) in (file.pages ?? []).enumerated() {
            guard page.isObject else {
                result.problems.append("pages[\(position)] is not an object; skipped")
                continue
            }
            guard let idx = page.idx, idx >= 0, idx < 10_000_000 else {
                result.problems.append("pages[\(position)] has no usable \"idx\"; skipped")
                continue
            }
            // Nothing from the file reaches the terminal or the screen raw (escape sequences, BEL…).
            if let label = page.label.map(TextSanitizer.line), !label.isEmpty, result.labels[idx] == nil {
                result.labels[idx] = label
            }
            guard let note = page.note.map(TextSanitizer.text), !note.isEmpty else { continue }
            // pdfpc repeats a note on each overlay of a slide; keep the first text for a page.
            if result.notes[idx] == nil { result.notes[idx] = note }
        }
        return result
    }

    /// The fields read, each decoded on its own so one odd field does not lose the rest.
    private struct FileShape: Decodable {
        var duration: Double?
        var pages: [PageShape]?
        var pagesNotAList = false

        enum CodingKeys: String, CodingKey { case duration, pages }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            duration = try? c.decodeIfPresent(Double.self, forKey: .duration)
            if c.contains(.pages) {
                pages = try? c.decode([PageShape].self, forKey: .pages)
                pagesNotAList = pages == nil
            }
        }
    }

    private struct PageShape: Decodable {
        var idx: Int?
        var note: String?
        var label: String?
        var isObject = true

        enum CodingKeys: String, CodingKey { case idx, note, label }

        init(from decoder: any Decoder) throws {
            guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
                isObject = false
                return
            }
            idx = try? c.decodeIfPresent(Int.self, forKey: .idx)
            note = try? c.decodeIfPresent(String.self, forKey: .note)
            label = (try? c.decodeIfPresent(String.self, forKey: .label))
                ?? (try? c.decodeIfPresent(Int.self, forKey: .label)).map { String($0) }
        }
    }

    /// A note's paragraphs (split at blank lines), as the console shows them.
    public static func paragraphs(_ note: String) -> [String] {
        note.replacingOccurrences(of: "\r\n", with: "\n")
            .components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
            .filter { !$0.isEmpty }
    }
}
