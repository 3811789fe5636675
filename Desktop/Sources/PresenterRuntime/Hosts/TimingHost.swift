public import ExternalDisplayPresenter
import DesktopFiles
public import Foundation

/// Times the talk per slide and step (`present --rehearse`, `--record-timings`) and gives the console its pace at
/// every slide: at the start it reads the deck's timing file (``ExternalDisplayPresenter/TalkTimings``; damaged
/// parts are named and skipped), plans each slide's budget (the deck's own times, the newest rehearsal scaled to the
/// talk's planned length, an even split: ``ExternalDisplayPresenter/SlideBudgets``) and starts the core's pacing;
/// at the end it adds this run to the file, when it records.
///
/// ```swift
/// runtime.add(TimingHost(file: TalkTimings.companion(of: deckURL), recording: .rehearsal, target: 1_200))
/// ```
@MainActor
public final class TimingHost: PresenterHost {
    /// The timing file.
    public let file: URL
    /// What this run is recorded as; nil: the pace is shown, nothing is written.
    public let recording: TalkTimings.Run.Kind?
    /// The talk's planned length in seconds (`--duration`), which the budgets add up to.
    public let target: Double?
    private weak var runtime: PresenterRuntime?
    private var timings = TalkTimings()
    private var plan: DeckTimingPlan?
    private var started: Date?
    /// The run written at the end (tests).
    public private(set) var written: TalkTimings.Run?

    /// A host for `file`, recording this run as `recording` (nil: read only), for a talk of `target` seconds.
    public init(file: URL, recording: TalkTimings.Run.Kind?, target: Double?) {
        self.file = file
        self.recording = recording
        self.target = target.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// Whether a talk of `deck` with this file is timed at all: it records, the file exists, or a slide has a time.
    public static func wanted(file: URL, recording: TalkTimings.Run.Kind?, deck: Deck) -> Bool {
        recording != nil || FileManager.default.fileExists(atPath: file.path) || deck.slides.contains { $0.time != nil }
    }

    /// Reads the file, plans the budgets and starts the core's pacing.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        started = runtime.wallTime
        let state = runtime.controller.state
        let plan = DeckTimingPlan(deck: runtime.controller.deck, numbering: state.numbering)
        self.plan = plan
        if FileManager.default.fileExists(atPath: file.path) {
            do {
                let bytes = try UntrustedFile.read(file, limit: TalkTimings.fileLimit)
                let (read, problems) = TimingFileReader.read(Data(bytes))
                timings = read
                for problem in problems { runtime.onSay("timings: \(problem)") }
            } catch {
                runtime.onSay("timings: cannot read \(file.lastPathComponent) (\(error.reason)); the talk is timed from scratch")
            }
        }
        var rehearsal: [Double?]?
        if let last = timings.lastRehearsal {
            let (seconds, unmatched) = SlideMatching.seconds(of: last, deckFingerprints: plan.fingerprints)
            rehearsal = seconds
            if let unmatched { runtime.onSay("timings: \(unmatched)") }
        }
        let budgets = SlideBudgets.plan(slideCount: plan.fingerprints.count, target: target ?? state.plannedDuration,
                                        deckTimes: plan.deckTimes, rehearsal: rehearsal)
        for note in budgets?.notes ?? [] { runtime.onSay("timings: \(note)") }
        runtime.send(.startPacing(budgets))
    }

    /// Adds this run to the timing file, when recording.
    public func stop() {
        guard let recording, let runtime, let pacing = runtime.controller.state.pacing, let plan else { return }
        let formatter = ISO8601DateFormatter()
        let run = pacing.recorder.run(kind: recording, started: formatter.string(from: started ?? runtime.wallTime),
                                      target: target ?? runtime.controller.state.plannedDuration, at: runtime.now,
                                      fingerprints: plan.fingerprints, titles: plan.titles,
                                      budgets: pacing.budgets?.seconds)
        guard !run.slides.isEmpty else { return }
        var updated = timings
        updated.append(run)
        do {
            try AtomicFile.write(updated.encoded(), to: file)
            written = run
            runtime.onSay("timings of this \(recording.rawValue) (\(PresentationTimer.format(run.total)), "
                          + "\(run.slides.count) slides) added to \(file.path); see `extdisplay report \(file.path)`")
        } catch {
            runtime.onSay("timings: cannot write \(file.path) (\(error.reason)); this run's timings are lost")
        }
    }
}
