/// A `--keys` entry of `extdisplay play` that is not a step: which one, and what is accepted.
public struct PlayStepError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entry as given.
    public var entry: String
    /// What is wrong and what to write instead.
    public var reason: String

    /// Creates the error.
    public init(entry: String, reason: String) {
        self.entry = entry
        self.reason = reason
    }

    /// `--keys 'ENTRY': REASON`.
    public var description: String { "--keys '\(entry)': \(reason)" }
}
