import Foundation

/// A log of the presenter's timing, for finding where launch, flip and replug time goes: on when
/// `EXTDISPLAY_TIMING_LOG` names a file (lines are appended; `-` means standard error). Each line starts with the
/// milliseconds since the process started (read from `/proc/self/stat`, 10 ms steps, so it lines up with a
/// benchmark's launch figure), then what happened: a page render started or ended (with the compression's time), a
/// held page decoded, a page drawn, a window presented, RandR changes read, a window shown or moved.
///
/// ```
/// EXTDISPLAY_TIMING_LOG=/tmp/timing.log extdisplay present talk.pdf
/// ```
public enum TimingTrace {
    private static let sink: (handle: FileHandle, start: UInt64)? = {
        guard let path = ProcessInfo.processInfo.environment["EXTDISPLAY_TIMING_LOG"], !path.isEmpty else { return nil }
        let handle: FileHandle?
        if path == "-" {
            handle = FileHandle.standardError
        } else {
            if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
            handle = FileHandle(forWritingAtPath: path)
            handle?.seekToEndOfFile()
        }
        guard let handle else { return nil }
        // Runs appended to one file are told apart by this line.
        handle.write(Data("---- process \(getpid())\n".utf8))
        return (handle, processStartNanoseconds() ?? DispatchTime.now().uptimeNanoseconds)
    }()
    private static let lock = NSLock()

    /// Whether lines are written.
    public static var isOn: Bool { sink != nil }

    /// Milliseconds since the process started (since the log's first use when the start cannot be read).
    public static func milliseconds() -> Double {
        guard let sink else { return 0 }
        return Double(DispatchTime.now().uptimeNanoseconds &- sink.start) / 1e6
    }

    /// Writes one line, `message` built only when the log is on.
    public static func note(_ message: @autoclosure () -> String) {
        guard let sink else { return }
        let line = String(format: "%8.1f ", milliseconds()) + message() + "\n"
        lock.withLock { sink.handle.write(Data(line.utf8)) }
    }

    /// The process's start on the monotonic clock (field 22 of `/proc/self/stat`, in clock ticks since boot).
    private static func processStartNanoseconds() -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = UInt64(fields[19]) else { return nil }
        let perSecond = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        return ticks * (1_000_000_000 / perSecond)
    }
}
