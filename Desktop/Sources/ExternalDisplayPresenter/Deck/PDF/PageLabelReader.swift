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
        let limits = ToolLimits.current
        let seconds = timeout ?? limits.mutool, cap = outputLimit ?? limits.mutoolOutput
        var stopped: String?
        let show = { (arguments: [String]) -> String? in
            guard let result = try? ToolProcess.run("mutool", ["show", "-g", url.path] + arguments, timeout: seconds,
                                                    outputLimit: cap) else { return nil }
            if result.timedOut {
                stopped = "its page labels were not read: mutool took over \(ToolLimits.describe(seconds)) and was "
                    + "stopped; every page is numbered as a slide"
                return nil
            }
            if result.outputTruncated {
                stopped = "its page labels were not read: mutool printed over \(cap >> 10) KiB and was stopped; "
                    + "every page is numbered as a slide"
                return nil
            }
            guard result.status == 0 else { return nil }
            return String(decoding: result.output, as: UTF8.self)
        }
        var outcome = labels(pageCount: pageCount, show: show)
        if let stopped {
            outcome.labels = nil
            outcome.problem = stopped
        }
        return outcome
    }

    /// The labels, with `show` printing objects like `mutool show -g FILE PATH…` (nil when it fails).
    static func labels(pageCount: Int, show: (_ paths: [String]) -> String?) -> Outcome {
        guard let rootText = show(["trailer/Root/PageLabels"]) else { return Outcome() }
        var parser = PDFObject.Parser(rootText)
        let root = shownObjects(&parser).first?.value ?? parser.value()
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
                for (number, value) in shownObjects(&p) { resolved[number] = value }
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

    /// `N G obj VALUE` entries, in order, as `mutool show -g` prints them.
    static func shownObjects(_ parser: inout PDFObject.Parser) -> [(number: Int, value: PDFObject)] {
        var out: [(Int, PDFObject)] = []
        while !parser.atEnd() {
            let save = parser
            guard let n = parser.value()?.integer, parser.value()?.integer != nil,
                  parser.value() == .keyword("obj"), let value = parser.value() else {
                parser = save
                break
            }
            out.append((n, value))
        }
        return out
    }
}
