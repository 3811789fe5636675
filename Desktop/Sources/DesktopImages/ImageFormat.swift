import DesktopFiles
import CJPEG

/// What an image file is, from its first bytes (never from its name).
enum ImageFormat: Equatable {
    case png, jpeg, bmp
    /// A known format the decoders do not read, by name.
    case unsupported(String)
    /// Not an image format recognised at all.
    case unknown

    init(sniffing bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        let text = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        if starts(PNG.signature) { self = .png }
        else if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x42, 0x4D]) { self = .bmp }
        else if starts(Array("GIF8".utf8)) { self = .unsupported("GIF") }
        else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { self = .unsupported("WebP") }
        else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { self = .unsupported("TIFF") }
        else if starts(Array("ftyp".utf8), at: 4) { self = .unsupported("HEIF/AVIF") }
        else if starts(Array("%PDF".utf8)) { self = .unsupported("PDF") }
        else if text.contains("<svg") { self = .unsupported("SVG") }
        else { self = .unknown }
    }
}

/// JPEG through libjpeg-turbo, with the size checked against ``ImageLimits`` before decoding.
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8], path: String) throws(CanvasError) -> Bitmap {
        var out: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = edk_jpeg_decode(bytes, bytes.count, Int32(ImageLimits.maxSide), ImageLimits.maxPixels,
                                     &out, &width, &height, &message, message.count)
        switch status {
        case 0:
            guard let out else { throw .unreadableImage(path: path, reason: "the JPEG decoder returned nothing") }
            defer { free(out) }
            let count = Int(width) * Int(height) * 4
            return Bitmap(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: out, count: count)))
        case 2:
            throw .unreadableImage(path: path, reason: ImageLimits.problem(width: Int(width), height: Int(height))
                                   ?? "the JPEG declares an unusable size")
        default:
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .unreadableImage(path: path, reason: "not a decodable JPEG (\(reason)); the file is corrupt or truncated")
        }
    }
}

/// A BMP's declared size, checked against ``ImageLimits`` before SDL decodes it.
enum BMPHeader {
    static func load(_ bytes: [UInt8], path: String) throws(CanvasError) -> Bitmap {
        guard bytes.count >= 26 else { throw .unreadableImage(path: path, reason: "the BMP header is truncated") }
        func le32(_ at: Int) -> Int32 {
            Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
                  | UInt32(bytes[at + 3]) << 24)
        }
        let width = Int(le32(18)), height = Int(le32(22)).magnitude
        if let problem = ImageLimits.problem(width: width, height: Int(height)) {
            throw .unreadableImage(path: path, reason: problem)
        }
        return try BMPLoader.load(path: path)
    }
}
