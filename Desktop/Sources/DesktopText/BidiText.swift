import DesktopImages
import CFriBidi

/// The Unicode bidirectional algorithm for one line of text: FriBidi resolves each character's embedding
/// level (rules P2–I2), and ``visualOrder(_:)`` turns levels of runs into the order they are drawn (rule L2).
///
/// A paragraph's base direction comes from its first strong character (a leading U+200F RIGHT-TO-LEFT MARK
/// makes a line right-to-left whatever follows, U+200E LEFT-TO-RIGHT MARK left-to-right). Lines are broken in
/// logical order by the layout, then each line is reordered here.
///
/// ```swift
/// let bidi = BidiText(Array("abc שלום".unicodeScalars))
/// bidi.isRightToLeft      // false: "a" is the first strong character
/// bidi.levels             // [0, 0, 0, 0, 1, 1, 1, 1]
/// ```
public struct BidiText: Sendable {
    /// Each character's resolved embedding level: even is left-to-right, odd right-to-left.
    public let levels: [UInt8]
    /// Whether the paragraph's base direction is right-to-left.
    public let isRightToLeft: Bool

    /// Resolves `scalars` as one paragraph whose direction comes from its first strong character.
    public init(_ scalars: [Unicode.Scalar]) {
        guard scalars.contains(where: { $0.value >= 0x0590 }) else {
            // No right-to-left letter nor explicit embedding can occur below U+0590: all left-to-right.
            levels = [UInt8](repeating: 0, count: scalars.count)
            isRightToLeft = false
            return
        }
        let text = scalars.map(\.value)
        var levels = [UInt8](repeating: 0, count: text.count)
        var base: Int32 = 0
        let ok = text.withUnsafeBufferPointer { t in
            levels.withUnsafeMutableBufferPointer { l in
                edk_bidi_levels(t.baseAddress, Int32(t.count), &base, l.baseAddress)
            }
        }
        self.levels = ok != 0 ? levels : [UInt8](repeating: 0, count: text.count)
        self.isRightToLeft = ok != 0 && base == 1
    }

    /// The order in which runs with these levels are drawn from left to right (rule L2: from the highest
    /// level down to the lowest odd one, every maximal sequence at that level or above is reversed).
    ///
    /// ```swift
    /// BidiText.visualOrder([0, 1, 1, 2, 0])   // [0, 3, 2, 1, 4]
    /// ```
    public static func visualOrder(_ runLevels: [UInt8]) -> [Int] {
        var order = Array(runLevels.indices)
        guard let highest = runLevels.max(), let lowestOdd = runLevels.filter({ $0 & 1 == 1 }).min() else {
            return order
        }
        for level in stride(from: Int(highest), through: Int(lowestOdd), by: -1) {
            var i = 0
            while i < order.count {
                guard Int(runLevels[order[i]]) >= level else { i += 1; continue }
                var j = i
                while j < order.count, Int(runLevels[order[j]]) >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
        }
        return order
    }

    /// Whether a character only steers direction and is never drawn (marks, embeddings, isolates).
    public static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
