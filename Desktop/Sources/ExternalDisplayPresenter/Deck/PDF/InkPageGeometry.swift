import Foundation

/// Where ink goes on the pages of a PDF, for ``InkAnnotationWriter`` and ``InkAnnotationReader``: each page's
/// visible box (its CropBox clipped to its MediaBox) and its `/Rotate`, from the page or the nearest ancestor in the
/// page tree that has them (``PageGeometry``). The slide the speaker draws on is the page as poppler shows it
/// (`pdftoppm -cropbox`), so the rotation MuPDF's `mutool show` reads is checked against poppler's (`pdfinfo`'s
/// `Page N rot`). A `/Rotate` that is not a number, not a whole multiple of 90, or that the two read differently (a
/// number past what either holds, a real like `90.0` that poppler ignores) gives a problem for that page instead:
/// viewers disagree on how such a page is shown, so ink placed on it would not be where it was drawn.
///
/// ```swift
/// let placed = InkPageGeometry.read(url, pageObjects: [0: 4, 2: 9], show: MutoolShow(url))
/// placed[0]  // .page(PageGeometry(box: (0, 0, 800, 600), rotation: 90))
/// placed[2]  // .problem("its /Rotate 45 is not a multiple of 90, …")
/// ```
enum InkPageGeometry: Sendable {
    /// The page's geometry.
    case page(PageGeometry)
    /// Why ink cannot be placed on the page (a phrase about "its /Rotate …", to follow "page N of FILE: ").
    case problem(String)

    /// Most objects fetched to walk the page tree.
    static let objectLimit = 4_096

    /// The geometry of the pages of `document` whose object numbers `pageObjects` gives by page index (0-based).
    static func read(_ document: URL, pageObjects: [Int: Int], show: MutoolShow) -> [Int: InkPageGeometry] {
        guard !pageObjects.isEmpty else { return [:] }
        let store = PDFObjectStore(limit: objectLimit) { show($0) }
        var out: [Int: InkPageGeometry] = [:]
        func pass() {
            out = [:]
            for (index, number) in pageObjects {
                guard let page = store.dictionary(.reference(number)) else { continue }
                out[index] = placement(page, store: store)
            }
        }
        pass()
        for _ in 0..<32 where store.fetchMissing() { pass() }
        if store.sawLoop || store.problem != nil || store.hasMissing {
            let why = store.problem ?? (store.sawLoop ? "its objects refer to each other in a loop" : "mutool stopped")
            return pageObjects.mapValues { _ in .problem("its page tree could not be read (\(why)); export the PDF again") }
        }
        // Poppler's rotation: the one the slides are shown with.
        let indices = pageObjects.keys.sorted()
        let poppler = popplerRotations(document, first: (indices.first ?? 0) + 1, last: (indices.last ?? 0) + 1)
        for (index, placed) in out {
            guard case .page(let geometry) = placed, let theirs = poppler[index + 1] else { continue }
            let normalised = ((theirs % 360) + 360) % 360
            if normalised != geometry.rotation {
                out[index] = .problem("its /Rotate is read as \(geometry.rotation)° by MuPDF and \(theirs)° by poppler "
                                      + "(a number too large, or not a whole number), so viewers show it differently and "
                                      + "its ink is not saved; set it to 0, 90, 180 or 270 (qpdf --rotate=90:\(index + 1) "
                                      + "in.pdf out.pdf) and present that copy")
            }
        }
        return out
    }

    /// A page's geometry from its dictionary, its box and rotation inherited through `store`.
    static func placement(_ page: [String: PDFObject], store: PDFObjectStore) -> InkPageGeometry {
        func inherited(_ key: String) -> PDFObject? { store.inherited(key, from: page) }
        let box = { (key: String) in ClipRequest.numbers(inherited(key), store: store).flatMap(PageGeometry.rectangle) }
        let visible = PageGeometry.visibleBox(mediaBox: box("MediaBox"), cropBox: box("CropBox"))
        let fix = "set it to 0, 90, 180 or 270 (e.g. qpdf --rotate=90:N in.pdf out.pdf, N the page) and present that copy"
        switch store.resolve(inherited("Rotate")) {
        case nil:
            return .page(PageGeometry(box: visible, rotation: 0))
        case .number(let n)?:
            guard n.isFinite, n == n.rounded(), abs(n) <= Double(Int32.max) else {
                return .problem("its /Rotate \(InkAnnotationWriter.number(n)) is not a whole number of degrees that "
                                + "viewers agree on, so its ink is not saved; \(fix)")
            }
            let degrees = Int(n)
            guard degrees % 90 == 0 else {
                return .problem("its /Rotate \(degrees) is not a multiple of 90 (viewers show such a page differently), "
                                + "so its ink is not saved; \(fix)")
            }
            return .page(PageGeometry(box: visible, rotation: degrees))
        case let other?:
            return .problem("its /Rotate is not a number (\(InkAnnotationWriter.serialize(other).prefix(40))), so its ink "
                            + "is not saved; \(fix)")
        }
    }

    /// Poppler's rotation of pages `first…last` (1-based) by page number, from `pdfinfo -f first -l last`
    /// (`Page    3 rot:  90`); empty when pdfinfo cannot tell (then MuPDF's reading stands alone).
    static func popplerRotations(_ document: URL, first: Int, last: Int) -> [Int: Int] {
        let limits = ToolLimits.current
        guard first >= 1, last >= first,
              let result = try? ToolProcess.run("pdfinfo", ["-f", String(first), "-l", String(last), document.path],
                                                timeout: limits.pdfinfo, outputLimit: limits.pdfinfoOutput),
              result.status == 0, !result.timedOut, !result.outputTruncated else { return [:] }
        return rotations(String(decoding: result.output, as: UTF8.self))
    }

    /// `Page N rot: R` lines of pdfinfo's output, by page number.
    static func rotations(_ text: String) -> [Int: Int] {
        var out: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard words.count >= 4, words[0] == "Page", let n = Int(words[1]), words[2] == "rot",
                  let r = Int(words[3]) else { continue }
            out[n] = r
        }
        return out
    }
}
