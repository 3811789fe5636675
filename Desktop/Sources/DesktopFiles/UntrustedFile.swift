import Foundation

/// Reads a file that may be hostile: only a regular file (a symbolic link is followed, then the target
/// checked), never a FIFO, device, socket or directory; at most `limit` bytes; and never blocking — the file
/// is opened non-blocking, so a FIFO swapped in after the check cannot hang the reader, and the read stops
/// after `timeout` seconds (a file on a stalled network share).
///
/// ```swift
/// let bytes = try UntrustedFile.read(URL(fileURLWithPath: "deck.md"), limit: UntrustedFile.deckLimit)
/// ```
public enum UntrustedFile {
    /// The largest deck file read: 4 MiB of Markdown (about 2,000 pages of text). A bigger file is refused.
    public static let deckLimit = 4 << 20
    /// The largest image file read: 64 MiB (a 8192×8192 PNG compresses far below this).
    public static let imageLimit = 64 << 20
    /// How long a read may take before it is abandoned, in seconds.
    public static let timeout = 10.0

    /// The bytes of `url`, or an error saying what the path is and what to do.
    public static func read(_ url: URL, limit: Int, timeout: Double = UntrustedFile.timeout) throws(UntrustedFileError) -> [UInt8] {
        try read(url, limit: limit, timeout: timeout, head: false)
    }

    /// The first `count` bytes of `url` (fewer when it is shorter), checked like ``read(_:limit:timeout:)``: what
    /// a file's signature is read from, whatever its size.
    public static func head(_ url: URL, count: Int, timeout: Double = UntrustedFile.timeout) throws(UntrustedFileError) -> [UInt8] {
        try read(url, limit: max(0, count), timeout: timeout, head: true)
    }

    private static func read(_ url: URL, limit: Int, timeout: Double, head: Bool) throws(UntrustedFileError) -> [UInt8] {
        // Opened and checked once, by OpenedFile: stat first (a device is never opened), open non-blocking,
        // then the descriptor itself checked.
        let file = try OpenedFile.open(bytes: Array(url.path.utf8))
        let path = file.shownPath
        let fd = file.descriptor
        // The descriptor is closed with `file`: kept alive to the end of the reads.
        defer { withExtendedLifetime(file) {} }
        guard head || Int(file.size) <= limit else { throw .tooLarge(path, size: Int(file.size), limit: limit) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(min(Int(file.size), limit))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while true {
            let wanted = head ? min(chunk.count, limit - bytes.count) : chunk.count
            if wanted == 0 { break }
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, wanted) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN {
                    if DispatchTime.now().uptimeNanoseconds > deadline { throw .timedOut(path, timeout) }
                    continue
                }
                throw .unreadable(path, String(cString: strerror(errno)))
            }
            guard bytes.count + count <= limit else { throw .tooLarge(path, size: bytes.count + count, limit: limit) }
            bytes += chunk[0..<count]
            if DispatchTime.now().uptimeNanoseconds > deadline { throw .timedOut(path, timeout) }
        }
        return bytes
    }

    /// Refuses anything but a regular file, naming what it is.
    static func checkKind(_ mode: mode_t, _ path: String) throws(UntrustedFileError) {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .notRegular(path, "a directory")
        case S_IFIFO: throw .notRegular(path, "a FIFO (named pipe)")
        case S_IFCHR, S_IFBLK: throw .notRegular(path, "a device")
        case S_IFSOCK: throw .notRegular(path, "a socket")
        default: throw .notRegular(path, "not a regular file")
        }
    }
}

/// Why an untrusted file could not be read.
public enum UntrustedFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing at the path.
    case missing(String)
    /// The path is a directory, FIFO, device or socket (after following links).
    case notRegular(String, String)
    /// The file is larger than the limit.
    case tooLarge(String, size: Int, limit: Int)
    /// The system refused (permissions, I/O error).
    case unreadable(String, String)
    /// Reading took longer than the timeout.
    case timedOut(String, Double)

    /// The path concerned.
    public var path: String {
        switch self {
        case .missing(let p), .notRegular(let p, _), .tooLarge(let p, _, _), .unreadable(let p, _), .timedOut(let p, _): p
        }
    }

    /// Why, without the path: `is a FIFO (named pipe), not a regular file`.
    public var reason: String {
        switch self {
        case .missing: "does not exist"
        case .notRegular(_, let kind): "is \(kind), not a regular file; give the path of a file"
        case .tooLarge(_, let size, let limit): "is \(size) bytes, more than the limit of \(limit) bytes; split or shrink it"
        case .unreadable(_, let why): "cannot be read (\(why)); check its permissions"
        case .timedOut(_, let seconds): "could not be read within \(Int(seconds)) s; copy it to a local disk"
        }
    }

    /// `"PATH REASON"`.
    public var description: String { "\(path) \(reason)" }
}
