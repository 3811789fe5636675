/// Checks an NDJSON trace of `extdisplay simulate` against the behaviour rules, from the trace alone.
///
/// The checker is independent of the engine: it rebuilds the state the rules talk about (phase, connected displays,
/// windows, frame clocks, the shared refresh, routes) from the trace's lines and reports every line or batch end
/// where an invariant does not hold. Unknown line types and fields are ignored, so newer traces still check.
///
/// ```swift
/// let violations = TraceChecker().check(ndjson: trace)
/// for violation in violations {
///     print(violation)   // line 12 (t=3.5) windowFrame: tv frame [0,0,1280,720] but layout requires …
/// }
/// #expect(violations.isEmpty)
/// ```
public struct TraceChecker: Sendable {
    /// Creates a checker. It keeps no state between calls.
    public init() {}

    /// Checks an NDJSON trace (one JSON object per line; blank lines ignored).
    ///
    /// A `summary` line, if present, is cross-checked against the checker's own model (windows, connected,
    /// mirrored, phase, modeSwitches, windowsCreated) and any disagreement is a violation.
    public func check(ndjson: String) -> [TraceViolation] {
        let lines = ndjson.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        return check(lines: lines)
    }

    /// Checks a trace given as its lines; line numbers in the result are 1-based indices into `lines`.
    public func check(lines: [String]) -> [TraceViolation] {
        var stream = TraceCheckerStream()
        for line in lines { stream.consume(line: line) }
        return stream.finish()
    }
}

/// Checks a trace fed one line at a time, keeping only the checker's model, never the trace's lines: what
/// ``TraceChecker/check(lines:)`` reports for the same lines.
///
/// ```swift
/// var checker = TraceCheckerStream()
/// for line in lines { checker.consume(line: line) }
/// let violations = checker.finish()
/// ```
public struct TraceCheckerStream: Sendable {
    // Whether the presentation rules apply depends on lines anywhere in the trace: both verdicts are kept until
    // the end, which picks one.
    private var plain = CheckerRun(features: CheckerFeatures(presentation: false))
    private var presenting = CheckerRun(features: CheckerFeatures(presentation: true))
    private var usesPresentation = false
    private var number = 0

    /// Creates a checker at the start of a trace.
    public init() {}

    /// Checks the trace's next line (blank lines are counted and ignored).
    public mutating func consume(line: String) {
        number += 1
        guard !line.allSatisfy(\.isWhitespace) else { return }
        let json = TraceJSON.parse(line)
        if let json, CheckerFeatures.marksPresentation(json) { usesPresentation = true }
        plain.consume(number: number, json: json, text: line)
        presenting.consume(number: number, json: json, text: line)
    }

    /// Ends the trace and returns every violation, in trace order.
    public func finish() -> [TraceViolation] {
        var run = usesPresentation ? presenting : plain
        run.finish()
        // Batch-end reports name the batch's last line; a stable sort keeps the whole list in trace order.
        return run.violations.enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
    }
}

/// One violated invariant: which rule, where in the trace, and what was wrong.
public struct TraceViolation: Sendable, Hashable, CustomStringConvertible {
    /// The invariant that does not hold.
    public var rule: TraceRule
    /// The 1-based line number in the trace (for batch-end rules, the batch's last line).
    public var line: Int
    /// The virtual time of that line.
    public var t: Double
    /// What is wrong, naming the display or item and the values seen against those expected.
    public var message: String

    /// Creates a violation.
    public init(rule: TraceRule, line: Int, t: Double, message: String) {
        self.rule = rule
        self.line = line
        self.t = t
        self.message = message
    }

    /// A one-line report, e.g.
    /// `line 12 (t=3.5) windowFrame: createWindow tv frame [0,0,1280,720] but layout requires [0,0,1216,684] …`.
    public var description: String {
        "line \(line) (t=\(CheckerMath.format(t))) \(rule.rawValue): \(message)"
    }
}

