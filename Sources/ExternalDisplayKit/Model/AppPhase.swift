/// Where the app is in its life, as far as external displays care.
///
/// Transitions: `notLaunched → active` (launch), `active ⇄ background`, `background → suspended` (suspend),
/// `suspended → background` (resume). While suspended the app runs no code: platform events queue and arrive
/// together at resume.
public enum AppPhase: String, Sendable, CaseIterable, Codable {
    /// Before launch.
    case notLaunched
    /// In the foreground and running.
    case active
    /// Running in the background.
    case background
    /// In memory but not running.
    case suspended

    /// The phase after a lifecycle event, or nil when the event is not a valid transition from this phase
    /// (and for events that are not lifecycle events).
    public func after(_ event: DisplayEvent) -> AppPhase? {
        switch (event, self) {
        case (.launch, .notLaunched): .active
        case (.background, .active): .background
        case (.foreground, .background): .active
        case (.suspend, .background): .suspended
        case (.resume, .suspended): .background
        default: nil
        }
    }
}
