import CZlib

/// A small PNG encoder and decoder over zlib (8-bit images, no interlacing): enough for snapshots and slides.
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

    /// Decodes a PNG into RGBA pixels.
    static func decode(_ bytes: [UInt8], path: String) throws(CanvasError) -> Bitmap {
        func fail(_ reason: String) -> CanvasError { .unreadableImage(path: path, reason: reason) }
        guard bytes.starts(with: signature) else { throw fail("not a PNG") }
        var header = PNGHeader()
        var idat: [UInt8] = [], palette: [UInt8] = [], transparency: [UInt8] = []
        var at = 8
        while at + 8 <= bytes.count {
            let length = Int(readUInt32(bytes, at))
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            guard at + 12 + length <= bytes.count else { throw fail("truncated \(type) chunk") }
            let body = Array(bytes[at + 8..<at + 8 + length])
            switch type {
            case "IHDR": header = PNGHeader(body)
            case "PLTE": palette = body
            case "tRNS": transparency = body
            case "IDAT": idat += body
            default: break
            }
            at += 12 + length
            if type == "IEND" { break }
        }
        guard header.width > 0, header.height > 0 else { throw fail("no IHDR") }
        guard header.depth == 8, header.interlace == 0, let channels = header.channels else {
            throw fail("only 8-bit non-interlaced PNGs are supported")
        }
        let stride = header.width * channels
        guard let raw = inflate(idat, size: (stride + 1) * header.height) else { throw fail("corrupt image data") }
        let rows = try unfilter(raw, stride: stride, height: header.height, bpp: channels, fail: fail)
        return expand(rows, header, channels: channels, palette: palette, transparency: transparency)
    }

    private static func unfilter(_ raw: [UInt8], stride: Int, height: Int, bpp: Int,
                                 fail: (String) -> CanvasError) throws(CanvasError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let src = y * (stride + 1) + 1, dst = y * stride
            for x in 0..<stride {
                let a = x >= bpp ? Int(out[dst + x - bpp]) : 0
                let b = y > 0 ? Int(out[dst - stride + x]) : 0
                let c = (x >= bpp && y > 0) ? Int(out[dst - stride + x - bpp]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4: predictor = paeth(a, b, c)
                default: throw fail("unknown row filter \(filter)")
                }
                out[dst + x] = UInt8(truncatingIfNeeded: Int(raw[src + x]) + predictor)
            }
        }
        return out
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    private static func expand(_ rows: [UInt8], _ header: PNGHeader, channels: Int,
                               palette: [UInt8], transparency: [UInt8]) -> Bitmap {
        let count = header.width * header.height
        var rgba = [UInt8](repeating: 255, count: count * 4)
        for i in 0..<count {
            let s = i * channels, d = i * 4
            switch header.colorType {
            case 0: rgba[d] = rows[s]; rgba[d + 1] = rows[s]; rgba[d + 2] = rows[s]
            case 2: rgba[d] = rows[s]; rgba[d + 1] = rows[s + 1]; rgba[d + 2] = rows[s + 2]
            case 3:
                let p = Int(rows[s]) * 3
                if p + 2 < palette.count { rgba[d] = palette[p]; rgba[d + 1] = palette[p + 1]; rgba[d + 2] = palette[p + 2] }
                if Int(rows[s]) < transparency.count { rgba[d + 3] = transparency[Int(rows[s])] }
            case 4:
                rgba[d] = rows[s]; rgba[d + 1] = rows[s]; rgba[d + 2] = rows[s]; rgba[d + 3] = rows[s + 1]
            default:
                rgba[d] = rows[s]; rgba[d + 1] = rows[s + 1]; rgba[d + 2] = rows[s + 2]; rgba[d + 3] = rows[s + 3]
            }
        }
        return Bitmap(width: header.width, height: header.height, pixels: rgba)
    }

    private static func deflate(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, data, uLong(data.count), 6)
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        return Array(out.prefix(Int(size)))
    }

    private static func inflate(_ data: [UInt8], size: Int) -> [UInt8]? {
        var outSize = uLong(size)
        var out = [UInt8](repeating: 0, count: size)
        guard uncompress(&out, &outSize, data, uLong(data.count)) == Z_OK, Int(outSize) == size else { return nil }
        return out
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

/// The fields of an IHDR chunk.
private struct PNGHeader {
    var width = 0, height = 0, depth = 0, colorType = 0, interlace = 0

    init() {}

    init(_ body: [UInt8]) {
        guard body.count >= 13 else { return }
        width = Int(PNG.readUInt32(body, 0))
        height = Int(PNG.readUInt32(body, 4))
        depth = Int(body[8])
        colorType = Int(body[9])
        interlace = Int(body[12])
    }

    /// Bytes per pixel for the colour type, nil when unsupported.
    var channels: Int? {
        switch colorType {
        case 0, 3: 1
        case 2: 3
        case 4: 2
        case 6: 4
        default: nil
        }
    }
}