/// Which later vocabularies a trace uses; rules that a foundation-era engine cannot satisfy apply only when present.
struct CheckerFeatures: Sendable {
    /// Presentation lines (issue 6): `show`, `dismiss`, `capture`, `rotate`, `deviceContent` events,
    /// `route`/`redact` notifications.
    var presentation = false

    init(presentation: Bool) {
        self.presentation = presentation
    }

    /// Whether a line belongs to the presentation vocabulary.
    static func marksPresentation(_ line: TraceJSON) -> Bool {
        let presentationEvents: Set<String> = ["show", "dismiss", "capture", "rotate", "deviceContent"]
        let type = line["type"]?.string
        let name = line["name"]?.string ?? ""
        return (type == "event" && presentationEvents.contains(name))
            || (type == "notify" && (name == "route" || name == "redact"))
    }
}

/// The per-batch facts that rules about "the same batch" need.
struct CheckedBatch: Sendable {
    var number: Int?
    var startPhase: CheckedPhase
    var isResume = false
    var eventNames: [String] = []
    var connected: Set<String> = []
    var disconnected: Set<String> = []
    /// Display → the mode a valid `requestMode` in this batch resolves to.
    var requestedModes: [String: CheckedMode] = [:]
    /// Diagnostics the documentation requires for events of this batch.
    var expectedDiagnostics: [ExpectedDiagnostic] = []
    /// Displays whose `setMode` in this batch broke a rule (the window's policy check then says nothing more).
    var faultySetMode: Set<String> = []
    /// Window notifications the batch's window commands still call for.
    var notificationsDue: [CheckerRun.NotificationDue] = []
    /// `diagnostic` lines seen in this batch: step → the most severe level.
    var diagnostics: [Int: ExpectedDiagnostic.Level] = [:]
    var createdWindows: Set<String> = []
    /// Display → line of the mode change that still needs a `layoutWindow`.
    var pendingLayout: [String: Int] = [:]
    /// Display → line of a `modesChanged` for it while it had a window (the window must survive the batch).
    var modesChanged: [String: Int] = [:]
    /// Displays whose window was destroyed in this batch.
    var destroyedWindows: Set<String> = []
    /// Display → line of a `setMode` no `requestMode` asked for, which must precede its `createWindow` in the batch.
    var pendingAttach: [String: Int] = [:]
    /// Item → (display, line) for items whose display went away and which still need a route to the device.
    var pendingReturn: [String: (display: String, line: Int)] = [:]
    var hasOutput = false
    var lastLine = 0
    var lastT: Double = 0

    var onlyRotate: Bool { !eventNames.isEmpty && eventNames.allSatisfy { $0 == "rotate" } }
}

/// One pass over a trace: the model, the open batch and the violations found so far.
struct CheckerRun: Sendable {
    let features: CheckerFeatures
    var model = CheckerModel()
    var batch: CheckedBatch?
    var violations: [TraceViolation] = []
    var lastT: Double?
    var current = (line: 0, t: 0.0)
    var configured = false
    /// Format 2 or later (see `TraceEncoder.formatVersion`): window notifications and required diagnostics are
    /// judged; earlier and hand-written traces, which need not carry them, are not.
    var judgesNotifications = false
    /// State violations already reported and still present (see ``reportState(_:_:_:)``).
    var openStates: Set<String> = []
    var stillOpen: Set<String> = []

    init(features: CheckerFeatures) {
        self.features = features
    }

    mutating func report(_ rule: TraceRule, _ message: String) {
        violations.append(TraceViolation(rule: rule, line: current.line, t: current.t, message: message))
    }

    static func stateKey(_ rule: TraceRule, _ subject: String) -> String { rule.rawValue + " " + subject }

    /// Reports a batch-end state violation once, when it appears; it is reported again only after it was fixed.
    mutating func reportState(_ rule: TraceRule, _ subject: String, _ message: String) {
        let key = Self.stateKey(rule, subject)
        stillOpen.insert(key)
        if !openStates.contains(key) { report(rule, message) }
    }

