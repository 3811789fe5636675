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

/// The built `extdisplay`: the one `scripts/test.sh` built (`EDK_EXTDISPLAY`), else the one next to the test
/// bundle (`swift build --build-tests` builds it). Throws when it is missing.
func extdisplayPath() throws -> String {
    do { return try Repository.extdisplay().path } catch { throw WaylandTestFailure(error.description) }
}

/// Parses one JSON object or array.
func parseJSON(_ text: String) throws -> Any {
    do { return try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
        throw WaylandTestFailure("not JSON: \(text)")
    }
}
