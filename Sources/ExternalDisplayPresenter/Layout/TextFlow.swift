import ExternalDisplayKit

/// Word-wraps runs of plain text and inline code into lines that fit a width, and turns the lines into
/// drawing operations.
struct TextFlow {
    /// A piece of one line in one style.
    struct Segment: Hashable {
        var text: String
        var isCode: Bool
    }

    let metrics: any TextMetrics
    let face: FontFace
    let size: Int

    var codeSize: Int { max(1, size * 9 / 10) }
    var lineHeight: Int { metrics.lineHeight(face: face, size: size) }

    func measure(_ segment: Segment) -> Int {
        segment.isCode ? metrics.width(of: segment.text, face: .mono, size: codeSize)
            : metrics.width(of: segment.text, face: face, size: size)
    }

    /// The runs broken into lines no wider than `width` (a single word wider than that gets a line of its own).
    /// Stops after `maxLines` lines: text below the visible area is neither measured nor laid out, so the cost
    /// follows what is on screen, not the length of the text.
    func lines(_ runs: [InlineRun], width: Int, maxLines: Int = .max) -> [[Segment]] {
        var lines: [[Segment]] = []
        var current: [Segment] = []
        var used = 0
        for token in tokens(runs) {
            let w = measure(token)
            if used + w > width, !current.isEmpty {
                if lines.count + 1 >= maxLines {
                    lines.append(merged(current))
                    return lines.map(trimmingTrailingSpace)
                }
                lines.append(merged(current))
                current = []
                used = 0
            }
            var piece = token
            if current.isEmpty, !piece.isCode {
                piece.text = String(piece.text.drop { $0 == " " })
                if piece.text.isEmpty { continue }
            }
            current.append(piece)
            used += measure(piece)
        }
        if !current.isEmpty { lines.append(merged(current)) }
        return lines.map(trimmingTrailingSpace)
    }

    /// Words with their following space; code runs split only at their own spaces. Lazy: a line-limited
    /// layout of a huge paragraph reads only the words it places.
    private func tokens(_ runs: [InlineRun]) -> some Sequence<Segment> {
        runs.lazy.flatMap { run in
            sequence(state: run.text[...]) { (rest: inout Substring) -> Segment? in
                guard !rest.isEmpty else { return nil }
                let end = rest.firstIndex(of: " ").map { rest.index(after: $0) } ?? rest.endIndex
                let word = Segment(text: String(rest[..<end]), isCode: run.isCode)
                rest = rest[end...]
                return word
            }
        }
    }

    private func merged(_ segments: [Segment]) -> [Segment] {
        var out: [Segment] = []
        for s in segments {
            if let last = out.last, last.isCode == s.isCode {
                out[out.count - 1].text += s.text
            } else {
                out.append(s)
            }
        }
        return out
    }

    private func trimmingTrailingSpace(_ line: [Segment]) -> [Segment] {
        guard var last = line.last, !last.isCode else { return line }
        while last.text.hasSuffix(" ") { last.text.removeLast() }
        return last.text.isEmpty ? Array(line.dropLast()) : Array(line.dropLast()) + [last]
    }

    /// Operations drawing `lines` from (x, y) down, one line per ``lineHeight``.
    func operations(_ lines: [[Segment]], x: Int, y: Int, color: RGBA, theme: PresenterTheme) -> [DrawOperation] {
        var ops: [DrawOperation] = []
        for (row, line) in lines.enumerated() {
            var cx = x
            let top = y + row * lineHeight
            for segment in line {
                let w = measure(segment)
                if segment.isCode {
                    let pad = max(2, size / 8)
                    ops.append(.fill(Rect(x: cx - pad / 2, y: top + pad / 2, width: w + pad,
                                          height: lineHeight - pad), theme.codeBackground))
                    let baseline = top + (size - codeSize) / 2 + (lineHeight - size) / 2
                    ops.append(.text(segment.text, x: cx, y: baseline, TextStyle(.mono, size: codeSize, color: theme.code)))
                } else {
                    ops.append(.text(segment.text, x: cx, y: top + (lineHeight - size) / 2,
                                     TextStyle(face, size: size, color: color)))
                }
                cx += w
            }
        }
        return ops
    }
}
