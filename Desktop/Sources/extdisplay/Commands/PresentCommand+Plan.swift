import ExternalDisplayPresenter
import Foundation

extension PresentCommand {
    /// A `--duration`/`--end-time` that cannot be used, with what to write instead.
    struct PlanError: Error, CustomStringConvertible {
        var description: String
    }

    /// The planned length in seconds a PDF deck's `.pdfpc` file gives (its `duration`, in minutes), if any:
    /// the countdown's default when neither `--duration` nor `--end-time` is given.
    static func pdfpcDuration(of deck: URL) -> Double? {
        guard PDFInfo.looksLikePDF(deck), let data = try? Data(contentsOf: PdfpcNotes.companion(of: deck)),
              let minutes = PdfpcNotes.parse(data).durationMinutes, minutes <= 24 * 60 else { return nil }
        return minutes * 60
    }

    /// The talk's planned length in seconds from `--duration MINUTES` or `--end-time HH:MM` (today, local
    /// time, measured from `now`); nil when neither is given.
    static func plannedSeconds(duration: Double?, endTime: String?, now: Date) -> Result<Double?, PlanError> {
        if duration != nil, endTime != nil {
            return .failure(PlanError(description: "give --duration or --end-time, not both"))
        }
        if let duration {
            guard duration.isFinite, duration > 0, duration <= 24 * 60 else {
                return .failure(PlanError(description: "--duration \(duration): give the talk's length in minutes, "
                                          + "more than 0 and at most 1440 (e.g. --duration 20)"))
            }
            return .success(duration * 60)
        }
        guard let endTime else { return .success(nil) }
        let parts = endTime.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let h = parts[0], let m = parts[1], (0..<24).contains(h), (0..<60).contains(m) else {
            return .failure(PlanError(description: "--end-time '\(endTime)': use HH:MM in 24-hour local time (e.g. 14:30)"))
        }
        let calendar = Calendar.current
        guard let end = calendar.date(bySettingHour: h, minute: m, second: 0, of: now), end > now else {
            return .failure(PlanError(description: "--end-time \(endTime) has already passed today; give a later time "
                                      + "or --duration MINUTES"))
        }
        return .success(end.timeIntervalSince(now))
    }
}
