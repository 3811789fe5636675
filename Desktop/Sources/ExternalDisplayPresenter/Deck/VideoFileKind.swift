import Foundation

/// Whether a file named in a Markdown image is a video: by its extension, or by its first bytes (WebM/Matroska,
/// MP4/QuickTime, Ogg, AVI), so that `![demo](clip.webm)` becomes a clip and a video saved under another name is
/// still found.
///
/// ```swift
/// VideoFileKind.isVideoName("demo.webm")                   // true
/// VideoFileKind.container(of: [0x1A, 0x45, 0xDF, 0xA3])   // "WebM/Matroska"
/// ```
public enum VideoFileKind {
    /// Extensions taken as video without reading the file.
    public static let extensions: Set<String> = ["webm", "mkv", "mp4", "m4v", "mov", "ogv", "ogg", "avi"]

    /// Whether the file name's extension is a video one.
    public static func isVideoName(_ path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// The container the first bytes of a file announce, or nil when they are not a video container's.
    public static func container(of head: [UInt8]) -> String? {
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "WebM/Matroska" }
        if head.count >= 12, head[4..<8].elementsEqual(Array("ftyp".utf8)) { return "MP4/QuickTime" }
        if head.count >= 8, ["moov", "mdat", "wide", "free"].contains(where: { head[4..<8].elementsEqual(Array($0.utf8)) }) {
            return "QuickTime"
        }
        if head.starts(with: Array("OggS".utf8)) { return "Ogg" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual(Array("AVI ".utf8)) {
            return "AVI"
        }
        return nil
    }

    /// The container a file's first 16 bytes announce, or nil (also for anything but a regular file: the file is
    /// opened non-blocking and checked after opening, so a FIFO never hangs the reader).
    public static func container(ofFile url: URL) -> String? {
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var head = [UInt8](repeating: 0, count: 16)
        let count = head.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return container(of: Array(head.prefix(count)))
    }
}
