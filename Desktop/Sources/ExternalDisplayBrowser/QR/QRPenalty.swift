extension QRMatrix {
    /// The mask penalty of the symbol as it stands (the standard's four rules; lower is better):
    /// runs of five or more modules of one colour in a row or column (3, plus 1 per module past five),
    /// 2×2 blocks of one colour (3 each), the finder-like 1:1:3:1:1 pattern with four light modules on one
    /// side (40 each), and the share of dark modules away from 50 % (10 per whole 5 % step).
    var penalty: Int {
        var total = 0
        for line in 0..<size {
            total += Self.linePenalty((0..<size).map { dark[line * size + $0] })
            total += Self.linePenalty((0..<size).map { dark[$0 * size + line] })
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let c = dark[row * size + column]
                if dark[row * size + column + 1] == c, dark[(row + 1) * size + column] == c,
                   dark[(row + 1) * size + column + 1] == c {
                    total += 3
                }
            }
        }
        let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
        let percent = darkCount * 100 / (size * size)
        let deviation = percent >= 50 ? percent - 50 : 50 - percent - 1
        total += max(0, deviation) / 5 * 10
        return total
    }

    /// Rules 1 and 3 along one row or column.
    static func linePenalty(_ line: [Bool]) -> Int {
        var total = 0
        var run = 1
        for i in 1...line.count {
            if i < line.count, line[i] == line[i - 1] {
                run += 1
                continue
            }
            if run >= 5 { total += 3 + run - 5 }
            run = 1
        }
        let finder: [Bool] = [true, false, true, true, true, false, true]
        let light = [Bool](repeating: false, count: 4)
        if line.count >= 11 {
            for start in 0...(line.count - 11) {
                let window = Array(line[start..<start + 11])
                if window == finder + light || window == light + finder { total += 40 }
            }
        }
        return total
    }
}
