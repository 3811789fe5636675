import Foundation

/// What identifies a version of a file without reading it: device, inode, size and modification time (to the
/// nanosecond). A re-export (written in place, or a new file renamed over the old) changes it.
///
/// ```swift
/// let before = FileSignature(of: url)
/// // … the file is exported again …
/// FileSignature(of: url) != before  // true
/// ```
public struct FileSignature: Hashable, Sendable {
    /// The device the file is on.
    public var device: UInt64
    /// Its inode.
    public var inode: UInt64
    /// Its size in bytes.
    public var size: Int64
    /// Its modification time, nanoseconds since 1970.
    public var modified: Int64

    /// The signature of the file at `url` now (links followed), or nil when there is none.
    public init?(of url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
