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
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let current = all
            if from < current.count, let line = current[from...].first(where: matches) { return line }
            if isEnded { return nil }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return nil
    }
}
