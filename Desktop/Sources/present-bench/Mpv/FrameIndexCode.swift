// The frame number a benchmark clip shows, drawn so that one row of pixels read off the screen gives it back: a red
// block at each end (where the picture is, whatever the letterbox), between them 16 bits as pairs of blocks, the
// bit and its complement (white = 1), so a row caught between two frames or blurred by the encoder is rejected.

/// Encodes a frame index as columns of blocks and decodes it from a row of screen pixels.
enum FrameIndexCode {
    /// Bits per frame index (indexes 0…65535).
    static let bits = 16
    /// Blocks across the picture: a red marker, two per bit, a red marker.
    static let blocks = 2 + 2 * bits

    /// What a block shows.
    enum Block: Equatable { case red, white, black }

    /// The blocks of `index`, left to right.
    static func blocks(of index: Int) -> [Block] {
        var out: [Block] = [.red]
        for bit in 0..<bits {
            let one = (index >> bit) & 1 == 1
            out.append(one ? .white : .black)
            out.append(one ? .black : .white)
        }
        out.append(.red)
        return out
    }

    /// The block under column `x` of a picture `width` pixels wide.
    static func block(atColumn x: Int, width: Int) -> Int { x * blocks / width }

    /// The index a row of pixels shows (the picture anywhere in the row), or nil when the row shows no whole, clean
    /// code: markers not found, a block neither clearly black nor clearly white, or a bit and its complement equal.
    static func decode(_ row: [(r: Int, g: Int, b: Int)]) -> Int? {
        func isRed(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 160 && p.g < 96 && p.b < 96 }
        guard let left = row.firstIndex(where: isRed), let last = row.lastIndex(where: isRed) else { return nil }
        let width = Double(last + 1 - left)
        guard width >= Double(blocks * 4) else { return nil }
        func level(_ block: Int) -> Bool? {
            let p = row[left + Int((Double(block) + 0.5) * width / Double(blocks))]
            if p.r > 160 && p.g > 160 && p.b > 160 { return true }
            if p.r < 96 && p.g < 96 && p.b < 96 { return false }
            return nil
        }
        guard isRed(row[left + Int(0.5 * width / Double(blocks))]),
              isRed(row[left + Int((Double(blocks) - 0.5) * width / Double(blocks))]) else { return nil }
        var index = 0
        for bit in 0..<bits {
            guard let one = level(1 + 2 * bit), let complement = level(2 + 2 * bit), one != complement else { return nil }
            if one { index |= 1 << bit }
        }
        return index
    }
}
