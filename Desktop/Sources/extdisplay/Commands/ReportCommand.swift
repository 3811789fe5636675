import ArgumentParser
import DesktopFiles
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

/// `extdisplay report TIMINGFILE`: where the time of the rehearsals and talks in a timing file went, slide by slide,
/// as a table on standard output and a chart (PNG and SVG) beside the file.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show where a talk's time went, per slide, from its timing file: a table and a chart.",
        discussion: """
        TIMINGFILE is the file `present --rehearse` writes beside a deck (talk.pdf → talk.timings.json). The table \
        has a row per slide: its budget (the target length split as the newest rehearsal spent it), then what each \
        of the newest four runs spent on it; slides that ran long (over 120 % of their budget and 15 s more) end \
        with "◀ long". The chart draws the same as bars on one time scale and is written beside the file \
        (talk.timings.png and talk.timings.svg) unless --png, --svg or --no-chart say otherwise.

        A damaged file is read as far as it can be: each part that could not be used is named on standard error \
        and the rest is reported. Exit status 0 when a report was made, 1 when the file cannot be read or has no usable run or a chart cannot be written.
        """)

    @Argument(help: "The timing file (talk.timings.json).")
    var timingFile: String

    @Option(help: "Where to write the chart as PNG (default: beside the timing file).")
    var png: String?

    @Option(help: "Where to write the chart as SVG (default: beside the timing file).")
    var svg: String?

    @Flag(help: "Print the table only; write no chart.")
    var noChart = false

    func run() throws {
        let url = URL(fileURLWithPath: timingFile)
        let bytes: [UInt8]
        do { bytes = try UntrustedFile.read(url, limit: TalkTimings.fileLimit) } catch {
            StandardStreams.errorLine("extdisplay report: cannot read the timing file: "
                                      + PrintableText.line(error.description))
            throw ExitCode(1)
        }
        let (timings, problems) = TimingFileReader.read(Data(bytes))
        for problem in problems { StandardStreams.errorLine(PrintableText.line("extdisplay report: \(problem)")) }
        guard !timings.runs.isEmpty else {
            StandardStreams.errorLine("extdisplay report: \(PrintableText.line(url.path)) has no usable run; rehearse with "
                                      + "`extdisplay present DECK --rehearse` to make one")
            throw ExitCode(1)
        }
        let report = TimingReport(timings)
        for line in report.table.split(separator: "\n") { StandardStreams.line(PrintableText.line(String(line))) }
        guard !noChart else { return }
        let base = url.deletingPathExtension()
        let chart = TimingChartLayout.layout(report, title: "Time per slide: " + url.lastPathComponent)
        let svgURL = svg.map { URL(fileURLWithPath: $0) } ?? base.appendingPathExtension("svg")
        do { try AtomicFile.write(Data(DisplayListSVG.document(chart).utf8), to: svgURL) } catch {
            StandardStreams.errorLine("extdisplay report: cannot write the chart: " + PrintableText.line(error.description))
            throw ExitCode(1)
        }
        StandardStreams.line("wrote \(PrintableText.line(svgURL.path))")
        let pngURL = png.map { URL(fileURLWithPath: $0) } ?? base.appendingPathExtension("png")
        do {
            let canvas = try SDLPresenterCanvas(size: chart.size, caches: DrawingCaches())
            canvas.draw(chart)
            try AtomicFile.write(canvas.pngData(), to: pngURL)
        } catch {
            StandardStreams.errorLine("extdisplay report: cannot write the chart as PNG: " + PrintableText.line("\(error)"))
            throw ExitCode(1)
        }
        StandardStreams.line("wrote \(PrintableText.line(pngURL.path))")
    }
}
