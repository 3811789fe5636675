public import Foundation

/// A time of day on a 24-hour clock, as `--end-time` and pdfpc's `endTime` give it: `HH:MM` (or `H:MM`).
///
/// ```swift
/// TimeOfDay(parsing: "14:30")?.description  // "14:30"
/// TimeOfDay(parsing: "25:99")               // nil
/// ```
public struct TimeOfDay: Hashable, Sendable, CustomStringConvertible {
    /// The hour, 0…23.
    public let hour: Int
    /// The minute, 0…59.
    public let minute: Int

    /// A time of day; nil unless `hour` is 0…23 and `minute` 0…59.
    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Reads `HH:MM` or `H:MM` (pdfpc's pattern: `^([0-1]?[0-9]|2[0-3]):[0-5][0-9]$`), spaces around it allowed;
    /// nil for anything else (`14:30:00`, `2pm`, `-1:00`, `24:00`).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard trimmed.count <= 5, parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    /// `"14:30"`, `"09:05"`.
    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// Seconds from `start` until this time of day on the same day in `calendar`'s time zone; nil when it is not
    /// later than `start` (it has passed, or is now).
    public func seconds(after start: Date, calendar: Calendar = .current) -> Double? {
        guard let end = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: start), end > start else {
            return nil
        }
        return end.timeIntervalSince(start)
    }
}

/// When the talk must end, on the runtime's clock: the countdown runs to it, whatever the pauses.
public struct PlannedEnd: Hashable, Sendable {
    /// The runtime's time (seconds) at the end time.
    public var at: Double
    /// The end time as the speaker gave it.
    public var time: TimeOfDay

    /// An end at `at` seconds on the runtime's clock, shown as `time`.
    public init(at: Double, time: TimeOfDay) {
        self.at = at
        self.time = time
    }
}

/// The talk's limits beside its planned length: the end time, and when the countdown gives its last-minutes warning.
public struct TalkLimits: Hashable, Sendable {
    /// The end time, when one was set and had not passed when the clock started.
    public var end: PlannedEnd?
    /// The countdown warns in its last this many minutes (pdfpc's `lastMinutes`); nil: no such warning.
    public var lastMinutes: Int?

    /// Limits.
    public init(end: PlannedEnd? = nil, lastMinutes: Int? = nil) {
        self.end = end
        self.lastMinutes = lastMinutes
    }
}

/// What the speaker planned for the talk's time, from the command line or the deck's `.pdfpc` file: a length, an
/// end time, and the last-minutes warning. The end time becomes a length only when the talk's clock starts
/// (``resolved(wallStart:at:calendar:)``, with the runtime's own wall clock), as pdfpc 4.5 reads it: the countdown
/// runs from the start to the end time, and an end time wins over a length given beside it.
///
/// ```swift
/// let plan = TalkPlan(duration: 1_200, endTime: TimeOfDay(parsing: "14:30"), lastMinutes: 3, source: "talk.pdfpc")
/// let r = plan.resolved(wallStart: startOfTalk, at: runtime.now)  // started at 14:02 → r.duration == 1_680
/// ```
public struct TalkPlan: Hashable, Sendable {
    /// The planned length in seconds.
    public var duration: Double?
    /// When the talk must end (today, local time).
    public var endTime: TimeOfDay?
    /// The last-minutes warning, in minutes.
    public var lastMinutes: Int?
    /// Where the end time came from, for messages (`--end-time`, `talk.pdfpc`).
    public var source: String

    /// A plan.
    public init(duration: Double? = nil, endTime: TimeOfDay? = nil, lastMinutes: Int? = nil, source: String = "--end-time") {
        self.duration = duration
        self.endTime = endTime
        self.lastMinutes = lastMinutes
        self.source = source
    }

    /// The plan as the talk's clock starts.
    public struct Resolved: Hashable, Sendable {
        /// The planned length in seconds (the end time's, else the duration), if any.
        public var duration: Double?
        /// The end time on the runtime's clock and the last-minutes warning.
        public var limits: TalkLimits
        /// What could not be used, one line each; the talk goes on with the rest.
        public var problems: [String]
    }

    /// The plan for a talk whose clock starts at wall time `wallStart`, `now` on the runtime's clock: an end time
    /// still ahead gives the length (end − start) and wins over the duration; one already past is said and the
    /// duration, if any, counts down instead.
    public func resolved(wallStart: Date, at now: Double, calendar: Calendar = .current) -> Resolved {
        var result = Resolved(duration: duration, limits: TalkLimits(), problems: [])
        if let endTime {
            if let seconds = endTime.seconds(after: wallStart, calendar: calendar) {
                result.duration = seconds
                result.limits.end = PlannedEnd(at: now + seconds, time: endTime)
            } else {
                let fallback = duration.map { "the countdown runs \(PresentationTimer.format($0)) instead" }
                    ?? "no countdown"
                let start = TimeOfDay(hour: calendar.component(.hour, from: wallStart),
                                      minute: calendar.component(.minute, from: wallStart))
                result.problems.append("the end time \(endTime) (\(source)) has already passed (the talk starts at "
                                       + "\(start?.description ?? "?")); \(fallback)")
            }
        }
        if let lastMinutes {
            if result.duration == nil {
                result.problems.append("lastMinutes \(lastMinutes) has no effect without a duration or an end time")
            } else {
                result.limits.lastMinutes = lastMinutes
            }
        }
        return result
    }
}
