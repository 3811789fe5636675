/// The identity of a display, stable for as long as the platform can tell it is the same display.
///
/// Engine state is keyed by identity, never by position in a list: the second screen today is not
/// necessarily the second screen after a replug.
///
/// ```swift
/// let tv: DisplayID = "living-room-tv"
/// ```
public struct DisplayID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The platform's or the scenario's name for the display, e.g. `"HDMI-1"` or `"tv"`.
    public var rawValue: String

    /// Creates an identity from a raw string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates an identity from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The raw string.
    public var description: String { rawValue }

    /// Orders identities by their raw strings, for deterministic output.
    public static func < (lhs: DisplayID, rhs: DisplayID) -> Bool { lhs.rawValue < rhs.rawValue }
}
