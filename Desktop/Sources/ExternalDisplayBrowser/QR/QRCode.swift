/// A QR code symbol: bytes encoded in byte mode at error correction level M, in the smallest of versions 1–10
/// that holds them, with the mask of least penalty (all eight are tried). Written for the presenter's URLs
/// (up to 213 bytes); phones' cameras read it from the terminal or the console. Bytes outside ASCII are
/// announced as UTF-8 (ECI 26) so readers do not guess another character set.
///
/// ```swift
/// let code = try QRCode(encoding: "http://192.168.1.20:8080/")
/// for row in 0..<code.size { print((0..<code.size).map { code[row, $0] ? "#" : " " }.joined()) }
/// ```
public struct QRCode: Hashable, Sendable {
    /// The version chosen (1…10).
    public let version: Int
    /// The mask pattern chosen (0…7).
    public let mask: Int
    /// Modules per side.
    public let size: Int
    /// Dark modules, row by row (`size × size`).
    public let modules: [Bool]

    /// Whether the module at `row`, `column` is dark; false outside the symbol (the quiet zone).
    public subscript(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// Encodes `text` as UTF-8 bytes.
    public init(encoding text: String) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Encodes `bytes`; throws when they do not fit in version 10 at level M (213 bytes).
    public init(bytes: [UInt8]) throws(QRCodeError) {
        try self.init(bytes: bytes, forcingMask: nil)
    }

    /// Encodes `bytes` with a given mask (nil: the one of least penalty); for tests of each mask.
    init(bytes: [UInt8], forcingMask: Int?) throws(QRCodeError) {
        let utf8 = bytes.contains { $0 >= 0x80 }
        guard let version = QRVersion.smallest(holding: bytes.count, utf8: utf8) else {
            throw QRCodeError("\(bytes.count) bytes do not fit in a QR code up to version 10 (at most "
                              + "\(QRVersion(10)!.byteCapacity) bytes at level M, 1 less beyond ASCII); use a shorter address")
        }
        let codewords = Self.interleave(Self.dataCodewords(bytes, version, utf8: utf8), version)
        var matrix = QRMatrix(version: version)
        matrix.place(codewords)
        let masks = forcingMask.map { [$0] } ?? Array(0..<8)
        var best: (penalty: Int, mask: Int, matrix: QRMatrix)?
        for mask in masks {
            var candidate = matrix
            candidate.apply(mask: mask)
            let penalty = candidate.penalty
            if best == nil || penalty < best!.penalty { best = (penalty, mask, candidate) }
        }
        self.version = version.number
        self.mask = best!.mask
        self.size = version.size
        self.modules = best!.matrix.dark
    }

    /// The data codewords: with `utf8`, the ECI mode 0111 and designator 26 (UTF-8) first; then mode 0100, the
    /// byte count, the bytes, a terminator of up to four 0 bits, 0 bits to the byte boundary, then the pad bytes
    /// 0xEC and 0x11 in turn.
    static func dataCodewords(_ bytes: [UInt8], _ version: QRVersion, utf8: Bool = false) -> [UInt8] {
        var bits = BitBuffer()
        if utf8 {
            bits.append(0b0111, count: 4)
            bits.append(26, count: 8)
        }
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version.countBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < version.dataCodewords {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Splits the data into the version's blocks, adds each block's check codewords, and interleaves: the
    /// first data codeword of every block, then the second, …, then the check codewords the same way.
    static func interleave(_ data: [UInt8], _ version: QRVersion) -> [UInt8] {
        var blocks: [[UInt8]] = []
        var start = 0
        for size in version.blockSizes {
            blocks.append(Array(data[start..<start + size]))
            start += size
        }
        let checks = blocks.map { QRReedSolomon.errorCorrection(for: $0, count: version.checkPerBlock) }
        var out: [UInt8] = []
        for i in 0..<(version.blockSizes.max() ?? 0) {
            for block in blocks where i < block.count { out.append(block[i]) }
        }
        for i in 0..<version.checkPerBlock {
            for check in checks { out.append(check[i]) }
        }
        return out
    }
}

/// A text cannot be made into a QR code (too long).
public struct QRCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what to do.
    public var description: String

    init(_ description: String) { self.description = description }
}

/// Bits appended most significant first, read out as bytes.
struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        guard count > 0 else { return }
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { byte, i in
                byte << 1 | (start + i < bits.count && bits[start + i] ? 1 : 0)
            }
        }
    }
}
