import Foundation

/// Writes a file so that it is either complete under its final name or absent: the bytes go to a temporary
/// name in the same directory, are flushed to disk (`fsync`), then renamed over the final name. A failed
/// write (a full disk, a missing directory) removes the temporary file and leaves no file under the final name.
///
/// ```swift
/// try AtomicFile.write(Data(png), to: URL(fileURLWithPath: "slide-1.png"))
/// ```
public enum AtomicFile {
    /// Writes `data` to `url` atomically; throws a message naming the file and the system's reason.
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws(AtomicWriteError) {
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw AtomicWriteError(path: url.path, reason: String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw AtomicWriteError(path: url.path, reason: failure)
        }
    }
}

/// An atomic write failed; nothing was left under the final name.
public struct AtomicWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The final path that was to be written.
    public var path: String
    /// The system's reason (`No space left on device`).
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `"cannot write PATH: REASON; nothing was written under that name — free space or pick another folder"`.
    public var description: String {
        "cannot write \(path): \(reason); nothing was left under that name — free some space or choose another folder"
    }
}
