import Foundation

/// The one way `extdisplay` writes to standard output and standard error: unbuffered `write(2)` calls, one
/// whole text per call under a lock (lines from several threads never interleave), and every failure handled.
///
/// A write that fails (a full disk, `> /dev/full`; a closed pipe, `| head -1`; an I/O error) ends the process
/// with ``failureStatus`` after one line on standard error naming the stream and the system's reason (no crash
/// report: Foundation's `FileHandle.write(_:)` traps on such an error). `SIGPIPE` is ignored from the first
/// write on, so a closed pipe is an error (`EPIPE`) handled here, not a silent death. When standard error itself
/// cannot be written, the process ends with the same status and nothing more is said.
///
/// The process ends through `exit(3)`, so the exit hooks that restore display modes run as on any other exit.
///
/// ```swift
/// StandardStreams.line("serving clip.webm at http://127.0.0.1:8080/")   // stdout, one line
/// StandardStreams.errorLine("extdisplay play: clip.webm: no such file") // stderr, one line
/// ```
public enum StandardStreams {
    /// The exit status after a failed write to standard output or standard error: 74 (`EX_IOERR` in
    /// `sysexits.h`), apart from every command's own statuses.
    public static let failureStatus: Int32 = 74

    /// Writes `text` followed by a newline to standard output.
    public static func line(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }

    /// Writes `text` as it is (no newline added) to standard output.
    public static func write(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Writes `text` followed by a newline to standard error.
    public static func errorLine(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    /// Writes `text` to `descriptor` (standard output or standard error); on failure ends the process as the
    /// type's documentation says.
    public static func write(_ text: String, to descriptor: Int32) {
        ignorePipeSignal
        lock.lock()
        let failure = writeAll(Array(text.utf8), to: descriptor)
        guard let failure, !exiting else {
            // A failure while already exiting (an exit hook's line): dropped, the status is already decided.
            lock.unlock()
            return
        }
        // Still holding the lock (recursive: exit hooks on this thread may write): no other thread writes half a
        // line after the message.
        exiting = true
        if descriptor != STDERR_FILENO {
            let stream = descriptor == STDOUT_FILENO ? "standard output" : "descriptor \(descriptor)"
            _ = writeAll(Array("extdisplay: cannot write to \(stream) (\(failure)); stopping\n".utf8), to: STDERR_FILENO)
        }
        exit(failureStatus)
    }

    /// Writes every byte, retrying after signals and waiting while a non-blocking descriptor is full; the
    /// system's reason when a write fails.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiting, 1, -1)
                    continue
                }
                return String(cString: strerror(code))
            }
            if written == 0 { return "nothing could be written" }
            offset += written
        }
        return nil
    }

    private static let lock = NSRecursiveLock()
    /// Set (under `lock`) once a failed write has begun ending the process.
    nonisolated(unsafe) private static var exiting = false
    private static let ignorePipeSignal: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}
