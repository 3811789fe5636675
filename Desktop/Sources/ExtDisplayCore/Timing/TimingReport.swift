/// Where a talk's time went, slide by slide: each slide's budget beside the time the rehearsals and the talk spent
/// on it, slides that ran long marked. `extdisplay report TIMINGFILE` prints it as a table and draws it as a chart.
///
/// The slides are the deck's (by their fingerprints) when it is given, else the newest run's; every run is matched
/// to them by content (``SlideMatching``). The budgets are those the newest run that had a plan recorded (its
/// slides' `budget`); without one, ``SlideBudgets`` for the newest target found, planned from the newest rehearsal.
public struct TimingReport: Hashable, Sendable {
    /// One column of times: a run.
    public struct Column: Hashable, Sendable {
        /// `"rehearsal 2026-12-02 16:00"` or `"talk 2026-12-03 10:00"`.
        public var title: String
        /// Rehearsal or talk.
        public var kind: TalkTimings.Run.Kind
        /// Seconds per row (nil: the run did not show that slide).
        public var seconds: [Double?]
    }

    /// One slide.
    public struct Row: Hashable, Sendable {
        /// Its 1-based number in the deck (or the newest run).
        public var number: Int
        /// Its title, when known.
        public var title: String
        /// Its budget, when there is a plan.
        public var budget: Double?
    }

    /// The slides.
    public var rows: [Row]
    /// The runs shown, oldest first: at most the newest ``shownRuns``.
    public var columns: [Column]
    /// Lines for the reader: slides of a run that match nothing now, plan notes.
    public var notes: [String]

    /// Runs shown in a report: the newest 4.
    public static let shownRuns = 4

    /// The report of `timings`, for a deck whose slides have `fingerprints` and `titles` (nil: the newest run's).
    public init(_ timings: TalkTimings, fingerprints: [String]? = nil, titles: [String]? = nil) {
        notes = []
        let newest = timings.runs.last
        let base: [(fingerprint: String, title: String)]
        if let fingerprints {
            base = fingerprints.enumerated().map { index, fingerprint in
                (fingerprint, titles.flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? "")
            }
        } else {
            base = (newest?.slides ?? []).sorted { $0.index < $1.index }.map { ($0.fingerprint, $0.title ?? "") }
        }
        let prints = base.map(\.fingerprint)
        columns = []
        for run in timings.runs.suffix(Self.shownRuns) {
            let (seconds, unmatched) = SlideMatching.seconds(of: run, deckFingerprints: prints)
            let when = run.started.isEmpty ? "" : " " + Self.shortDate(run.started)
            columns.append(Column(title: run.kind.rawValue + when, kind: run.kind, seconds: seconds))
            if let unmatched { notes.append(run.kind.rawValue + when + ": " + unmatched) }
        }
        let target = timings.runs.last { $0.target != nil }?.target
        let rehearsal = timings.lastRehearsal.map { SlideMatching.seconds(of: $0, deckFingerprints: prints).seconds }
        let plan = SlideBudgets.plan(slideCount: base.count, target: target, rehearsal: rehearsal)
        notes += plan?.notes ?? []
        // Budgets the talk itself used (the deck's own times included) win over a plan made here.
        var recorded: [String: Double] = [:]
        if let planned = timings.runs.last(where: { $0.slides.contains { $0.budget != nil } }) {
            for slide in planned.slides { if let budget = slide.budget, recorded[slide.fingerprint] == nil { recorded[slide.fingerprint] = budget } }
        }
        rows = base.enumerated().map { index, slide in
            Row(number: index + 1, title: slide.title, budget: recorded[slide.fingerprint] ?? plan?.seconds[index])
        }
    }

    /// Whether the newest run spent clearly more than the budget on row `row`: over 120 % of it and 15 s more.
    public func ranLong(_ row: Int) -> Bool {
        guard rows.indices.contains(row), let budget = rows[row].budget, let last = columns.last,
              last.seconds.indices.contains(row), let spent = last.seconds[row] else { return false }
        return spent > budget * 1.2 && spent > budget + 15
    }

    /// The report as a text table, one line per slide, columns aligned; slides that ran long end with `◀ long`.
    public var table: String {
        let header = ["slide", "budget"] + columns.map(\.title)
        var lines: [[String]] = [header]
        for (index, row) in rows.enumerated() {
            let name = "\(row.number)" + (row.title.isEmpty ? "" : " " + String(row.title.prefix(28)))
            var cells = [name, row.budget.map(PresentationTimer.format) ?? "–"]
            cells += columns.map { column in
                column.seconds.indices.contains(index) ? column.seconds[index].map(PresentationTimer.format) ?? "–" : "–"
            }
            if ranLong(index) { cells[cells.count - 1] += " ◀ long" }
            lines.append(cells)
        }
        var total = ["total", rows.compactMap(\.budget).isEmpty ? "–" : PresentationTimer.format(rows.compactMap(\.budget).reduce(0, +))]
        total += columns.map { PresentationTimer.format($0.seconds.compactMap { $0 }.reduce(0, +)) }
        lines.append(total)
        let widths = (0..<header.count).map { column in lines.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        let text = lines.map { cells in
            cells.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: max(0, widths[column] - cell.count)) + cell
            }.joined(separator: "  ")
        }
        return (text + notes.map { "note: " + $0 }).joined(separator: "\n")
    }

    /// `2026-12-02T16:00:05Z` → `2026-12-02 16:00`.
    static func shortDate(_ iso: String) -> String {
        let text = iso.replacingOccurrences(of: "T", with: " ")
        return String(text.prefix(16))
    }
}
