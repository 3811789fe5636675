import ExternalDisplayKit

/// Groups simulated platform events into the batches a real OS delivers: events before launch arrive with
/// `launch`, in the order they happened and before it (so the engine judges each by the not-launched rules: a
/// `mirror` is remembered, a `requestMode` is refused, an unknown `disconnect` is diagnosed); while the app is
/// suspended events queue and arrive together with `resume`, after it.
///
/// `Tag` travels with each event (the scenario runner uses the step index).
public struct EventBatcher<Tag>: Sendable where Tag: Sendable {
    /// The app's phase as the platform sees it.
    public private(set) var phase: AppPhase = .notLaunched
    private var held: [(event: DisplayEvent, tag: Tag)] = []

    /// Creates a batcher for an app that has not launched.
    public init() {}

    /// Events held back (before launch, or while suspended).
    public var heldEvents: [DisplayEvent] { held.map(\.event) }

    /// Submits an event; returns the batch to deliver now, or an empty array when the event is held.
    public mutating func submit(_ event: DisplayEvent, tag: Tag) -> [(event: DisplayEvent, tag: Tag)] {
        switch (phase, event) {
        case (.notLaunched, .launch):
            phase = .active
            defer { held = [] }
            return held + [(event, tag)]
        case (.suspended, .resume):
            phase = .background
            defer { held = [] }
            return [(event, tag)] + held
        case (.notLaunched, _) where !event.isLifecycleEvent,
             (.suspended, _) where !event.isLifecycleEvent:
            held.append((event, tag))
            return []
        default:
            phase = phase.after(event) ?? phase
            return [(event, tag)]
        }
    }
}
