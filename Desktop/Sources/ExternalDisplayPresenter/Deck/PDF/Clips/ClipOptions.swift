import Foundation

/// How a clip plays, as the PDF says it: pdfpc's query on a linked file's name (`movie.webm?autostart&loop&noaudio
/// &start=5&stop=10`), a movie annotation's activation dictionary, a rendition's play parameters.
///
/// ```swift
/// let read = ClipOptions.pdfpcQuery("autostart&loop&start=5&stop=10&fast")
/// read.options.autoplay  // true
/// read.options.start     // 5
/// read.problems          // ["unknown option \"fast\" ignored (pdfpc's are autostart, loop, noprogress, …)"]
/// ```
struct ClipOptions: Hashable, Sendable {
    /// Starts on its own when the slide is shown.
    var autoplay = false
    /// Starts again at the end.
    var loops = false
    /// Sound off.
    var muted = false
    /// Where it starts, in seconds.
    var start: Double = 0
    /// Where it stops, in seconds (nil: its end).
    var stop: Double?

    /// The longest time taken from a PDF, in seconds (a year): a larger one is not a time anyone meant.
    static let longestTime = 365.0 * 24 * 3600

    /// A time in seconds if `value` is a finite number in 0…``longestTime``.
    static func time(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0, value <= longestTime else { return nil }
        return value
    }

    /// Sets ``stop`` to `start + duration` for a usable duration (positive), else says why not.
    mutating func play(for duration: Double?, problems: inout [String]) {
        guard let duration else { return }
        guard let seconds = Self.time(duration), seconds > 0 else {
            problems.append("its duration \(Self.describe(duration)) is not a time in seconds; it plays to its end")
            return
        }
        stop = start + seconds
    }

    /// pdfpc's options after the `?` of a linked file's name: `autostart`, `loop`, `noaudio`, `noprogress` (the
    /// progress bar is the console's; accepted), `start=SECONDS`, `stop=SECONDS`; `srtfile=` (subtitles) is not
    /// shown yet; anything else is ignored. Each problem is a sentence for the deck's diagnostics.
    static func pdfpcQuery(_ query: String) -> (options: ClipOptions, problems: [String]) {
        var options = ClipOptions()
        var problems: [String] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true).prefix(64) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).lowercased(), value = parts.count > 1 ? String(parts[1]) : nil
            switch (key, value) {
            case ("autostart", nil): options.autoplay = true
            case ("loop", nil): options.loops = true
            case ("noaudio", nil): options.muted = true
            case ("noprogress", nil): break
            case ("start", let text?), ("stop", let text?):
                guard let seconds = time(Double(text)) else {
                    problems.append("\(key)=\(TextSanitizer.line(String(text.prefix(40)))) is not a time in seconds "
                                    + "(e.g. \(key)=12.5); ignored")
                    continue
                }
                if key == "start" { options.start = seconds } else { options.stop = seconds }
            case ("srtfile", _): problems.append("subtitles (srtfile) are not shown yet; the clip plays without them")
            default:
                problems.append("unknown option \"\(TextSanitizer.line(String(item.prefix(40))))\" ignored (pdfpc's are "
                                + "autostart, loop, noaudio, noprogress, start=SECONDS, stop=SECONDS)")
            }
        }
        options.checkRange(&problems)
        return (options, problems)
    }

    /// Drops a stop that is not after the start, saying so.
    mutating func checkRange(_ problems: inout [String]) {
        if let stop, stop <= start {
            problems.append("it stops at \(Self.describe(stop)) s, not after its start at \(Self.describe(start)) s; "
                            + "it plays to its end")
            self.stop = nil
        }
    }

    /// A number as a message shows it.
    static func describe(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
