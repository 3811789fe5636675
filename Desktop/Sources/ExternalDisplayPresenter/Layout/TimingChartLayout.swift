import ExtDisplayCore
import ExternalDisplayKit
import Foundation

/// The chart of a ``ExtDisplayCore/TimingReport``: a row per slide, and in each row a grey bar for the slide's
/// budget and one bar per run (rehearsals in blues, the talk in orange), all on one time scale, so slides that ran
/// long stand out (their row is marked `long` in red). Drawn as a ``DisplayList``, so the same list becomes a PNG
/// (any ``SnapshotCanvas``) and an SVG (``DisplayListSVG``).
///
/// The scale is ``scale(for:)`` pixels per second: the chart's bar area divided by the longest time in it.
public enum TimingChartLayout {
    /// The chart's width in pixels.
    public static let width = 1_200
    /// The left column for slide names.
    public static let labelWidth = 260
    /// The right margin, which holds the `long` marks.
    public static let rightMargin = 80
    /// The header's height (title, legend).
    public static let headerHeight = 96
    /// Each bar's height.
    public static let barHeight = 12
    /// Space between slides.
    public static let rowGap = 10
    /// Rows drawn at most (a deck longer than that is cut, and the chart says so).
    public static let maximumRows = 400

    /// The colours: background, text, grid, budget, the rehearsals (oldest first, cycled), the talk, the long mark.
    public static let background = RGBA(255, 255, 255)
    /// Text.
    public static let ink = RGBA(30, 30, 36)
    /// Grid lines.
    public static let grid = RGBA(225, 225, 230)
    /// Budget bars.
    public static let budget = RGBA(170, 170, 178)
    /// Rehearsal bars, oldest first.
    public static let rehearsals = [RGBA(150, 190, 235), RGBA(70, 130, 200), RGBA(20, 70, 150)]
    /// Talk bars.
    public static let talk = RGBA(230, 120, 20)
    /// The mark of a slide that ran long.
    public static let long = RGBA(200, 30, 30)

    /// The bar area's pixels per second for `report`.
    public static func scale(for report: TimingReport) -> Double {
        let times = report.rows.compactMap(\.budget) + report.columns.flatMap { $0.seconds.compactMap { $0 } }
        let longest = max(times.filter(\.isFinite).max() ?? 1, 1)
        return Double(width - labelWidth - rightMargin) / longest
    }

    /// The colour of run `column` of `report`'s columns.
    public static func colour(of column: Int, in report: TimingReport) -> RGBA {
        guard report.columns.indices.contains(column) else { return ink }
        if report.columns[column].kind == .talk { return talk }
        let rehearsalNumber = report.columns[..<column].filter { $0.kind == .rehearsal }.count
        return rehearsals[rehearsalNumber % rehearsals.count]
    }

    /// The chart as a display list.
    public static func layout(_ report: TimingReport, title: String) -> DisplayList {
        let rows = Array(report.rows.prefix(maximumRows))
        let bars = 1 + report.columns.count
        let rowHeight = bars * barHeight + rowGap
        let height = headerHeight + rows.count * rowHeight + 40
        var operations: [DrawOperation] = [.fill(Rect(x: 0, y: 0, width: width, height: height), background)]
        let titleStyle = TextStyle(.sansBold, size: 22, color: ink)
        let small = TextStyle(.sans, size: 13, color: ink)
        operations.append(.text(String(title.prefix(80)), x: 16, y: 14, titleStyle))
        // Legend: budget, then each run.
        var legendX = 16
        let legend = [("budget", budget)] + report.columns.indices.map { (report.columns[$0].title, colour(of: $0, in: report)) }
        for (name, colour) in legend {
            operations.append(.fill(Rect(x: legendX, y: 56, width: 14, height: 14), colour))
            operations.append(.text(name, x: legendX + 20, y: 55, small))
            legendX += 34 + name.count * 7
        }
        let scale = scale(for: report)
        let barArea = width - labelWidth - rightMargin
        // Grid: a line every minute (every 5 minutes past 20 lines).
        let seconds = Double(barArea) / scale
        let step = seconds / 60 > 20 ? 300.0 : 60.0
        var mark = step
        while mark <= seconds, mark / step < 200 {
            let x = labelWidth + Int((mark * scale).rounded())
            operations.append(.line(x1: x, y1: headerHeight - 8, x2: x, y2: height - 30, grid))
            operations.append(.text(PresentationTimer.format(mark), x: x - 12, y: height - 26, small))
            mark += step
        }
        for (index, row) in rows.enumerated() {
            let top = headerHeight + index * rowHeight
            let name = "\(row.number)" + (row.title.isEmpty ? "" : "  " + String(row.title.prefix(30)))
            operations.append(.text(name, x: 16, y: top + (bars * barHeight) / 2 - 8, small))
            func bar(_ bar: Int, _ value: Double?, _ colour: RGBA) {
                guard let value, value.isFinite, value > 0 else { return }
                let length = max(1, Int((value * scale).rounded()))
                operations.append(.fill(Rect(x: labelWidth, y: top + bar * barHeight, width: length, height: barHeight - 2), colour))
            }
            bar(0, row.budget, budget)
            for (column, run) in report.columns.enumerated() where run.seconds.indices.contains(index) {
                bar(1 + column, run.seconds[index], colour(of: column, in: report))
            }
            if report.ranLong(index) {
                operations.append(.text("long", x: width - rightMargin + 12, y: top + (bars * barHeight) / 2 - 8,
                                        TextStyle(.sansBold, size: 14, color: long)))
            }
        }
        if report.rows.count > rows.count {
            operations.append(.text("… \(report.rows.count - rows.count) more slides not drawn", x: 16, y: height - 26, small))
        }
        return DisplayList(size: PixelSize(width: width, height: height), operations: operations)
    }
}
