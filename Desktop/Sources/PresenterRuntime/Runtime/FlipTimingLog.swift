import Foundation

/// A per-flip timing log for finding slow flips, on when `EXTDISPLAY_FLIP_LOG` names a file (lines are
/// appended; `-` means standard error). One line per pass that drew after a key: how long from handling it to the
/// audience being presented, whether the audience's page came
/// from the page cache or had to be rendered then (the cache's counters), and the console's draw time and
/// renders waited for.
///
/// ```
/// EXTDISPLAY_FLIP_LOG=/tmp/flips.log extdisplay present talk.pdf
/// ```
@MainActor
struct FlipTimingLog {
    private let handle: FileHandle?
    private var keyAt: Double?
    private var keyWall: Double = 0
    private var keys = 0

    /// A log writing where `EXTDISPLAY_FLIP_LOG` says, or nothing.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["EXTDISPLAY_FLIP_LOG"], !path.isEmpty else { handle = nil; return }
        if path == "-" { handle = FileHandle.standardError; return }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        handle = FileHandle(forWritingAtPath: path)
        handle?.seekToEndOfFile()
    }

    /// Whether lines are written.
    var isOn: Bool { handle != nil }

    /// Notes a key handled at `now` (seconds).
    mutating func key(at now: Double) {
        guard isOn else { return }
        keys += 1
        keyAt = now
        keyWall = Date().timeIntervalSince1970
    }

    /// Writes one line for the pass that drew after the last key, then forgets the key.
    mutating func drew(at now: Double, audienceMs: Double, page: Int?, cache: (hits: Int, waits: Int, renders: Int),
                       consoleWaits: Int, consoleMs: Double) {
        guard let handle, let keyAt else { return }
        func ms(_ value: Double) -> String { String(format: "%.1fms", value) }
        let line = "flip key=\(keys) page=\(page.map(String.init) ?? "-") wall=\(String(format: "%.3f", Date().timeIntervalSince1970))"
            + " keyWall=\(String(format: "%.4f", keyWall))"
            + " keyToAudience=\(ms((now - keyAt) * 1000 + audienceMs)) audience=\(ms(audienceMs))"
            + " hits=\(cache.hits) waits=\(cache.waits) renders=\(cache.renders) console=\(ms(consoleMs))"
            + " consoleWaits=\(consoleWaits)\n"
        handle.write(Data(line.utf8))
        self.keyAt = nil
    }
}
