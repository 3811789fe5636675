import Foundation

/// Runs MuPDF's `mutool show -g FILE PATH…` for the readers of PDF objects (page labels, video annotations): a
/// separate process (no AGPL code links), bounded in time and in output; a run that passes either bound gives nil
/// and ``stopped`` says why.
///
/// ```swift
/// let show = MutoolShow(URL(fileURLWithPath: "talk.pdf"))
/// show(["trailer/Root/PageLabels"])  // "<</Nums[0<</S/D>>]>>" or nil
/// show.stopped                       // nil, or "mutool took over 10 s and was stopped"
/// ```
final class MutoolShow {
    /// The PDF.
    let url: URL
    /// Seconds one run may take.
    let seconds: Double
    /// Bytes of one run's output read.
    let outputLimit: Int
    /// Why a run was stopped (too slow, too much output), if one was.
    private(set) var stopped: String?

    /// A runner for `url`; `timeout` and `outputLimit` default to ``ToolLimits``'s.
    init(_ url: URL, timeout: Double? = nil, outputLimit: Int? = nil) {
        let limits = ToolLimits.current
        self.url = url
        seconds = timeout ?? limits.mutool
        self.outputLimit = outputLimit ?? limits.mutoolOutput
    }

    /// What `mutool show -g` prints for `paths`, or nil when it is missing, fails or is stopped.
    func callAsFunction(_ paths: [String]) -> String? {
        guard stopped == nil,
              let result = try? ToolProcess.run("mutool", ["show", "-g", url.path] + paths, timeout: seconds,
                                                outputLimit: outputLimit) else { return nil }
        if result.timedOut {
            stopped = "mutool took over \(ToolLimits.describe(seconds)) and was stopped"
            return nil
        }
        if result.outputTruncated {
            stopped = "mutool printed over \(outputLimit >> 10) KiB and was stopped"
            return nil
        }
        guard result.status == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// `N G obj VALUE` entries, in order, as `mutool show -g` prints them (a stream's dictionary is followed by
    /// the keyword `stream`: `isStream`). Stops at the first thing that is not such an entry.
    static func shownObjects(_ parser: inout PDFObject.Parser) -> [(number: Int, value: PDFObject, isStream: Bool)] {
        var out: [(Int, PDFObject, Bool)] = []
        while !parser.atEnd() {
            let save = parser
            guard let n = parser.value()?.integer, parser.value()?.integer != nil,
                  parser.value() == .keyword("obj"), let value = parser.value() else {
                parser = save
                break
            }
            let beforeKeyword = parser
            let isStream = parser.value() == .keyword("stream")
            if !isStream { parser = beforeKeyword }
            out.append((n, value, isStream))
        }
        return out
    }
}
