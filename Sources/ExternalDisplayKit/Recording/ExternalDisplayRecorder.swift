import Foundation

/// Records what happens to an app's external displays on a real device — displays connecting and going, their
/// modes and overscan, the app's lifecycle, capture, and what the app asked for — with timestamps, and writes it
/// as a scenario file that the simulator replays (`extdisplay simulate FILE`, `ScenarioRunner`) and the
/// independent trace checker judges.
///
/// Recording is opt-in and off by default: nothing is kept until ``start()``. A platform layer hands the recorder
/// every event it translates (``record(_:)``) and the platform facts that are not events, such as the result of
/// a mode change (``note(_:display:_:)``); `DisplayCoordinator` hands it what the app sends. A user who hits a
/// bug shares the file; a developer replays it on Linux or a Mac.
///
/// ```swift
/// let recorder = ExternalDisplayRecorder(device: "ipad", configuration: configuration)
/// recorder.start()
/// recorder.record([.connect(tv)])            // from the platform layer, as it happens
/// recorder.stop()
/// try recorder.scenarioData().write(to: url) // { "device": "ipad", …, "steps": [ … ] }
/// ```
///
/// What a replay can and cannot show: events land in the scenario at the millisecond they were recorded, and
/// events recorded in the same millisecond replay as one batch (a platform delivers what arrives in one turn of
/// its run loop together). Frame costs are not recorded: the simulator models them (`renderCost`).
@MainActor
public final class ExternalDisplayRecorder {
    /// One recorded step: when (seconds since ``start()``) and what.
    public struct Step: Sendable {
        /// Seconds since the recording started, to the millisecond.
        public var at: Double
        /// The event.
        public var event: DisplayEvent
    }

    /// A platform fact that is not an engine event (a mode change's result, an app-lifecycle signal that maps to
    /// no event, a screen the platform could not use): kept in the file for people, ignored by a replay.
    public struct Note: Sendable, Hashable {
        /// Seconds since the recording started, to the millisecond.
        public var at: Double
        /// What kind of fact: `"modeChangeResult"`, `"overscanCompensation"`, `"scenePhase"`, …
        public var kind: String
        /// The display it concerns, if any.
        public var display: DisplayID?
        /// Details, by name.
        public var details: [String: String]
    }

    /// The scenario device the recording replays on: `"ipad"`, `"iphone"` (the simulator's catalog names).
    public var device: String
    /// The app's configuration, written into the scenario so the replay decides as the app did.
    public var configuration: DisplayConfiguration
    /// Facts about the recording for whoever reads the file (system version, device model, app version); written
    /// under `recording`, never replayed.
    public var metadata: [String: String] = [:]
    /// Whether events are being kept.
    public private(set) var isRecording = false
    /// The steps recorded so far, in order.
    public private(set) var steps: [Step] = []
    /// The notes recorded so far, in order.
    public private(set) var notes: [Note] = []
    /// When the recording stopped (seconds since it started), once it has.
    public private(set) var endedAt: Double?

    private let clock: @Sendable () -> Double
    private var origin = 0.0

    /// Creates a recorder that keeps nothing until ``start()``.
    ///
    /// - Parameters:
    ///   - device: the simulator catalog's device the replay runs on (`"ipad"`, `"iphone"`).
    ///   - configuration: the app's configuration.
    ///   - clock: seconds on a monotonic clock; the default is the system's uptime. Tests pass virtual time.
    public init(device: String = "ipad", configuration: DisplayConfiguration = DisplayConfiguration(),
                clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.device = device
        self.configuration = configuration
        self.clock = clock
    }

    /// Starts a new recording (anything recorded before is discarded); time 0 is now.
    public func start() {
        origin = clock()
        steps = []
        notes = []
        endedAt = nil
        isRecording = true
    }

    /// Stops recording; the scenario ends now (an `end` step).
    public func stop() {
        guard isRecording else { return }
        endedAt = max(now(), steps.last?.at ?? 0)
        isRecording = false
    }

    /// Records events that arrived together (one platform callback, or one thing the app sent), all at the
    /// current time. Frame-cost reports are left out (the replay models them). Nothing happens unless recording.
    public func record(_ events: [DisplayEvent]) {
        guard isRecording else { return }
        let at = max(now(), steps.last?.at ?? 0)
        for event in events {
            if case .frameCost = event { continue }
            steps.append(Step(at: at, event: event))
        }
    }

    /// Records a platform fact that is no engine event (see ``Note``). Nothing happens unless recording.
    public func note(_ kind: String, display: DisplayID? = nil, _ details: [String: String] = [:]) {
        guard isRecording else { return }
        notes.append(Note(at: now(), kind: kind, display: display, details: details))
    }

    /// The recording as a scenario file (UTF-8 JSON, one step per line): `device`, `configuration`, `recording`
    /// (metadata and notes, which a replay ignores) and `steps`, ending with an `end` step once stopped.
    public func scenarioData() -> Data { Data(scenarioJSON().utf8) }

