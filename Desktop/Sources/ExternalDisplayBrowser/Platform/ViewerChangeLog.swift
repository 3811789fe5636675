/// The console's lines about pages connecting, resizing and leaving, bounded whatever the network does: every
/// line is printable (``NetworkText``) and at most ``NetworkText/lineLimit`` characters, at most ``linesPerWindow``
/// lines are printed each ``window`` seconds, and what is held back is told in one summary line when the window
/// ends (`pages: 292 connected, 290 left, 3 resized (not listed); 10 connected now`). 300 pages connecting print a
/// dozen lines, not 300.
struct ViewerChangeLog: Sendable {
    /// What happened to a page.
    enum Change: Sendable { case connected, resized, left }

    /// Lines printed each window, at most (the summary line included).
    static let linesPerWindow = 8
    /// The window, in seconds.
    static let window = 1.0

    private var windowStart = -Double.infinity
    private var printed = 0
    private var held: [Change: Int] = [:]

    /// Whether lines are held back for a summary (the caller asks for ``summary(at:connectedNow:)`` when the
    /// window ends).
    var isHolding: Bool { !held.isEmpty }

    /// When the current window ends.
    var windowEnd: Double { windowStart + Self.window }

    /// Records a change at `now` (seconds); returns the lines to print now (the line, a summary, both or none).
    mutating func record(_ change: Change, line: String, at now: Double, connectedNow: Int) -> [String] {
        var out: [String] = []
        if now >= windowEnd {
            if let summary = summary(at: now, connectedNow: connectedNow) { out.append(summary) } else {
                windowStart = now
                printed = 0
            }
        }
        if printed < Self.linesPerWindow && held.isEmpty {
            printed += 1
            out.append(NetworkText.printable(line))
        } else {
            held[change, default: 0] += 1
        }
        return out
    }

    /// The summary of the lines held back, if any (a new window begins with it).
    mutating func summary(at now: Double, connectedNow: Int) -> String? {
        guard !held.isEmpty else { return nil }
        let parts = [(Change.connected, "connected"), (.left, "left"), (.resized, "resized")].compactMap { change, word in
            held[change].map { "\($0) \(word)" }
        }
        held = [:]
        windowStart = now
        printed = 1
        return "pages: \(parts.joined(separator: ", ")) (not listed); \(connectedNow) connected now"
    }
}
