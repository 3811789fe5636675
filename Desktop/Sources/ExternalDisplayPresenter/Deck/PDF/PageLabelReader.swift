import Foundation

/// Reads a PDF's page labels with MuPDF's `mutool show -g` (Debian `mupdf-tools`), run as a separate process
/// so no AGPL or GPL code links into the library; the number tree it prints is walked and turned into labels
/// by ``PageLabels``.
///
/// Without `mutool`, or for a PDF without `/PageLabels`, every page is a slide of its own numbered 1, 2, 3…
///
/// ```swift
/// let read = PageLabelReader.read(URL(fileURLWithPath: "talk.pdf"), pageCount: 12)
/// read.labels  // ["1", "2", "2", "3", …] or nil
/// ```
public enum PageLabelReader {
    /// What was read: the labels (nil when the PDF has none or they could not be read) and why not, if it
    /// matters to the user.
    public struct Outcome: Hashable, Sendable {
        /// One label per page (nil entries: no label), or nil.
        public var labels: [String?]?
        /// A problem worth a diagnostic (labels present but unreadable), if any.
        public var problem: String?
    }

    /// Most objects of the label tree resolved (a hostile tree cannot make it run forever).
    static let objectLimit = 4_096

    /// The page labels of `url`, a PDF of `pageCount` pages. `mutool` runs at most `timeout` seconds (default:
    /// ``ToolLimits/mutool``) and `outputLimit` bytes of its output are read; a run that passes either gives
    /// no labels and a ``Outcome/problem`` saying why (the talk starts without them).
    public static func read(_ url: URL, pageCount: Int, timeout: Double? = nil, outputLimit: Int? = nil) -> Outcome {
        let show = MutoolShow(url, timeout: timeout, outputLimit: outputLimit)
        var outcome = labels(pageCount: pageCount, show: show.callAsFunction)
        if let stopped = show.stopped {
            outcome.labels = nil
            outcome.problem = "its page labels were not read: \(stopped); every page is numbered as a slide"
        }
        return outcome
    }

    /// The labels, with `show` printing objects like `mutool show -g FILE PATH…` (nil when it fails).
    static func labels(pageCount: Int, show: (_ paths: [String]) -> String?) -> Outcome {
        guard let rootText = show(["trailer/Root/PageLabels"]) else { return Outcome() }
        var parser = PDFObject.Parser(rootText)
        let root = MutoolShow.shownObjects(&parser).first?.value ?? parser.value()
        guard let root, root != .keyword("null") else { return Outcome() }
        var ranges: [PageLabels.Range] = []
        var pending: [PDFObject] = [root]
        var numbered: [(Int, PDFObject)] = []
        var resolved: [Int: PDFObject] = [:]
        // Each round resolves one level of the tree; a deeper (or cyclic) tree stops at the limit.
        for _ in 0..<32 {
            guard !pending.isEmpty || numbered.contains(where: { if case .reference = $0.1 { true } else { false } })
            else { break }
            let wanted = Set((pending + numbered.map(\.1)).compactMap { obj -> Int? in
                if case .reference(let n) = obj, resolved[n] == nil { n } else { nil }
            })
            if !wanted.isEmpty {
                guard resolved.count + wanted.count <= objectLimit, let text = show(wanted.sorted().map(String.init))
                else { return Outcome(problem: "its page labels could not be read; every page is numbered as a slide") }
                var p = PDFObject.Parser(text)
                for (number, value, _) in MutoolShow.shownObjects(&p) { resolved[number] = value }
                for n in wanted where resolved[n] == nil { resolved[n] = .keyword("null") }
            }
            let resolve = { (obj: PDFObject) -> PDFObject in
                if case .reference(let n) = obj { resolved[n] ?? .keyword("null") } else { obj }
            }
            numbered = numbered.map { ($0.0, resolve($0.1)) }
            let nodes = pending.map(resolve)
            pending = []
            for case .dictionary(let node) in nodes {
                if case .array(let nums)? = node["Nums"] {
                    for i in stride(from: 0, to: nums.count - 1, by: 2) {
                        if let start = nums[i].integer { numbered.append((start, nums[i + 1])) }
                    }
                }
                if case .array(let kids)? = node["Kids"] { pending += kids }
            }
            if resolved.count > objectLimit || numbered.count > objectLimit || pending.count > objectLimit {
                return Outcome(problem: "its page labels could not be read; every page is numbered as a slide")
            }
        }
        for (start, dictionary) in numbered {
            if let range = PageLabels.Range(start: start, dictionary: dictionary) { ranges.append(range) }
        }
        guard !ranges.isEmpty else { return Outcome() }
        return Outcome(labels: PageLabels.labels(ranges, pageCount: pageCount))
    }
}
