// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
// Stands in for the ObjectiveC module so `@objc` and `#selector` type-check on Linux.

/// An Objective-C method selector (`#selector(...)` produces one).
public struct Selector: ExpressibleByStringLiteral, Hashable, Sendable {
    public init(_ name: String) {}
    public init(stringLiteral value: String) {}
}
