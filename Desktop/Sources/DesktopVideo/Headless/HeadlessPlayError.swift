/// Why a headless `extdisplay play` run could not go on: a bad display list or step, a file that cannot be
/// opened, a snapshot that cannot be written. The message says what to do.
public struct HeadlessPlayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to do.
    public var message: String

    /// Creates the error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
