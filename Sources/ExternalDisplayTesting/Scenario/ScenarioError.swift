/// Why a file is not a valid scenario: where (step index and field) and what to do. `extdisplay simulate`
/// exits with status 2 for these.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Index of the offending step in `steps`, if the problem is in one.
    public var step: Int?
    /// The offending field, if any.
    public var field: String?
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    public init(step: Int? = nil, field: String? = nil, _ message: String) {
        self.step = step
        self.field = field
        self.message = message
    }

    /// `"step 3, field 'display': …"`.
    public var description: String {
        var location: [String] = []
        if let step { location.append("step \(step)") }
        if let field { location.append("field '\(field)'") }
        return location.isEmpty ? message : location.joined(separator: ", ") + ": " + message
    }
}
