import DesktopFiles
import CZlib

/// A small PNG encoder and decoder over zlib (every bit depth, no interlacing): enough for snapshots and slides.
enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes RGBA pixels (colour type 6, filter 0 on every row).
    static func encode(_ image: Bitmap) -> [UInt8] {
        let stride = image.width * 4
        var raw = [UInt8]()
        raw.reserveCapacity((stride + 1) * image.height)
        for row in 0..<image.height {
            raw.append(0)
            raw.append(contentsOf: image.pixels[row * stride..<(row + 1) * stride])
        }
        var out = signature
        var header = bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height))
        header += [8, 6, 0, 0, 0]
        chunk("IHDR", header, into: &out)
        chunk("IDAT", deflate(raw), into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    /// Decodes a PNG into RGBA pixels: grey, RGB, palette, grey+alpha and RGBA at every bit depth the format
    /// allows (1, 2, 4, 8, 16; 16-bit samples keep their high byte). Untrusted bytes are read defensively: the
    /// declared size is checked against ``ImageLimits`` before anything is allocated, every length and offset
    /// is checked, and the image data is inflated in pieces, so memory grows only with data actually present.
    /// Interlaced (Adam7) images are refused with a message saying how to re-save them.
    static func decode(_ bytes: [UInt8], path: String) throws(CanvasError) -> Bitmap {
        func fail(_ reason: String) -> CanvasError { .unreadableImage(path: path, reason: reason) }
        guard bytes.starts(with: signature) else { throw fail("not a PNG") }
        var header: PNGHeader?
        var idat: [UInt8] = [], palette: [UInt8] = [], transparency: [UInt8] = []
        var at = 8, sawEnd = false
        while bytes.count - at >= 12 {
            let length = Int(readUInt32(bytes, at))
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            guard length <= bytes.count - at - 12 else { throw fail("the file is truncated (in its \(type) chunk)") }
            let body = bytes[at + 8..<at + 8 + length]
            switch type {
            case "IHDR":
                header = try PNGHeader(Array(body), fail: fail)
                if let header { idat.reserveCapacity(min(bytes.count, header.rawSize)) }
            case "PLTE": palette = Array(body)
            case "tRNS": transparency = Array(body)
            case "IDAT":
                guard header != nil else { throw fail("image data before the IHDR header; the file is corrupt") }
                idat += body
            default: break
            }
            at += 12 + length
            if type == "IEND" { sawEnd = true; break }
        }
        guard let header else { throw fail("no IHDR header; the file is corrupt or truncated") }
        guard header.interlace == 0 else {
            throw fail("interlaced (Adam7) PNGs are not supported; re-save it without interlacing "
                       + "(e.g. `convert in.png -interlace none out.png`)")
        }
        if header.colorType == 3, palette.isEmpty { throw fail("a palette image without a PLTE chunk; the file is corrupt") }
        guard !idat.isEmpty else { throw fail(sawEnd ? "no image data" : "the file is truncated (no image data)") }
        guard var raw = inflate(idat, size: header.rawSize) else {
            throw fail(sawEnd ? "corrupt image data" : "the file is truncated (image data ends early)")
        }
        try unfilter(&raw, header, fail: fail)
        return expand(raw, header, palette: palette, transparency: transparency)
    }

    /// Undoes the row filters in place (each row keeps its leading filter byte).
    private static func unfilter(_ raw: inout [UInt8], _ header: PNGHeader,
                                 fail: (String) -> CanvasError) throws(CanvasError) {
        let stride = header.rowBytes, bpp = max(1, header.bitsPerPixel / 8), row = stride + 1
        try raw.withUnsafeMutableBufferPointer { (buffer: inout UnsafeMutableBufferPointer<UInt8>) throws(CanvasError) in
            for y in 0..<header.height {
                let start = y * row
                let filter = buffer[start]
                for x in 0..<stride {
                    let i = start + 1 + x
                    let a = x >= bpp ? Int(buffer[i - bpp]) : 0
                    let b = y > 0 ? Int(buffer[i - row]) : 0
                    let c = (x >= bpp && y > 0) ? Int(buffer[i - row - bpp]) : 0
                    let predictor: Int
                    switch filter {
                    case 0: predictor = 0
                    case 1: predictor = a
                    case 2: predictor = b
                    case 3: predictor = (a + b) / 2
                    case 4: predictor = paeth(a, b, c)
                    default: throw fail("unknown row filter \(filter) in row \(y + 1); the file is corrupt")
                    }
                    buffer[i] = UInt8(truncatingIfNeeded: Int(buffer[i]) + predictor)
                }
            }
        }
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    /// The unfiltered rows as RGBA.
    private static func expand(_ raw: [UInt8], _ header: PNGHeader, palette: [UInt8], transparency: [UInt8]) -> Bitmap {
        let width = header.width, depth = header.depth, channels = header.channels, row = header.rowBytes + 1
        var rgba = [UInt8](repeating: 255, count: width * header.height * 4)
        let maxSample = (1 << min(depth, 8)) - 1
        /// Sample `index` of a row (scaled to 0…255 for grey; the raw index for palettes).
        func sample(_ start: Int, _ index: Int, scale: Bool) -> Int {
            switch depth {
            case 16: return Int(raw[start + index * 2])
            case 8: return Int(raw[start + index])
            default:
                let bit = index * depth
                let value = (Int(raw[start + bit / 8]) >> (8 - depth - bit % 8)) & maxSample
                return scale ? value * 255 / maxSample : value
            }
        }
        for y in 0..<header.height {
            let start = y * row + 1
            for x in 0..<width {
                let d = (y * width + x) * 4, s = x * channels
                switch header.colorType {
                case 0:
                    let g = UInt8(sample(start, s, scale: true))
                    rgba[d] = g; rgba[d + 1] = g; rgba[d + 2] = g
                case 3:
                    let index = sample(start, s, scale: false), p = index * 3
                    if p + 2 < palette.count { rgba[d] = palette[p]; rgba[d + 1] = palette[p + 1]; rgba[d + 2] = palette[p + 2] }
                    if index < transparency.count { rgba[d + 3] = transparency[index] }
                case 4:
                    let g = UInt8(sample(start, s, scale: true))
                    rgba[d] = g; rgba[d + 1] = g; rgba[d + 2] = g; rgba[d + 3] = UInt8(sample(start, s + 1, scale: true))
                default:
                    for k in 0..<channels { rgba[d + k] = UInt8(sample(start, s + k, scale: true)) }
                }
            }
        }
        return Bitmap(width: width, height: header.height, pixels: rgba)
    }

    private static func deflate(_ data: [UInt8]) -> [UInt8] { Deflate.compress(data) }

    /// Inflates zlib data to exactly `size` bytes, in pieces: the output grows only as real data arrives, so a
    /// tiny file that declares a huge image cannot make the decoder allocate for it.
    private static func inflate(_ data: [UInt8], size: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var out = [UInt8]()
        // Deflate expands at most about 1032:1, so this reserves no more than the data can fill, and saves the
        // doubling copies of a growing array (which would double the peak for a large image).
        let (bound, overflow) = data.count.multipliedReportingOverflow(by: 1032)
        out.reserveCapacity(min(size + 1, overflow ? size + 1 : bound + 65_536))
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        var status = Z_OK
        data.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while status == Z_OK, out.count <= size {
                let produced: Int = piece.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                if produced == 0, status == Z_OK { status = Z_BUF_ERROR }
                out += piece[0..<min(produced, size + 1 - out.count)]
            }
        }
        // A stream that ends early, overflows the image or is corrupt is refused.
        return status == Z_STREAM_END && out.count == size ? out : nil
    }

    private static func chunk(_ type: String, _ body: [UInt8], into out: inout [UInt8]) {
        let typed = Array(type.utf8) + body
        out += bigEndian(UInt32(body.count)) + typed
        out += bigEndian(UInt32(crc32(0, typed, uInt(typed.count))))
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func readUInt32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}

/// The fields of an IHDR chunk, validated: sizes within ``ImageLimits``, a colour type and bit depth the PNG
/// format allows.
private struct PNGHeader {
    let width: Int, height: Int, depth: Int, colorType: Int, interlace: Int

    init(_ body: [UInt8], fail: (String) -> CanvasError) throws(CanvasError) {
        guard body.count == 13 else { throw fail("an IHDR header of \(body.count) bytes (13 expected); the file is corrupt") }
        width = Int(PNG.readUInt32(body, 0))
        height = Int(PNG.readUInt32(body, 4))
        depth = Int(body[8])
        colorType = Int(body[9])
        interlace = Int(body[12])
        if let problem = ImageLimits.problem(width: width, height: height) { throw fail(problem) }
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let allowed = depths[colorType] else { throw fail("unknown colour type \(colorType); the file is corrupt") }
        guard allowed.contains(depth) else {
            throw fail("bit depth \(depth) is not valid for colour type \(colorType); the file is corrupt")
        }
        guard interlace <= 1 else { throw fail("unknown interlace method \(interlace); the file is corrupt") }
    }

    /// Samples per pixel.
    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 4 }
    /// Bits per pixel.
    var bitsPerPixel: Int { channels * depth }
    /// Bytes per row without the filter byte (cannot overflow: width ≤ 8192, 64 bits per pixel at most).
    var rowBytes: Int { (width * bitsPerPixel + 7) / 8 }
    /// Bytes of inflated data: every row with its filter byte.
    var rawSize: Int { (rowBytes + 1) * height }
}

