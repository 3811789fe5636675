import Foundation

/// Speaker notes from pdfpc's `.pdfpc` file (the JSON format of pdfpc 4.5 and later, `"pdfpcFormat": 2`)
/// beside a PDF: `talk.pdf` → `talk.pdfpc`.
///
/// Read fields: `pages[].idx` (the 0-based page), `pages[].note`, `pages[].label` (the page label pdfpc groups
/// overlays by), and the top-level timing fields as pdfpc reads them: `duration` (minutes), `endTime` (`"HH:MM"`,
/// 24-hour, when the talk must end) and `lastMinutes` (the countdown warns in its last N minutes).
/// Anything else is ignored; a file that is not that JSON, or a field that cannot be used, becomes a diagnostic,
/// never an error.
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
    /// The talk's planned duration in minutes, if the file gives one (more than 0, at most 1440).
    public var durationMinutes: Double?
    /// When the talk must end (pdfpc's `endTime`), if the file gives a usable one.
    public var endTime: TimeOfDay?
    /// The countdown's last-minutes warning (pdfpc's `lastMinutes`, 1…1440), if the file gives a usable one.
    public var lastMinutes: Int?
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
        result.readTiming(file)
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

    /// The longest talk a `.pdfpc` file may plan: a day, in minutes.
    static let longestMinutes = 24 * 60

    /// `duration`, `endTime` and `lastMinutes`: each one that cannot be used is named (and its value, bounded and
    /// made printable) and dropped; the others are kept.
    private mutating func readTiming(_ file: FileShape) {
        func shown(_ value: FieldValue) -> String {
            switch value {
            case .number(let n): n.isFinite && n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)"
            case .text(let t): "\"" + TextSanitizer.line(String(t.prefix(24))) + (t.count > 24 ? "…\"" : "\"")
            case .other: "a value that is not a number or text"
            }
        }
        if let value = file.duration {
            if case .number(let minutes) = value, minutes.isFinite, minutes > 0, minutes <= Double(Self.longestMinutes) {
                durationMinutes = minutes
            } else {
                problems.append("duration \(shown(value)) is not a talk's length in minutes (more than 0, at most "
                                + "\(Self.longestMinutes)); the countdown does without it")
            }
        }
        if let value = file.endTime {
            if case .text(let text) = value, let time = TimeOfDay(parsing: text) {
                endTime = time
            } else {
                problems.append("endTime \(shown(value)) is not a time of day (HH:MM, 24-hour, e.g. \"14:30\"); "
                                + "the countdown does without it")
            }
        }
        if let value = file.lastMinutes {
            if case .number(let minutes) = value, minutes == minutes.rounded(), minutes >= 1,
               minutes <= Double(Self.longestMinutes) {
                lastMinutes = Int(minutes)
            } else {
                problems.append("lastMinutes \(shown(value)) is not a whole number of minutes from 1 to "
                                + "\(Self.longestMinutes); no last-minutes warning")
            }
        }
    }

    /// A timing field as found: a number, text, or anything else (a list, an object, true, null).
    private enum FieldValue: Decodable {
        case number(Double)
        case text(String)
        case other

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Double.self) {
                self = .number(n)
            } else if let t = try? c.decode(String.self) {
                self = .text(t)
            } else {
                self = .other
            }
        }
    }

    /// The fields read, each decoded on its own so one odd field does not lose the rest.
    private struct FileShape: Decodable {
        var duration: FieldValue?
        var endTime: FieldValue?
        var lastMinutes: FieldValue?
        var pages: [PageShape]?
        var pagesNotAList = false

        enum CodingKeys: String, CodingKey { case duration, endTime, lastMinutes, pages }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            duration = try? c.decodeIfPresent(FieldValue.self, forKey: .duration)
            endTime = try? c.decodeIfPresent(FieldValue.self, forKey: .endTime)
            lastMinutes = try? c.decodeIfPresent(FieldValue.self, forKey: .lastMinutes)
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
