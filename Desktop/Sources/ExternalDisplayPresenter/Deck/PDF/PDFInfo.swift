import Foundation

/// What poppler's `pdfinfo` says about a PDF: its page count and each page's size after rotation.
///
/// `pdfinfo` runs as a separate process (poppler is GPL and never links into the library). Every way a file can
/// fail becomes a ``DeckError`` saying what is wrong and what to do: not a PDF, damaged or truncated,
/// password-protected, no pages, tools missing.
///
/// ```swift
/// let info = try PDFInfo.read(URL(fileURLWithPath: "talk.pdf"))
/// info.pages.count  // 24
/// info.pages[0]     // (width: 1024, height: 576)
/// ```
public struct PDFInfo: Hashable, Sendable {
    /// Each page's width and height in points, after its `/Rotate`.
    public var pages: [PageSize]
    /// Each page's rotation as poppler shows it: 0, 90, 180 or 270 (any other `/Rotate` poppler reports counts
    /// as 0, as it is drawn unturned); empty when not read.
    public var rotations: [Int]

    /// A page's size in points.
    public struct PageSize: Hashable, Sendable {
        /// Width in points.
        public var width: Double
        /// Height in points.
        public var height: Double

        /// Creates a size.
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// Creates the info.
    public init(pages: [PageSize], rotations: [Int] = []) {
        self.pages = pages
        self.rotations = rotations
    }

    /// The first bytes every PDF starts with.
    public static let header = Data("%PDF-".utf8)

    /// Whether the file starts with a PDF header (`%PDF-`), whatever its name.
    ///
    /// Only the very first bytes count: a Markdown deck that mentions `%PDF-` in its text stays Markdown.
    /// (Readers may accept a header later in the first kilobyte; every exporter writes it first.)
    public static func looksLikePDF(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: header.count)) ?? Data()
        return start == header
    }

    /// Reads the page count and sizes with `pdfinfo`.
    public static func read(_ url: URL) throws(DeckError) -> PDFInfo {
        let path = url.path
        let summary = try pdfinfo(["-enc", "UTF-8", path], path: path)
        guard let count = field("Pages", in: summary).flatMap({ Int($0) }) else {
            throw DeckError(path: path, reason: "is a PDF that pdfinfo could not read (no page count); re-export it")
        }
        guard count > 0 else {
            throw DeckError(path: path, reason: "is a PDF with no pages; export the talk again with its slides")
        }
        let detail = try pdfinfo(["-f", "1", "-l", String(count), path], path: path)
        return PDFInfo(pages: parsePageSizes(detail, count: count), rotations: parseRotations(detail, count: count))
    }

    /// Per-page sizes from `pdfinfo -f 1 -l N` (`Page    3 size: 720 x 405 pts`, `Page    3 rot:  90`); a page
    /// not listed takes the previous page's size.
    static func parsePageSizes(_ text: String, count: Int) -> [PageSize] {
        var sizes: [Int: PageSize] = [:]
        var rotations: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard words.count >= 3, words[0] == "Page", let n = Int(words[1]) else { continue }
            if words[2] == "size", words.count >= 6, let w = Double(words[3]), let h = Double(words[5]),
               w.isFinite, h.isFinite, w > 0, h > 0 {
                sizes[n] = PageSize(width: w, height: h)
            } else if words[2] == "rot", let r = Int(words[3]) {
                rotations[n] = r
            }
        }
        var result: [PageSize] = []
        var last = PageSize(width: 1024, height: 768)
        for n in 1...max(1, count) {
            var size = sizes[n] ?? last
            last = size
            if let r = rotations[n], abs(r) % 180 == 90 { size = PageSize(width: size.height, height: size.width) }
            result.append(size)
        }
        return result
    }

    /// Per-page rotations from `pdfinfo -f 1 -l N` (`Page    3 rot:  90`), normalised to 0, 90, 180 or 270; a page
    /// not listed, or turned by an angle that is not a multiple of 90, is 0.
    static func parseRotations(_ text: String, count: Int) -> [Int] {
        let listed = InkPageGeometry.rotations(text)
        return (1...max(1, count)).map { n in
            let r = ((listed[n] ?? 0) % 360 + 360) % 360
            return r % 90 == 0 ? r : 0
        }
    }

    static func field(_ name: String, in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    private static func pdfinfo(_ arguments: [String], path: String) throws(DeckError) -> String {
        let limits = ToolLimits.current
        let result: ToolProcess.Result
        do {
            result = try ToolProcess.run("pdfinfo", arguments, timeout: limits.pdfinfo, outputLimit: limits.pdfinfoOutput)
        } catch {
            throw DeckError(path: path, reason: "cannot be read: \(error.description); install poppler-utils")
        }
        if result.status == 127 {
            throw DeckError(path: path, reason: "is a PDF, and PDF decks need poppler's pdfinfo and pdftoppm: "
                                + "install poppler-utils (scripts/install-deps.sh)")
        }
        if result.timedOut {
            throw DeckError(path: path, reason: "is a PDF pdfinfo could not read within "
                                + "\(ToolLimits.describe(limits.pdfinfo)) (it was stopped); check that the file is "
                                + "complete and on a local disk, or re-export it")
        }
        if result.outputTruncated {
            throw DeckError(path: path, reason: "is a PDF whose pdfinfo output passed "
                                + "\(limits.pdfinfoOutput >> 20) MiB (it was stopped); re-export it")
        }
        guard result.status == 0 else { throw explain(result.errors, path: path) }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// A clear reason from what `pdfinfo` printed when it failed.
    static func explain(_ errors: String, path: String) -> DeckError {
        let firstLine = errors.split(separator: "\n").first.map(String.init) ?? "no message"
        if errors.contains("Incorrect password") {
            return DeckError(path: path, reason: "is encrypted with a password; save an unprotected copy "
                                 + "(e.g. qpdf --decrypt --password=PASSWORD in.pdf out.pdf) and present that")
        }
        if errors.contains("Invalid page count 0") || errors.contains("the last page (0)") {
            return DeckError(path: path, reason: "is a PDF with no pages; export the talk again with its slides")
        }
        if !endsWithEOFMarker(path) {
            return DeckError(path: path, reason: "is a truncated PDF (it does not end with %%EOF; pdfinfo: "
                                 + "\(firstLine)); copy or export it again")
        }
        return DeckError(path: path, reason: "is a damaged PDF (pdfinfo: \(firstLine)); export it again")
    }

    /// Whether `%%EOF` appears in the file's last kilobyte, as in every complete PDF.
    static func endsWithEOFMarker(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd() else { return false }
        try? handle.seek(toOffset: end > 1024 ? end - 1024 : 0)
        let tail = (try? handle.readToEnd()) ?? Data()
        return tail.range(of: Data("%%EOF".utf8)) != nil
    }
}
