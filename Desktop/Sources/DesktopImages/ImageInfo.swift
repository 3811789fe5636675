import DesktopFiles
import Foundation

/// The pixel size an image file declares in its header, read without decoding and without blocking: the
/// file is opened non-blocking and must be a regular file (a FIFO or device answers nil at once).
///
/// ```swift
/// ImageInfo.pixelSize(of: URL(fileURLWithPath: "chart.png"))   // (width: 1600, height: 900)
/// ```
public enum ImageInfo {
    /// Width and height from a PNG, JPEG or BMP header; nil when the file is not one of those, cannot be read,
    /// or declares an empty size.
    public static func pixelSize(of url: URL) -> (width: Int, height: Int)? {
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return pixelSize(header: Array(bytes.prefix(count)))
    }

    /// The size declared by the first bytes of an image file.
    public static func pixelSize(header b: [UInt8]) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le32(_ i: Int) -> Int { Int(Int32(bitPattern: UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24)) }
        var size: (Int, Int)?
        switch ImageFormat(sniffing: b) {
        case .png where b.count >= 24: size = (be32(16), be32(20))
        case .bmp where b.count >= 26: size = (le32(18), abs(le32(22)))
        case .jpeg:
            var i = 2
            while i + 9 < b.count, b[i] == 0xFF {
                let marker = b[i + 1], length = be16(i + 2)
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    size = (be16(i + 7), be16(i + 5))
                    break
                }
                i += 2 + length
            }
        default: break
        }
        guard let (w, h) = size, w > 0, h > 0 else { return nil }
        return (w, h)
    }
}
