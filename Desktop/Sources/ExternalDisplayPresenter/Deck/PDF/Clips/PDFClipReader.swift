import Foundation

/// Reads the video clips of a PDF's pages — movie annotations, screen annotations with a rendition action, and
/// links that launch or point at a local video file (pdfpc's route, with its `?autostart&loop…` options) — with
/// MuPDF's `mutool show -g` in a separate process (no AGPL or GPL code links). Each clip's place is its
/// annotation's `/Rect` in fractions of the page as shown (``PageGeometry``).
///
/// Hostile input ends in diagnostics, never a trap or a hang: reference loops, huge arrays, odd numbers and types,
/// missing and non-video files each get a sentence; at most ``objectLimit`` objects are fetched and ``problemLimit``
/// problems reported.
///
/// ```swift
/// let read = PDFClipReader.read(URL(fileURLWithPath: "talk.pdf"), pageCount: 12)
/// read.clips[3]       // [SlideClip(url: /talk/demo.webm, pageRect: (0.1, 0.2, 0.5, 0.4), autoplay: true, …)]
/// read.problems.first // Problem(page: 5, message: "link: its video intro.mp4 does not exist (…); not played")
/// ```
public enum PDFClipReader {
    /// A problem with one annotation (or with the whole reading: page 0).
    public struct Problem: Hashable, Sendable {
        /// The page (0-based) it is on.
        public var page: Int
        /// What is wrong and what happens instead.
        public var message: String
    }

    /// What was read.
    public struct Outcome: Hashable, Sendable {
        /// The clips of each page (0-based) that has any, in the order the page lists its annotations.
        public var clips: [Int: [SlideClip]] = [:]
        /// What could not be played, and why.
        public var problems: [Problem] = []
    }

    /// Most indirect objects fetched for one PDF.
    static let objectLimit = 50_000
    /// Most annotations looked at in one PDF (Beamer's navigation links are a few per page).
    static let annotationLimit = 20_000
    /// Most problems reported for one PDF; the rest are counted in one last line.
    static let problemLimit = 50

    /// The clips of `url`, a PDF of `pageCount` pages. `mutool` runs at most `timeout` seconds each time and
    /// `outputLimit` bytes of its output are read (defaults: ``ToolLimits``); a run that passes either leaves the
    /// talk without clips and says so. Without `mutool` there are no clips.
    public static func read(_ url: URL, pageCount: Int, timeout: Double? = nil, outputLimit: Int? = nil) -> Outcome {
        let show = MutoolShow(url, timeout: timeout, outputLimit: outputLimit)
        var outcome = clips(pageCount: pageCount, folder: url.deletingLastPathComponent().standardizedFileURL,
                            show: show.callAsFunction)
        if let stopped = show.stopped {
            outcome = Outcome(problems: [Problem(page: 0, message: "its videos were not read: \(stopped); the talk "
                                                    + "plays no videos")])
        }
        return outcome
    }

