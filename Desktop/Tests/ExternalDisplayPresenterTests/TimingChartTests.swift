import DesktopImages
import ExternalDisplayKit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ExternalDisplayPresenter

/// The report's chart, judged from its files: the PNG decoded and its bars measured in pixels, the SVG read by
/// Foundation's XML parser; the bars' lengths must stand in the ratio of the times they draw (known here, worked out
/// by hand), not whatever the layout computed.
struct TimingChartTests {
    /// Rehearsal: 50, 150, 50 s; talk: 40, 140, 100 s; target 300 s → budgets 60, 180, 60 s.
    static func report() -> TimingReport {
        var timings = TalkTimings()
        timings.append(.init(kind: .rehearsal, started: "2026-12-01T09:00:00Z", target: 300,
                             slides: [.init(index: 1, fingerprint: "a", title: "Hello", steps: [50]),
                                      .init(index: 2, fingerprint: "b", title: "Middle", steps: [100, 50]),
                                      .init(index: 3, fingerprint: "c", title: "End <&>", steps: [50])]))
        timings.append(.init(kind: .talk, started: "2026-12-02T10:00:00Z", target: 300,
                             slides: [.init(index: 1, fingerprint: "a", title: "Hello", steps: [40]),
                                      .init(index: 2, fingerprint: "b", title: "Middle", steps: [140]),
                                      .init(index: 3, fingerprint: "c", title: "End <&>", steps: [100])]))
        return TimingReport(timings)
    }

    /// The longest run of pixels of `colour` in row `y` of `image`.
    static func run(of colour: RGBA, inRow y: Int, _ image: Bitmap) -> Int {
        var longest = 0, current = 0
        for x in 0..<image.width {
            let p = image.pixel(x: x, y: y)
            if p.red == colour.r && p.green == colour.g && p.blue == colour.b { current += 1; longest = max(longest, current) } else { current = 0 }
        }
        return longest
    }

    @Test("the PNG's bars are as long as the times they draw")
    func pngBars() throws {
        let report = Self.report()
        let chart = TimingChartLayout.layout(report, title: "talk")
        let canvas = try SDLPresenterCanvas(size: chart.size, caches: DrawingCaches())
        canvas.draw(chart)
        let image = try Bitmap(decoding: Array(canvas.pngData()), path: "chart.png")
        // Bar rows: for each slide, the budget bar, the rehearsal's, the talk's, each barHeight tall from the row's top.
        let rowHeight = 3 * TimingChartLayout.barHeight + TimingChartLayout.rowGap
        func length(slide: Int, bar: Int, _ colour: RGBA) -> Int {
            Self.run(of: colour, inRow: TimingChartLayout.headerHeight + slide * rowHeight + bar * TimingChartLayout.barHeight + 4, image)
        }
        let rehearsal = TimingChartLayout.rehearsals[0]
        let budget = (0..<3).map { length(slide: $0, bar: 0, TimingChartLayout.budget) }
        let rehearsed = (0..<3).map { length(slide: $0, bar: 1, rehearsal) }
        let talk = (0..<3).map { length(slide: $0, bar: 2, TimingChartLayout.talk) }
        print("chart bars in pixels: budget \(budget), rehearsal \(rehearsed), talk \(talk)")
        // The longest time (180 s, slide 2's budget) fills the bar area.
        let area = TimingChartLayout.width - TimingChartLayout.labelWidth - TimingChartLayout.rightMargin
        #expect(abs(budget[1] - area) <= 1, "\(budget[1]) vs \(area)")
        let seconds: [(Int, Double)] = [(budget[0], 60), (budget[2], 60), (rehearsed[0], 50), (rehearsed[1], 150),
                                        (rehearsed[2], 50), (talk[0], 40), (talk[1], 140), (talk[2], 100)]
        for (pixels, time) in seconds {
            #expect(abs(Double(pixels) - time / 180 * Double(area)) <= 1.5, "\(pixels) px for \(time) s")
        }
        // Only the last slide ran long: a red mark in its row, none in the others.
        let red = (0..<3).map { slide in
            (0..<(3 * TimingChartLayout.barHeight)).contains { dy in
                Self.run(of: TimingChartLayout.long, inRow: TimingChartLayout.headerHeight + slide * rowHeight + dy, image) > 0
            }
        }
        #expect(red == [false, false, true], "\(red)")
    }

    /// The widths of the SVG's filled rectangles of one colour, in document order.
    final class Rects: NSObject, XMLParserDelegate {
        var widths: [String: [Double]] = [:]
        var texts: [String] = []
        private var inText = false
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "rect", let fill = attributes["fill"], let width = attributes["width"].flatMap(Double.init) {
                widths[fill, default: []].append(width)
            }
            inText = name == "text"
            if inText { texts.append("") }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { texts[texts.count - 1] += string }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            inText = false
        }
    }

    @Test("the SVG is well-formed XML with the same bars, and titles are escaped")
    func svgBars() throws {
        let chart = TimingChartLayout.layout(Self.report(), title: "talk")
        let svg = DisplayListSVG.document(chart)
        let parser = XMLParser(data: Data(svg.utf8))
        let rects = Rects()
        parser.delegate = rects
        #expect(parser.parse(), "not well-formed: \(parser.parserError.map(String.init(describing:)) ?? "")")
        let area = Double(TimingChartLayout.width - TimingChartLayout.labelWidth - TimingChartLayout.rightMargin)
        // Legend squares are 14 wide; the bars follow in row order.
        let talk = (rects.widths["#e67814"] ?? []).filter { $0 != 14 }
        #expect(talk.count == 3 && zip(talk, [40.0, 140, 100]).allSatisfy { abs($0 - $1 / 180 * area) <= 1 }, "\(talk)")
        #expect(rects.texts.contains { $0.hasPrefix("3  End <&>") }, "\(rects.texts)")
    }
}
