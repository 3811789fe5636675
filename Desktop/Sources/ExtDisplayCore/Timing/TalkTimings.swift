public import Foundation

/// The timing file beside a deck (`talk.pdf` → `talk.timings.json`): what each rehearsal and talk spent on each
/// slide and overlay step, and when the clock was paused. Versioned JSON, several runs kept (the newest
/// ``keptRuns``), read back to plan the next talk's per-slide budgets and written by `present --rehearse`.
///
/// ```json
/// {"format": "extdisplay-timings", "version": 1, "runs": [
///   {"kind": "rehearsal", "started": "2026-12-02T16:00:00Z", "target": 1200,
///    "slides": [{"index": 1, "fingerprint": "3f2a…", "title": "Welcome", "steps": [41.5, 12.0]}],
///    "pauses": [{"slide": 3, "step": 0, "at": 300.0, "seconds": 65.0}]}]}
/// ```
///
/// - `slides[].index`: the slide's 1-based number when the run was recorded; `fingerprint` names its content (the
///   deck reader's hash of its text), so a deck edited since (slides added, removed, moved) is matched by content,
///   not by number; `steps[k]`: seconds spent on overlay step k (the clock running).
/// - `budget` (optional): the slide's budget in that run, in seconds, when the run had a plan.
/// - `pauses`: the clock stopped on that slide and step, `at` seconds into the talk, for `seconds`.
/// - `target`: the talk's planned length in seconds, when one was set.
public struct TalkTimings: Codable, Hashable, Sendable {
    /// The `format` field's one value.
    public static let formatName = "extdisplay-timings"
    /// The version this build writes and reads.
    public static let currentVersion = 1
    /// Runs kept in a file: the newest 20.
    public static let keptRuns = 20
    /// The largest timing file read: 4 MiB.
    public static let fileLimit = 4 << 20
    /// The longest time a slide, step or pause may have: 24 hours (longer ones are refused as damaged).
    public static let longestTime = 86_400.0

    /// Always ``formatName``.
    public var format: String
    /// Always ``currentVersion`` when written by this build.
    public var version: Int
    /// Runs, oldest first.
    public var runs: [Run]

    /// An empty file.
    public init(runs: [Run] = []) {
        format = Self.formatName
        version = Self.currentVersion
        self.runs = runs
    }

    /// One rehearsal or talk.
    public struct Run: Codable, Hashable, Sendable {
        /// A rehearsal (`present --rehearse`) or a talk given with timing on.
        public enum Kind: String, Codable, Hashable, Sendable {
            /// `present --rehearse`.
            case rehearsal
            /// A talk recorded with `--record-timings`.
            case talk
        }

        /// Rehearsal or talk.
        public var kind: Kind
        /// When it started (ISO 8601, UTC), for people reading the file and the report.
        public var started: String
        /// The planned length in seconds, when one was set.
        public var target: Double?
        /// Per slide shown, in deck order.
        public var slides: [SlideTime]
        /// When the clock was paused.
        public var pauses: [Pause]

        /// A run.
        public init(kind: Kind, started: String, target: Double? = nil, slides: [SlideTime], pauses: [Pause] = []) {
            self.kind = kind
            self.started = started
            self.target = target
            self.slides = slides
            self.pauses = pauses
        }

        /// Seconds on every slide together (the clock running).
        public var total: Double { slides.reduce(0) { $0 + $1.seconds } }
    }

    /// One slide's time in a run.
    public struct SlideTime: Codable, Hashable, Sendable {
        /// The slide's 1-based number when recorded.
        public var index: Int
        /// Its content's name (see ``TalkTimings``).
        public var fingerprint: String
        /// Its title, for people.
        public var title: String?
        /// Seconds on each overlay step.
        public var steps: [Double]
        /// The slide's budget in this run, in seconds, when the run had a plan.
        public var budget: Double?

        /// A slide's time.
        public init(index: Int, fingerprint: String, title: String? = nil, steps: [Double], budget: Double? = nil) {
            self.index = index
            self.fingerprint = fingerprint
            self.title = title
            self.steps = steps
            self.budget = budget
        }

        /// Seconds on the slide, all steps.
        public var seconds: Double { steps.reduce(0, +) }
    }

    /// A pause of the clock.
    public struct Pause: Codable, Hashable, Sendable {
        /// The 1-based slide it happened on.
        public var slide: Int
        /// The overlay step.
        public var step: Int
        /// Seconds into the talk (the clock's reading when it stopped).
        public var at: Double
        /// How long it stayed stopped.
        public var seconds: Double

        /// A pause.
        public init(slide: Int, step: Int, at: Double, seconds: Double) {
            self.slide = slide
            self.step = step
            self.at = at
            self.seconds = seconds
        }
    }

    /// The file beside `deck`: the same name with `.timings.json`.
    public static func companion(of deck: URL) -> URL {
        deck.deletingPathExtension().appendingPathExtension("timings.json")
    }

    /// Adds `run`, keeping the newest ``keptRuns``.
    public mutating func append(_ run: Run) {
        runs.append(run)
        if runs.count > Self.keptRuns { runs.removeFirst(runs.count - Self.keptRuns) }
    }

    /// The newest rehearsal, if any.
    public var lastRehearsal: Run? { runs.last { $0.kind == .rehearsal } }

    /// The file's bytes: pretty-printed JSON, keys sorted (a file that diffs well).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
