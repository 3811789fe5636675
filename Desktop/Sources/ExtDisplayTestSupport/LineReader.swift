import Foundation
import NIOConcurrencyHelpers

/// Collects the lines a child process writes to a pipe, on a thread of its own, and lets callers wait for one.
public final class LineReader: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])
    private let ended = NIOLockedValueBox(false)

    /// Starts reading `handle` until end of file.
    public init(_ handle: FileHandle) {
        let lines = self.lines, ended = self.ended
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0a) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLockedValue { $0.append(line) }
                }
            }
            ended.withLockedValue { $0 = true }
        }
    }

    /// Every line so far.
    public var all: [String] { lines.withLockedValue { $0 } }

    /// Whether the pipe reached end of file.
    public var isEnded: Bool { ended.withLockedValue { $0 } }

    /// The first line (from index `from` on) that matches, polling until `timeout` seconds (a hang guard).
    public func first(from: Int = 0, where matches: (String) -> Bool, timeout: Double) async -> String? {
        // Whether the pipe had ended is read before the lines: a line that came just before the end is still seen.
        await eventuallyReading(timeout, every: 0.02, { () -> (line: String?, ended: Bool) in
            let ended = isEnded
            let current = all
            return (from < current.count ? current[from...].first(where: matches) : nil, ended)
        }, until: { $0.line != nil || $0.ended }).line
    }
}
