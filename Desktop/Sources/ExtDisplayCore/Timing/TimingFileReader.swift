public import Foundation

/// Reads a timing file (``TalkTimings``) that may be damaged or hostile: what can be used is kept, everything else
/// becomes a problem line saying what was wrong; nothing throws and nothing traps.
///
/// A file that is not JSON, not this format or of a newer version yields no runs. Within a run, a slide or pause
/// with a time that is negative, not finite or longer than ``TalkTimings/longestTime``, or an index out of range, is
/// dropped with a line; a run left with no slides is dropped.
///
/// ```swift
/// let (timings, problems) = TimingFileReader.read(data)
/// ```
public enum TimingFileReader {
    /// The usable part of `data`, and what was wrong with the rest.
    public static func read(_ data: Data) -> (timings: TalkTimings, problems: [String]) {
        guard data.count <= TalkTimings.fileLimit else {
            return (TalkTimings(), ["the timing file is larger than \(TalkTimings.fileLimit >> 20) MiB; not read"])
        }
        guard let top = JSONValue.parse(data), top.object != nil else {
            return (TalkTimings(), ["the timing file is not JSON (an object); not read — delete it or restore a copy"])
        }
        guard top["format"]?.string == TalkTimings.formatName else {
            return (TalkTimings(), ["the timing file's \"format\" is not \"\(TalkTimings.formatName)\"; not read"])
        }
        guard let version = top["version"]?.integer, version >= 1 else {
            return (TalkTimings(), ["the timing file has no usable \"version\"; not read"])
        }
        guard version <= TalkTimings.currentVersion else {
            return (TalkTimings(), ["the timing file is version \(version), newer than this extdisplay reads "
                                    + "(\(TalkTimings.currentVersion)); update extdisplay"])
        }
        guard let runs = top["runs"]?.array else {
            return (TalkTimings(), ["the timing file has no \"runs\" list; not read"])
        }
        var problems: [String] = []
        var timings = TalkTimings()
        for (number, run) in runs.enumerated() {
            let name = "runs[\(number)]"
            guard run.object != nil else {
                problems.append("\(name) is not an object; skipped")
                continue
            }
            guard let kind = run["kind"]?.string.flatMap(TalkTimings.Run.Kind.init(rawValue:)) else {
                problems.append("\(name) has no \"kind\" (rehearsal or talk); skipped")
                continue
            }
            var slides: [TalkTimings.SlideTime] = []
            for (position, slide) in (run["slides"]?.array ?? []).enumerated() {
                let place = "\(name).slides[\(position)]"
                guard let index = slide["index"]?.integer, (1...1_000_000).contains(index),
                      let fingerprint = slide["fingerprint"]?.string, !fingerprint.isEmpty, fingerprint.utf8.count <= 256,
                      let steps = slide["steps"]?.array, !steps.isEmpty, steps.count <= 10_000 else {
                    problems.append("\(place) lacks an index, a fingerprint or its steps; skipped")
                    continue
                }
                let seconds = steps.map(time)
                guard seconds.allSatisfy({ $0 != nil }) else {
                    problems.append("\(place) has a time that is negative, not a number or over 24 h; skipped")
                    continue
                }
                let title = slide["title"]?.string.map(printable)
                var budget: Double?
                if let given = slide["budget"], given != .null {
                    budget = time(given)
                    if budget == nil { problems.append("\(place).budget is not a usable time; ignored") }
                }
                slides.append(TalkTimings.SlideTime(index: index, fingerprint: fingerprint, title: title,
                                                    steps: seconds.compactMap { $0 }, budget: budget))
            }
            guard !slides.isEmpty else {
                problems.append("\(name) has no usable slides; skipped")
                continue
            }
            var pauses: [TalkTimings.Pause] = []
            for (position, pause) in (run["pauses"]?.array ?? []).enumerated() {
                guard let slide = pause["slide"]?.integer, slide >= 1, let step = pause["step"]?.integer, step >= 0,
                      let at = pause["at"].flatMap(time), let seconds = pause["seconds"].flatMap(time) else {
                    problems.append("\(name).pauses[\(position)] is damaged; skipped")
                    continue
                }
                pauses.append(TalkTimings.Pause(slide: slide, step: step, at: at, seconds: seconds))
            }
            var target: Double?
            if let given = run["target"], given != .null {
                target = time(given).flatMap { $0 > 0 ? $0 : nil }
                if target == nil { problems.append("\(name).target is not a usable length; ignored") }
            }
            let started = run["started"]?.string.map { String(printable($0).prefix(40)) } ?? ""
            timings.append(TalkTimings.Run(kind: kind, started: started, target: target, slides: slides, pauses: pauses))
        }
        return (timings, problems)
    }

    /// `text` without control characters (a terminal or a chart shows it), at most 200 characters.
    static func printable(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(200) where scalar.value >= 0x20 && !(0x7F..<0xA0).contains(scalar.value) {
            out.append(scalar)
        }
        return String(out)
    }

    /// A time in seconds: a finite number from 0 to ``TalkTimings/longestTime``.
    static func time(_ value: JSONValue) -> Double? {
        guard let seconds = value.number, seconds.isFinite, seconds >= 0, seconds <= TalkTimings.longestTime else { return nil }
        return seconds
    }
}