    /// The clips, with `show` printing objects like `mutool show -g FILE PATH…` (nil when it fails); relative file
    /// names resolve against `folder`.
    static func clips(pageCount: Int, folder: URL, show: @escaping ([String]) -> String?) -> Outcome {
        guard pageCount > 0, let listing = show(["pages/*/Annots"]) else { return Outcome() }
        let store = PDFObjectStore(limit: objectLimit, show: show)
        // One line per page: `null`, an array, or `N 0 obj [...]` when the array is an object of its own.
        let lines = listing.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }
        guard lines.count == pageCount else {
            return Outcome(problems: [Problem(page: 0, message: "its videos were not read: mutool listed "
                                                  + "\(lines.count) pages' annotations for \(pageCount) pages")])
        }
        let annotationLists: [PDFObject?] = lines.map { line in
            let text = String(line)
            if let shown = store.add(text).first { return shown.value }
            var parser = PDFObject.Parser(text)
            return parser.value()
        }
        var outcome = Outcome()
        var report = Reporter()
        // Pass 1: each page's annotations, read until no object they need is missing.
        var requests: [Int: [ClipRequest]] = [:]
        var tooMany = false
        settle(store) {
            requests = [:]
            tooMany = false
            var seen = 0
            for (page, list) in annotationLists.enumerated() {
                guard case .array(let items)? = store.resolve(list) else { continue }
                for item in items {
                    seen += 1
                    guard seen <= annotationLimit else {
                        tooMany = true
                        break
                    }
                    guard let annotation = store.dictionary(item),
                          let request = ClipRequest.read(annotation, store: store) else { continue }
                    requests[page, default: []].append(request)
                }
            }
        }
        if tooMany {
            report.add(Problem(page: 0, message: "it has over \(annotationLimit) annotations; videos after the first "
                                   + "\(annotationLimit) are not read"))
        }
        // Pass 2: the geometry of the pages with requests (boxes and rotation are inherited from the page tree).
        let pages = requests.keys.sorted()
        var pageObjects: [Int: PDFObject] = [:]
        for start in stride(from: 0, to: pages.count, by: PDFObjectStore.batch) {
            let batch = Array(pages[start..<min(pages.count, start + PDFObjectStore.batch)])
            guard let text = show(batch.map { "pages/\($0 + 1)" }) else { break }
            let shown = store.add(text)
            guard shown.count == batch.count else { break }
            for (page, entry) in zip(batch, shown) { pageObjects[page] = entry.value }
        }
        var geometries: [Int: PageGeometry] = [:]
        settle(store) {
            geometries = pageObjects.compactMapValues { geometry(of: $0, store: store) }
        }
        if store.sawLoop {
            report.add(Problem(page: 0, message: "its objects refer to each other in a loop; what the loop holds is "
                                   + "not read"))
        }
        if let problem = store.problem {
            report.add(Problem(page: 0, message: "its videos were not all read: \(problem)"))
        }
        for page in pages {
            for request in requests[page] ?? [] {
                let said = { (message: String) in
                    report.add(Problem(page: page, message: "\(request.kind): \(message)"))
                }
                guard let target = request.target else {
                    request.problems.forEach(said)
                    continue
                }
                let located = ClipLocator.locate(target, options: request.options, certain: request.certain,
                                                 folder: folder)
                guard case .clip(let url, let options, let optionProblems) = located else {
                    if case .problem(let message) = located { said(message) }
                    continue
                }
                (request.problems + optionProblems).forEach(said)
                guard let pageGeometry = geometries[page] else {
                    said("its page's size could not be read; not played")
                    continue
                }
                guard let rect = request.rect, let fraction = pageGeometry.fraction(of: rect) else {
                    said("its rectangle \(describe(request.rect)) is not on the page; not played")
                    continue
                }
                outcome.clips[page, default: []].append(
                    SlideClip(url: url, pageRect: fraction, autoplay: options.autoplay, loops: options.loops,
                              muted: options.muted, start: options.start, stop: options.stop))
            }
        }
        outcome.problems = report.finished()
        return outcome
    }

    /// Runs `pass` until the objects it needs are all fetched (or the store gives up), at most 32 times.
    private static func settle(_ store: PDFObjectStore, _ pass: () -> Void) {
        pass()
        for _ in 0..<32 where store.fetchMissing() { pass() }
    }

    /// A page's visible box and rotation, from it or the nearest ancestor in the page tree that has them.
    static func geometry(of page: PDFObject, store: PDFObjectStore) -> PageGeometry? {
        guard let page = store.dictionary(page) else { return nil }
        func inherited(_ key: String) -> PDFObject? { store.inherited(key, from: page) }
        let box = { (key: String) in ClipRequest.numbers(inherited(key), store: store).flatMap(PageGeometry.rectangle) }
        let rotation = store.number(inherited("Rotate")).flatMap { $0 == $0.rounded() && abs($0) < 1e6 ? Int($0) : nil }
        return PageGeometry(box: PageGeometry.visibleBox(mediaBox: box("MediaBox"), cropBox: box("CropBox")),
                            rotation: rotation ?? 0)
    }

    static func describe(_ rect: [Double]?) -> String {
        guard let rect else { return "(not 4 numbers)" }
        return "[" + rect.map(ClipOptions.describe).joined(separator: " ") + "]"
    }

    /// Collects problems up to ``problemLimit``, then counts the rest.
    private struct Reporter {
        var problems: [Problem] = []
        var dropped = 0

        mutating func add(_ problem: Problem) {
            if problems.count < problemLimit { problems.append(problem) } else { dropped += 1 }
        }

        func finished() -> [Problem] {
            guard dropped > 0 else { return problems }
            return problems + [Problem(page: 0, message: "\(dropped) more problems with its videos are not listed")]
        }
    }
}
