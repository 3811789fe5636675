import Foundation

/// A remote command as a platform received it, with the router's decision: what a binding hands to the app.
///
/// ```swift
/// for await received in player.commands {
///     if received.decision.status == .success, let action = received.decision.action {
///         session.apply(action)
///     }
/// }
/// ```
public struct ReceivedRemoteCommand: Sendable, Hashable, Codable {
    /// The command as sent.
    public var command: RemoteCommand
    /// The router's answer: the status the sender got and the action for the app to apply.
    public var decision: RemoteCommandDecision

    /// Creates a received command.
    public init(command: RemoteCommand, decision: RemoteCommandDecision) {
        self.command = command
        self.decision = decision
    }
}
