import DesktopFiles
import Foundation

/// An 8-bit RGBA colour.
///
/// ```swift
/// canvas.clear(.black)
/// canvas.fill(Rect(x: 10, y: 10, width: 100, height: 50), Color(hex: 0x3366FF))
/// ```
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8
    /// Alpha (opacity), 0…255.
    public var alpha: UInt8

    /// Creates a colour from components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates an opaque colour from `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
    }

    /// Opaque black.
    public static let black = Color(hex: 0x000000)
    /// Opaque white.
    public static let white = Color(hex: 0xFFFFFF)
    /// Opaque red.
    public static let red = Color(hex: 0xFF0000)
    /// Opaque green.
    public static let green = Color(hex: 0x00FF00)
    /// Opaque blue.
    public static let blue = Color(hex: 0x0000FF)
    /// Mid grey.
    public static let gray = Color(hex: 0x808080)

    /// `"#RRGGBBAA"`.
    public var description: String {
        String(format: "#%02X%02X%02X%02X", red, green, blue, alpha)
    }
}

/// An image in memory: RGBA, 8 bits per channel, rows top to bottom. What PNG files decode to, what
/// ``Canvas/readPixels()`` returns and what ``Canvas/draw(_:in:)`` draws.
///
/// ```swift
/// let logo = try Bitmap(contentsOf: URL(fileURLWithPath: "logo.png"))
/// canvas.draw(logo, in: Rect(x: 0, y: 0, width: logo.width, height: logo.height))
/// ```
public struct Bitmap: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel.
    public var pixels: [UInt8]

    /// Creates a bitmap from RGBA bytes (`pixels.count` must be `width * height * 4`).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "Bitmap wants width * height * 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A bitmap filled with one colour.
    public init(width: Int, height: Int, color: Color) {
        let pixel = [color.red, color.green, color.blue, color.alpha]
        self.init(width: width, height: height,
                  pixels: Array([[UInt8]](repeating: pixel, count: width * height).joined()))
    }

    /// Loads a PNG (any bit depth, not interlaced), a JPEG (through libjpeg-turbo) or a BMP file. The file is
    /// read as untrusted: a regular file only, at most ``UntrustedFile/imageLimit`` bytes, and an image larger
    /// than ``ImageLimits`` is refused before it is decoded. Other formats (SVG, GIF, WebP, TIFF …) are named
    /// in the error.
    public init(contentsOf url: URL) throws(CanvasError) {
        let bytes: [UInt8]
        do { bytes = try UntrustedFile.read(url, limit: UntrustedFile.imageLimit) } catch {
            throw .unreadableImage(path: url.path, reason: error.reason)
        }
        self = try Bitmap(decoding: bytes, path: url.path)
    }

    /// Decodes the bytes of a PNG, JPEG or BMP file; `path` names it in errors.
    public init(decoding bytes: [UInt8], path: String) throws(CanvasError) {
        switch ImageFormat(sniffing: bytes) {
        case .png: self = try PNG.decode(bytes, path: path)
        case .jpeg: self = try JPEGDecoder.decode(bytes, path: path)
        case .bmp: self = try BMPHeader.load(bytes, path: path)
        case .unsupported(let name):
            throw .unreadableImage(path: path, reason: "\(name) images are not supported; convert it to PNG or JPEG")
        case .unknown:
            throw .unreadableImage(path: path, reason: bytes.isEmpty ? "the file is empty" : "not a PNG, JPEG or BMP image")
        }
    }

    /// The colour at a pixel (0,0 = top left).
    public func pixel(x: Int, y: Int) -> Color {
        let i = (y * width + x) * 4
        return Color(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
    }

    /// The image encoded as PNG.
    public func pngData() -> Data { Data(PNG.encode(self)) }

    /// Writes the image as a PNG file.
    public func writePNG(to url: URL) throws(CanvasError) {
        do { try AtomicFile.write(pngData(), to: url) } catch {
            throw .cannotWrite(path: url.path, reason: error.reason)
        }
    }
}

/// Why drawing, loading or saving failed, and what to do.
public enum CanvasError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SDL could not create a surface, renderer or texture.
    case sdl(String)
    /// A font file could not be opened.
    case missingFont(path: String)
    /// An image could not be read.
    case unreadableImage(path: String, reason: String)
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)

    /// One line saying what failed and what to do.
    public var description: String {
        switch self {
        case .sdl(let message): "SDL failed: \(message) — check SDL2 is installed (scripts/install-deps.sh)"
        case .missingFont(let path):
            "cannot open font \(path) — install fonts-dejavu-core or pass another TrueType font"
        case .unreadableImage(let path, let reason): "cannot load image \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason); nothing was left under that name — check the folder exists and has space"
        }
    }
}
