import Foundation

/// Encodes RGBA pixels as a PNG file (8-bit RGB, no alpha). Uses stored deflate blocks: no compression
/// library needed, larger files.
public enum PNGWriter {
    /// The PNG bytes of `rgba` (width × height × 4 bytes, rows top to bottom, `pitch` bytes per row).
    public static func encode(rgba: UnsafeRawBufferPointer, width: Int, height: Int, pitch: Int) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (1 + width * 3))
        for y in 0..<height {
            raw.append(0)  // filter: none
            let row = y * pitch
            for x in 0..<width {
                let p = row + x * 4
                raw.append(rgba[p])
                raw.append(rgba[p + 1])
                raw.append(rgba[p + 2])
            }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = [UInt8]()
        header += be32(width) + be32(height) + [8, 2, 0, 0, 0]
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typeBytes = Array(type.utf8)
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(body)
        return Data(be32(body.count) + typeBytes + body + be32(Int(crc.value)))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let last: UInt8 = offset + n >= data.count ? 1 : 0
            out += [last, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8 & 255)]
            out += data[offset..<offset + n]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for chunkStart in stride(from: 0, to: data.count, by: 5552) {
            for byte in data[chunkStart..<min(chunkStart + 5552, data.count)] {
                a += UInt32(byte)
                b += a
            }
            a %= 65521
            b %= 65521
        }
        return out + be32(Int(b << 16 | a))
    }
}

/// CRC-32 (ISO-HDLC), as PNG chunks use it.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
    private var crc: UInt32 = 0xFFFF_FFFF

    mutating func update(_ bytes: [UInt8]) {
        for byte in bytes { crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }

    var value: UInt32 { crc ^ 0xFFFF_FFFF }
}
