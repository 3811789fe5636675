import Foundation

/// The container a video file is in, read from its first bytes (never from its name): what the browser video route
/// sends as `Content-Type` and what the page asks its browser about (`canPlayType`) before loading anything, and
/// whether a file a PDF deck's annotation names is a video at all.
///
/// ```swift
/// MediaContainer.sniff([0x1A, 0x45, 0xDF, 0xA3])        // .matroska
/// MediaContainer.sniff(Array("%PDF-1.4".utf8)).isVideo  // false
/// ```
public enum MediaContainer: String, Sendable, Hashable, CaseIterable {
    /// WebM (Matroska with the `webm` document type).
    case webm = "video/webm"
    /// Matroska.
    case matroska = "video/x-matroska"
    /// MP4 (ISO base media file format).
    case mp4 = "video/mp4"
    /// QuickTime (`ftyp` brand `qt  `).
    case quickTime = "video/quicktime"
    /// Ogg.
    case ogg = "video/ogg"
    /// AVI (RIFF).
    case avi = "video/x-msvideo"
    /// MPEG transport stream.
    case mpegTS = "video/mp2t"
    /// Anything else: sent as bytes; pages say they cannot tell what it is.
    case unknown = "application/octet-stream"

    /// The `Content-Type` value.
    public var contentType: String { rawValue }

    /// Whether the bytes were a known video container (anything but ``unknown``).
    public var isVideo: Bool { self != .unknown }

    /// How many leading bytes ``sniff(_:)`` reads.
    public static let sniffLength = 256

    /// The container whose signature starts `bytes` (the file's first ``sniffLength`` bytes, or fewer).
    public static func sniff(_ bytes: [UInt8]) -> MediaContainer {
        func matches(_ signature: String, at offset: Int) -> Bool {
            let wanted = Array(signature.utf8)
            return bytes.count >= offset + wanted.count && Array(bytes[offset..<(offset + wanted.count)]) == wanted
        }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            // The EBML header's DocType element (0x42 0x82, a one-byte size) names the document type.
            let head = Array(bytes.prefix(64))
            for index in 0..<max(0, head.count - 3) where head[index] == 0x42 && head[index + 1] == 0x82 {
                let size = Int(head[index + 2] & 0x7F)
                let start = index + 3
                guard head[index + 2] & 0x80 != 0, start + size <= head.count else { continue }
                return String(decoding: head[start..<(start + size)], as: UTF8.self) == "webm" ? .webm : .matroska
            }
            return .matroska
        }
        if matches("ftyp", at: 4) { return matches("qt  ", at: 8) ? .quickTime : .mp4 }
        if matches("OggS", at: 0) { return .ogg }
        if matches("RIFF", at: 0), matches("AVI ", at: 8) { return .avi }
        if bytes.count > 188, bytes[0] == 0x47, bytes[188] == 0x47 { return .mpegTS }
        return .unknown
    }
}
