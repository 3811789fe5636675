/// A problem the engine survived: bad input from the platform or the app. The engine reports it and goes on
/// with its state intact.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious it is.
    public enum Level: String, Hashable, Sendable, Codable {
        /// Suspicious but harmless (a repeated foreground, a mirror of a display never seen).
        case warning
        /// The event was rejected (unknown display, a mode the display does not offer, an illegal transition).
        case error
    }

    /// Severity.
    public var level: Level
    /// What is wrong and what to do about it.
    public var message: String
    /// Index of the event in the batch that caused it.
    public var eventIndex: Int

    /// Creates a diagnostic.
    public init(_ level: Level, _ message: String, eventIndex: Int) {
        self.level = level
        self.message = message
        self.eventIndex = eventIndex
    }

    /// `"error: …"`.
    public var description: String { "\(level.rawValue): \(message)" }
}

/// One thing the engine produced, in order.
public enum EngineEffect: Hashable, Sendable {
    /// For the platform to carry out.
    case command(DisplayCommand)
    /// For the app.
    case notification(AppNotification)
    /// A problem survived.
    case diagnostic(Diagnostic)
}
