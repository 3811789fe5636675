/// The QR symbol versions this encoder makes (1–10, error correction level M) and what each holds: its size,
/// codeword blocks and alignment pattern centres, as ISO/IEC 18004 tabulates them.
public struct QRVersion: Hashable, Sendable {
    /// The version number, 1…10.
    public let number: Int
    /// Error correction codewords per block.
    let checkPerBlock: Int
    /// Data codewords of each block, in order (shorter blocks first).
    let blockSizes: [Int]

    /// The smallest and largest version made.
    public static let supported = 1...10

    /// Level M's block structure for versions 1…10: (check codewords per block, [(blocks, data codewords)]).
    private static let levelM: [(check: Int, groups: [(count: Int, data: Int)])] = [
        (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]),
        (16, [(4, 27)]), (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]),
        (26, [(4, 43), (1, 44)]),
    ]

    /// Version `number` (1…10) at level M; nil outside that range.
    public init?(_ number: Int) {
        guard Self.supported.contains(number) else { return nil }
        let entry = Self.levelM[number - 1]
        self.number = number
        checkPerBlock = entry.check
        blockSizes = entry.groups.flatMap { Array(repeating: $0.data, count: $0.count) }
    }

    /// Modules per side: 17 + 4 × version.
    public var size: Int { 17 + 4 * number }

    /// Data codewords in all blocks.
    public var dataCodewords: Int { blockSizes.reduce(0, +) }

    /// Bits of the byte-mode character count: 8 up to version 9, 16 from version 10.
    var countBits: Int { number <= 9 ? 8 : 16 }

    /// The most bytes a byte-mode segment can carry in this version at level M.
    public var byteCapacity: Int { (dataCodewords * 8 - 4 - countBits) / 8 }

    /// Whether `length` bytes fit, with the 12-bit UTF-8 ECI header in front when `utf8` is set.
    func holds(_ length: Int, utf8: Bool) -> Bool {
        4 + countBits + 8 * length + (utf8 ? 12 : 0) <= dataCodewords * 8
    }

    /// Centres of the alignment patterns along each axis (empty for version 1).
    var alignmentCentres: [Int] {
        guard number >= 2 else { return [] }
        let last = size - 7
        let count = number / 7 + 2
        // Version 2–6 have two centres, 7–13 three, spaced evenly back from the last one (the table's values).
        let steps: [Int: Int] = [7: 16, 8: 18, 9: 20, 10: 22]
        guard count > 2, let step = steps[number] else { return [6, last] }
        return [6, last - step, last]
    }

    /// The smallest version whose byte capacity holds `length` bytes; nil when even version 10 cannot.
    public static func smallest(holding length: Int) -> QRVersion? {
        smallest(holding: length, utf8: false)
    }

    /// The smallest version holding `length` bytes behind a UTF-8 ECI header when `utf8` is set.
    static func smallest(holding length: Int, utf8: Bool) -> QRVersion? {
        supported.lazy.compactMap { QRVersion($0) }.first { $0.holds(length, utf8: utf8) }
    }
}