/// The largest image decoded: no slide needs more pixels than the largest display, so a side is at most
/// 8,192 pixels and an image at most 64 megapixels (8192×8192; 256 MB as RGBA). Checked from the header,
/// before any allocation.
public enum ImageLimits {
    /// The longest side accepted, in pixels.
    public static let maxSide = 8192
    /// The most pixels accepted (width × height).
    public static let maxPixels = 8192 * 8192

    /// Why an image of `width` × `height` is refused, or nil when it is accepted.
    public static func problem(width: Int, height: Int) -> String? {
        guard width > 0, height > 0 else { return "the header declares an empty image (\(width)×\(height)); the file is corrupt" }
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            return "the image is \(width)×\(height) pixels, more than the limit of \(maxSide)×\(maxSide) "
                + "(\(maxPixels / 1_048_576) MP); scale it down to the display's size (e.g. 3840×2160)"
        }
        return nil
    }
}

/// zlib's compression (a zlib stream, level 6), for the PNG encoder and PDF streams (`/FlateDecode`).
///
/// ```swift
/// let packed = Deflate.compress(rgbRows)
/// ```
public enum Deflate {
    /// `data` compressed as one zlib stream.
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, data, uLong(data.count), 6)
        // compress2 fails only without memory or with a buffer under compressBound: neither can happen here.
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        return Array(out.prefix(Int(size)))
    }
}
