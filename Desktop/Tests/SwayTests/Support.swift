@_exported import ExtDisplayTestSupport
import Foundation
import Testing

// The shared test support (ChildProcess, runToEnd, poll and eventually) is visible in every file of this target.

/// The repository root (scripts, examples).
let packageRoot = Repository.root

/// A failure that says what went wrong and what to do.
struct WaylandTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Parses one JSON object or array.
func parseJSON(_ text: String) throws -> Any {
    do { return try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
        throw WaylandTestFailure("not JSON: \(text)")
    }
}
