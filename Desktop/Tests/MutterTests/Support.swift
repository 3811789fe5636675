@_exported import ExtDisplayTestSupport
import Foundation
import Testing

// The shared test support (MutterCompositor, MutterRemoteKeyboard, ChildProcess, runToEnd, poll) is visible in
// every file of this target.

/// Parses one JSON value.
func parseJSON(_ text: String) throws -> Any {
    do { return try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
        throw SupportError("not JSON: \(text)")
    }
}

/// `extdisplay list --json` on `mutter`, objects by id (and in order).
func listed(_ mutter: MutterCompositor, _ extra: [String] = []) throws -> (byID: [String: [String: Any]], order: [String]) {
    let result = try runToEnd(try Repository.extdisplay().path, ["list", "--json"] + extra, environment: mutter.environment)
    #expect(result.status == 0, "stderr: \(result.stderr)")
    guard let array = try parseJSON(result.stdout) as? [[String: Any]] else {
        throw SupportError("list --json printed no array: \(result.stdout)")
    }
    let ids = array.map { $0["id"] as? String ?? "?" }
    return (Dictionary(array.map { ($0["id"] as? String ?? "?", $0) }, uniquingKeysWith: { a, _ in a }), ids)
}