    /// The recording as scenario JSON text (see ``scenarioData()``).
    public func scenarioJSON() -> String {
        var recording: [(String, RecordingJSON)] = [("recorder", .string("ExternalDisplayRecorder")),
                                                     ("format", .number(1))]
        recording += metadata.keys.sorted().map { ($0, .string(metadata[$0] ?? "")) }
        var allNotes = notes
        if case .custom(let name, _) = configuration.modeSelection {
            allNotes.insert(Note(at: 0, kind: "modeSelection", display: nil,
                                 details: ["custom": name, "writtenAs": "preferred"]), at: 0)
        }
        recording.append(("notes", .array(allNotes.map(Self.json))))
        var lines = ["{\"device\": \(RecordingJSON.string(device).text),",
                     " \"configuration\": \(Self.json(configuration).text),",
                     " \"recording\": \(RecordingJSON.object(recording).text),",
                     " \"steps\": ["]
        var stepLines = steps.map { "  " + Self.json($0).text }
        if let endedAt { stepLines.append("  " + RecordingJSON.object([("at", .number(endedAt)), ("event", .string("end"))]).text) }
        lines.append(stepLines.joined(separator: ",\n"))
        lines.append(" ]}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Encoding

    private func now() -> Double { ((clock() - origin) * 1000).rounded() / 1000 }

    private static func json(_ configuration: DisplayConfiguration) -> RecordingJSON {
        let selection: RecordingJSON
        switch configuration.modeSelection {
        case .preferred, .custom: selection = .string("preferred")
        case .highest: selection = .string("highest")
        case .lowest: selection = .string("lowest")
        case .pixelBudget(let pixels): selection = .object([("maxPixels", .number(Double(pixels)))])
        case .size(let size): selection = .object([("size", json(size))])
        }
        return .object([("modeSelection", selection),
                        ("overscanCompensation", .string(configuration.overscanCompensation.rawValue)),
                        ("background", .string(configuration.background.rawValue)),
                        ("contentReadyAtLaunch", .bool(configuration.contentReadyAtLaunch))])
    }

    private static func json(_ note: Note) -> RecordingJSON {
        var fields: [(String, RecordingJSON)] = [("at", .number(note.at)), ("kind", .string(note.kind))]
        if let display = note.display { fields.append(("display", .string(display.rawValue))) }
        fields += note.details.keys.sorted().map { ($0, .string(note.details[$0] ?? "")) }
        return .object(fields)
    }

    private static func json(_ size: PixelSize) -> RecordingJSON {
        .array([.number(Double(size.width)), .number(Double(size.height))])
    }

    private static func json(_ mode: DisplayMode) -> RecordingJSON {
        .object([("size", json(mode.size)), ("refresh", .number(mode.refreshRate)),
                 ("pixelAspectRatio", .number(mode.pixelAspectRatio))])
    }

    /// One step in the scenario grammar (the fields `ScenarioParser` reads for each event).
    static func json(_ step: Step) -> RecordingJSON {
        var fields: [(String, RecordingJSON)] = [("at", .number(step.at)), ("event", .string(step.event.name))]
        func display(_ id: DisplayID) { fields.append(("display", .string(id.rawValue))) }
        switch step.event {
        case .launch, .background, .foreground, .suspend, .resume, .contentReady, .frameCost:
            break
        case .connect(let d):
            display(d.id)
            fields += [("name", .string(d.name)), ("connection", .string(d.connection.rawValue)),
                       ("modes", .array(d.modes.map(json)))]
            if let preferred = d.preferredMode { fields.append(("preferred", json(preferred.size))) }
            fields += [("current", json(d.currentMode.size)), ("overscan", .number(d.overscan))]
        case .disconnect(let id), .mirror(let id), .extend(let id):
            display(id)
        case .modeChanged(let id, let mode):
            display(id)
            fields.append(("mode", json(mode)))
        case .modesChanged(let id, let modes, let preferred, let current):
            display(id)
            fields.append(("modes", .array(modes.map(json))))
            if let preferred { fields.append(("preferred", json(preferred.size))) }
            fields.append(("current", json(current.size)))
        case .requestMode(let id, let size):
            display(id)
            fields.append(("mode", json(size)))
        case .modelRunning(let on): fields.append(("running", .bool(on)))
        case .deviceViewVisible(let on): fields.append(("visible", .bool(on)))
        case .renderContinuously(let id, let on):
            display(id)
            fields.append(("on", .bool(on)))
        case .consumerRate(let consumer, let fps):
            fields += [("consumer", .string(consumer.description)), ("fps", .number(fps))]
        case .show(let item, let isPrivate, let pinned):
            fields += [("item", .string(item)), ("private", .bool(isPrivate))]
            if let pinned { display(pinned) }
        case .dismiss(let item): fields.append(("item", .string(item)))
        case .capture(let on): fields.append(("on", .bool(on)))
        case .rotate(let orientation): fields.append(("orientation", .string(orientation.rawValue)))
        case .deviceContent(let empty): fields.append(("empty", .bool(empty)))
        }
        return .object(fields)
    }
}

/// The few JSON shapes a recording needs, written with fields in a fixed order (so a recording of the same
/// events is the same bytes).
enum RecordingJSON {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([RecordingJSON])
    case object([(String, RecordingJSON)])

    /// Compact JSON text. A non-finite number (which JSON cannot hold) is written as 0.
    var text: String {
        switch self {
        case .string(let s): return Self.quote(s)
        case .number(let n):
            guard n.isFinite else { return "0" }
            if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
            return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.map { Self.quote($0.0) + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }

    private static func quote(_ s: String) -> String { JSONText.quoted(s) }
}

/// JSON string literals, shared by everything in the package that writes JSON (recordings here, traces in
/// `ExternalDisplayTesting`).
package enum JSONText {
    /// `s` as a JSON string literal: quotes, backslashes and control characters escaped.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
