import ExternalDisplayKit
import ExternalDisplaySimulator

/// A story of displays and app lifecycle to replay: which device, what the app configured, and timed steps.
///
/// Scenarios are JSON files (see ``ScenarioParser``); ``ScenarioRunner`` replays one through a
/// `DisplayEngine` on virtual time and produces a `Trace`.
public struct Scenario: Sendable {
    /// The device the app runs on.
    public var device: DisplayCatalog.Device
    /// The app's configuration.
    public var configuration: DisplayConfiguration
    /// How the configuration's mode selection is spelled in traces.
    public var modeSelectionJSON: JSONValue
    /// The steps, in time order.
    public var steps: [ScenarioStep]

    /// Creates a scenario.
    public init(device: DisplayCatalog.Device = DisplayCatalog.device(named: "ipad")!,
                configuration: DisplayConfiguration = DisplayConfiguration(),
                modeSelectionJSON: JSONValue = "preferred", steps: [ScenarioStep]) {
        self.device = device
        self.configuration = configuration
        self.modeSelectionJSON = modeSelectionJSON
        self.steps = steps
    }
}

/// One timed step of a scenario.
public struct ScenarioStep: Sendable {
    /// When, in virtual seconds.
    public var at: Double
    /// What happens.
    public var action: ScenarioAction

    /// Creates a step.
    public init(at: Double, _ action: ScenarioAction) {
        self.at = at
        self.action = action
    }
}

/// What a step does.
public enum ScenarioAction: Sendable {
    /// An event for the engine.
    case event(DisplayEvent)
    /// The simulator's cost model: what a frame costs a consumer, in milliseconds at render scale 1.
    case renderCost(RefreshConsumer, Double)
    /// No effect: the run lasts until this time.
    case end

    /// The name scenarios spell it with.
    public var name: String {
        switch self {
        case .event(let event): event.name
        case .renderCost: "renderCost"
        case .end: "end"
        }
    }
}
