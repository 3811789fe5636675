import Foundation

extension ChildProcess {
    /// The JSON objects among the lines printed so far (`extdisplay watch --json` prints one event a line).
    public var watchEvents: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits (20 s at most) for a `watch --json` event named `event` (`connect`, `disconnect`) about `output`.
    public func awaitWatchEvent(_ event: String, output: String) -> Bool {
        poll {
            watchEvents.contains { $0["event"] as? String == event
                && ($0["display"] as? [String: Any])?["id"] as? String == output }
        }
    }
}
