import Foundation

/// A Markdown deck of slides that are each only a picture of random pixels, one 24-bit BMP per slide written
/// here: audience pictures of it hardly compress (a 4K one's PNG is tens of MB), the worst case for a picture
/// budget.
public enum NoiseDeck {
    /// Writes `slides` BMPs of `width`×`height` random pixels and the deck showing them into a fresh temporary
    /// folder; returns the deck's URL (remove its folder when done).
    public static func write(slides: Int = 3, width: Int = 3_840, height: Int = 2_160) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edk-noise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let row = (width * 3 + 3) / 4 * 4
        var header = Data()
        func le(_ value: Int, _ bytes: Int) { for i in 0..<bytes { header.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        header.append(contentsOf: Array("BM".utf8))
        le(54 + row * height, 4); le(0, 4); le(54, 4)
        le(40, 4); le(width, 4); le(height, 4); le(1, 2); le(24, 2); le(0, 4); le(row * height, 4)
        le(2_835, 4); le(2_835, 4); le(0, 4); le(0, 4)
        var generator = SystemRandomNumberGenerator()
        for slide in 1...max(1, slides) {
            var pixels = [UInt8](repeating: 0, count: row * height)
            pixels.withUnsafeMutableBytes { bytes in
                var index = 0
                while index + 8 <= bytes.count {
                    bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: index, as: UInt64.self)
                    index += 8
                }
            }
            try (header + Data(pixels)).write(to: directory.appendingPathComponent("noise\(slide).bmp"))
        }
        let deck = directory.appendingPathComponent("deck.md")
        try (1...max(1, slides)).map { "![noise](noise\($0).bmp)\n" }.joined(separator: "\n---\n\n")
            .write(to: deck, atomically: true, encoding: .utf8)
        return deck
    }
}
