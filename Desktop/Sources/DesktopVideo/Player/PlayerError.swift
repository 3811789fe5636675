/// Why `extdisplay play` could not go on: a file that cannot be opened, a bad display list or step, a snapshot
/// that cannot be written, an X server that cannot be used. The message says what to do.
public struct PlayerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to do.
    public var message: String

    /// Creates the error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
