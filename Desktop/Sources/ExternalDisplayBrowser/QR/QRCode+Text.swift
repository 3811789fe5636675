extension QRCode {
    /// The symbol for a terminal: two module rows per text line with the half-block characters ▀ ▄ █ and
    /// space, black on white (ANSI colours, so the code reads dark-on-light whatever the terminal's theme),
    /// with a light quiet zone of `quietZone` modules around it. Each line ends with a colour reset.
    ///
    /// ```swift
    /// if isatty(1) == 1 { print(try QRCode(encoding: url).terminalText()) }
    /// ```
    public func terminalText(quietZone: Int = 4) -> String {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = "\u{1B}[30;107m"
            for column in range {
                let upper = self[top, column], lower = top + 1 < range.upperBound && self[top + 1, column]
                line += upper ? (lower ? "█" : "▀") : (lower ? "▄" : " ")
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n")
    }

    /// The dark modules as horizontal runs: (row, first column, length), for drawing with filled rectangles.
    public var darkRuns: [(row: Int, column: Int, length: Int)] {
        var runs: [(row: Int, column: Int, length: Int)] = []
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < size, self[row, column] { column += 1 }
                runs.append((row, start, column - start))
            }
        }
        return runs
    }
}
