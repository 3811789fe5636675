/// The module grid of a QR symbol while it is built: function patterns (finders, separators, timing,
/// alignment, the dark module, format and version areas), the codewords in the two-column zigzag, the mask,
/// the format and version information, and the mask penalty.
struct QRMatrix {
    let version: QRVersion
    let size: Int
    /// Dark modules, row by row.
    private(set) var dark: [Bool]
    /// Modules that belong to a function pattern (never masked, never hold data).
    private var function: [Bool]

    init(version: QRVersion) {
        self.version = version
        size = version.size
        dark = Array(repeating: false, count: size * size)
        function = Array(repeating: false, count: size * size)
        drawFunctionPatterns()
    }

    private mutating func set(_ row: Int, _ column: Int, _ isDark: Bool) {
        dark[row * size + column] = isDark
        function[row * size + column] = true
    }

    // MARK: Function patterns

    private mutating func drawFunctionPatterns() {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (row, column) in [(3, 3), (3, size - 4), (size - 4, 3)] { drawFinder(row, column) }
        let centres = version.alignmentCentres
        for row in centres {
            for column in centres {
                let onFinder = (row == 6 && column == 6) || (row == 6 && column == size - 7)
                    || (row == size - 7 && column == 6)
                if !onFinder { drawAlignment(row, column) }
            }
        }
        // Reserve the format areas now (written after masking) and the dark module.
        writeFormat(0)
        if version.number >= 7 { writeVersion() }
    }

    /// A 7×7 finder centred at (row, column) with its light separator (clipped at the edges).
    private mutating func drawFinder(_ row: Int, _ column: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let r = row + dy, c = column + dx
                guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                let ring = max(abs(dy), abs(dx))
                set(r, c, ring != 2 && ring != 4)
            }
        }
    }

    /// A 5×5 alignment pattern centred at (row, column).
    private mutating func drawAlignment(_ row: Int, _ column: Int) {
        for dy in -2...2 {
            for dx in -2...2 { set(row + dy, column + dx, max(abs(dy), abs(dx)) != 1) }
        }
    }

    // MARK: Format and version information

    /// The 15 format bits for level M (indicator 00) and `mask`: 5 data bits, 10 BCH bits (generator 0x537),
    /// XORed with 0x5412 so the result is never all zero.
    static func formatBits(mask: Int) -> Int {
        let data = (0b00 << 3) | mask
        return (data << 10 | bchRemainder(data << 10, generator: 0x537)) ^ 0x5412
    }

    /// The 18 version bits: 6 data bits and 12 BCH bits (generator 0x1F25).
    static func versionBits(_ version: Int) -> Int {
        version << 12 | bchRemainder(version << 12, generator: 0x1F25)
    }

    /// The remainder of `value` divided by `generator` as polynomials over GF(2).
    static func bchRemainder(_ value: Int, generator: Int) -> Int {
        let degree = Int.bitWidth - generator.leadingZeroBitCount - 1
        var remainder = value
        while remainder != 0, Int.bitWidth - remainder.leadingZeroBitCount - 1 >= degree {
            remainder ^= generator << (Int.bitWidth - remainder.leadingZeroBitCount - 1 - degree)
        }
        return remainder
    }

    /// Writes both copies of the format information (bit 14 is the most significant) and the dark module.
    mutating func writeFormat(_ mask: Int) {
        let bits = Self.formatBits(mask: mask)
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        // Around the top-left finder: bits 0–7 down column 8 (skipping the timing row), 8–14 leftwards along row 8.
        let down = [0, 1, 2, 3, 4, 5, 7, 8]
        for (i, row) in down.enumerated() { set(row, 8, bit(i)) }
        let left = [7, 5, 4, 3, 2, 1, 0]
        for (i, column) in left.enumerated() { set(8, column, bit(8 + i)) }
        // The second copy: bits 0–7 leftwards along row 8 from the right edge, 8–14 down column 8 at the bottom.
        for i in 0..<8 { set(8, size - 1 - i, bit(i)) }
        for i in 8..<15 { set(size - 15 + i, 8, bit(i)) }
        set(size - 8, 8, true)
    }

    /// Writes both 6×3 version blocks (versions 7 and up).
    private mutating func writeVersion() {
        let bits = Self.versionBits(version.number)
        for i in 0..<18 {
            let isDark = (bits >> i) & 1 == 1
            let across = size - 11 + i % 3, along = i / 3
            set(along, across, isDark)   // top right: rows 0–5
            set(across, along, isDark)   // bottom left: columns 0–5
        }
    }

    // MARK: Data

    /// Places codewords (most significant bit first) in two-column strips from the bottom-right corner,
    /// upwards then downwards in turn, skipping function modules and the vertical timing column; modules left
    /// over (remainder bits) stay light.
    mutating func place(_ codewords: [UInt8]) {
        var index = 0
        let total = codewords.count * 8
        var right = size - 1, upwards = true
        while right >= 1 {
            if right == 6 { right = 5 }
            for step in 0..<size {
                let row = upwards ? size - 1 - step : step
                for column in [right, right - 1] where !function[row * size + column] {
                    if index < total {
                        dark[row * size + column] = (codewords[index / 8] >> (7 - index % 8)) & 1 == 1
                    }
                    index += 1
                }
            }
            upwards.toggle()
            right -= 2
        }
    }

    /// Inverts the data modules where mask pattern `mask` holds, then writes the format bits for it.
    mutating func apply(mask: Int) {
        for row in 0..<size {
            for column in 0..<size where !function[row * size + column] && Self.masked(mask, row, column) {
                dark[row * size + column].toggle()
            }
        }
        writeFormat(mask)
    }

    /// Mask condition `mask` at (row i, column j), as the standard defines the eight patterns.
    static func masked(_ mask: Int, _ i: Int, _ j: Int) -> Bool {
        switch mask {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}
