import ExternalDisplayPresenter
import Foundation

extension PresentCommand {
    /// A `--duration`/`--end-time`/`--wall-clock` that cannot be used, with what to write instead.
    struct PlanError: Error, CustomStringConvertible {
        var description: String
    }

    /// The timing fields of a PDF deck's `.pdfpc` file (`duration`, `endTime`, `lastMinutes`), if it has one; the
    /// fields that cannot be used were named when the deck was read.
    static func pdfpcTiming(of deck: URL) -> PdfpcNotes? {
        guard PDFInfo.looksLikePDF(deck), let data = try? Data(contentsOf: PdfpcNotes.companion(of: deck)) else { return nil }
        return PdfpcNotes.parse(data)
    }

    /// The talk's plan from `--duration MINUTES` or `--end-time HH:MM` (today, local time; refused when it is not
    /// after `wallStart`, the moment the talk's clock starts) and the deck's `.pdfpc` fields.
    ///
    /// As in pdfpc, the command line has the last word: `--duration` or `--end-time` replaces the file's `duration`
    /// and `endTime` (pdfpc replaces field by field, so there a file's end time outlives `--duration`; here what the
    /// speaker typed today is the plan, and `notes` says what was set aside). Within the file, an `endTime` wins
    /// over `duration` (pdfpc 4.5's reading: a countdown from the start to the end time); the `duration` counts
    /// down instead when the end time has passed at the start. `lastMinutes` is the file's.
    static func talkPlan(duration: Double?, endTime: String?, pdfpc: PdfpcNotes?, pdfpcName: String,
                         wallStart: Date) -> Result<(plan: TalkPlan, notes: [String]), PlanError> {
        if duration != nil, endTime != nil {
            return .failure(PlanError(description: "give --duration or --end-time, not both"))
        }
        var plan = TalkPlan(lastMinutes: pdfpc?.lastMinutes, source: "--end-time")
        var notes: [String] = []
        if let duration {
            guard duration.isFinite, duration > 0, duration <= 24 * 60 else {
                return .failure(PlanError(description: "--duration \(duration): give the talk's length in minutes, "
                                          + "more than 0 and at most 1440 (e.g. --duration 20)"))
            }
            plan.duration = duration * 60
        } else if let endTime {
            guard let time = TimeOfDay(parsing: endTime) else {
                return .failure(PlanError(description: "--end-time '\(endTime)': use HH:MM in 24-hour local time (e.g. 14:30)"))
            }
            guard time.seconds(after: wallStart) != nil else {
                return .failure(PlanError(description: "--end-time \(endTime) has already passed today; give a later time "
                                          + "or --duration MINUTES"))
            }
            plan.endTime = time
        } else {
            plan.duration = pdfpc?.durationMinutes.map { $0 * 60 }
            plan.endTime = pdfpc?.endTime
            plan.source = pdfpcName
            return .success((plan, notes))
        }
        let option = duration != nil ? "--duration" : "--end-time"
        if let end = pdfpc?.endTime { notes.append("\(option) replaces \(pdfpcName)'s end time \(end)") }
        return .success((plan, notes))
    }

    /// The moment a headless talk's virtual wall clock starts: `--wall-clock HH:MM` today (local time), else now.
    static func wallStart(_ text: String?) -> Result<Date, PlanError> {
        guard let text else { return .success(Date()) }
        guard let time = TimeOfDay(parsing: text),
              let date = Calendar.current.date(bySettingHour: time.hour, minute: time.minute, second: 0, of: Date()) else {
            return .failure(PlanError(description: "--wall-clock '\(text)': use HH:MM in 24-hour local time (e.g. 13:50)"))
        }
        return .success(date)
    }
}
