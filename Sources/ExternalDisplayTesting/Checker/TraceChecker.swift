/// Placeholder until the independent checker lands.
public struct TraceChecker: Sendable {
    /// Creates a checker.
    public init() {}
    /// Checks an NDJSON trace.
    public func check(lines: [String]) -> [TraceViolation] { [] }
    /// Checks an NDJSON trace.
    public func check(ndjson: String) -> [TraceViolation] { [] }
}

/// Placeholder.
public struct TraceViolation: Sendable, Hashable, CustomStringConvertible {
    /// Placeholder.
    public var description: String
}