    mutating func consume(number: Int, json: TraceJSON?, text: String) {
        guard let json, json.object != nil, let t = json["t"]?.double, let type = json["type"]?.string else {
            let t = json?["t"]?.double ?? lastT ?? 0
            current = (number, t)
            touchBatch()
            report(.malformedLine, "not a JSON object with a numeric t and a string type: \(text.prefix(80))")
            return
        }
        current = (number, t)
        if let lastT, t < lastT {
            report(.timeOrder, "t=\(CheckerMath.format(t)) is before the previous line's t=\(CheckerMath.format(lastT))")
        }
        lastT = max(lastT ?? t, t)
        switch type {
        case "event": handleEvent(json)
        case "interval": endBatch(); checkInterval(json)
        case "summary": endBatch(); checkSummary(json)
        default:
            // Output without events before it (after an interval) still gets its batch-end checks.
            if batch == nil, type == "command" || type == "notify" || type == "diagnostic" {
                batch = CheckedBatch(number: nil, startPhase: model.phase)
            }
            // Every other line belongs to the open batch, so batch-end reports keep the trace's order.
            touchBatch(output: true)
            switch type {
            case "configuration": applyConfiguration(json)
            case "command": handleCommand(json)
            case "diagnostic":
                if let step = json["step"]?.int, var open = batch {
                    let level: ExpectedDiagnostic.Level = json["level"]?.string == "error" ? .error : .warning
                    open.diagnostics[step] = max(level, open.diagnostics[step] ?? .warning)
                    batch = open
                }
            case "notify": handleNotification(json)
            default: break
            }
        }
    }

    mutating func finish() {
        endBatch()
    }

    /// Records the current line as the latest line of the open batch.
    mutating func touchBatch(output: Bool = false) {
        if output { batch?.hasOutput = true }
        batch?.lastLine = current.line
        batch?.lastT = current.t
    }

    /// The first `configuration` line sets the configuration; later ones are ignored.
    mutating func applyConfiguration(_ json: TraceJSON) {
        guard !configured else { return }
        configured = true
        judgesNotifications = (json["format"]?.int ?? 1) >= 2
        var configuration = CheckedConfiguration()
        if let value = json["modeSelection"] {
            configuration.modeSelection = CheckedPolicy(value)
            if configuration.modeSelection == nil {
                report(.malformedLine, "configuration modeSelection \(value.compact) is not a policy of the format; "
                       + "policy checks are skipped")
            }
        }
        if let name = json["overscanCompensation"]?.string {
            if let compensation = CheckedCompensation(rawValue: name) {
                configuration.compensation = compensation
            } else {
                report(.malformedLine, "configuration overscanCompensation \(name) is not scale, insetBounds or none")
            }
        }
        configuration.keepInBackground = json["background"]?.string == "keep"
        configuration.contentReadyAtLaunch = json["contentReadyAtLaunch"]?.bool ?? true
        model.configuration = configuration
        model.contentReady = configuration.contentReadyAtLaunch
    }

    mutating func handleEvent(_ json: TraceJSON) {
        let number = json["batch"]?.int
        // Without batch numbers, an event after the batch's output lines starts a new batch.
        let startsNew = batch.map { number != nil ? number != $0.number : $0.hasOutput } ?? true
        if startsNew {
            endBatch()
            batch = CheckedBatch(number: number, startPhase: model.phase)
        }
        touchBatch()
        applyEvent(json)
    }

    /// Evaluates the batch-end rules for the open batch and closes it.
    mutating func endBatch() {
        guard let open = batch else { return }
        let saved = current
        current = (open.lastLine, open.lastT)
        stillOpen = []
        checkBatchEnd(open)
        openStates = stillOpen
        current = saved
        batch = nil
    }
}
