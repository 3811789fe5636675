// The mpv benchmark's frame numbers read back from a row of pixels: rows drawn here by hand (an encoder written in
// this test, not the benchmark's), letterboxed and scaled as a player may show them; damaged rows must be refused.
#if canImport(CXRandR)
import Testing
@testable import present_bench

@Suite struct FrameIndexCodeTests {
    typealias Pixel = (r: Int, g: Int, b: Int)
    static let red: Pixel = (230, 20, 25), white: Pixel = (250, 248, 245), black: Pixel = (8, 10, 6), grey: Pixel = (128, 128, 128)

    /// A row `total` pixels wide: black bars, then the picture `picture` pixels wide: a red block, for each bit from
    /// the lowest its value then its opposite (white = 1), a red block; 34 equal blocks.
    static func row(index: Int, picture: Int, left: Int, total: Int, damage: ((inout [Pixel]) -> Void)? = nil) -> [Pixel] {
        var cells: [Pixel] = [red]
        var rest = index
        for _ in 0..<16 {
            cells += rest % 2 == 1 ? [white, black] : [black, white]
            rest /= 2
        }
        cells.append(red)
        damage?(&cells)
        var out = [Pixel](repeating: (0, 0, 0), count: total)
        for x in 0..<picture { out[left + x] = cells[min(33, Int(Double(x) / Double(picture) * 34))] }
        return out
    }

    @Test(arguments: [0, 1, 2, 255, 1000, 3599, 40000, 65535])
    func readsTheNumberBack(index: Int) {
        #expect(FrameIndexCode.decode(Self.row(index: index, picture: 1920, left: 0, total: 1920)) == index)
        // Letterboxed and scaled (a 1920-wide picture shown 1440 wide in the middle of the output).
        #expect(FrameIndexCode.decode(Self.row(index: index, picture: 1440, left: 240, total: 1920)) == index)
    }

    @Test func refusesDamagedRows() {
        // A bit and its complement alike (two frames blended, or a torn read): refused.
        #expect(FrameIndexCode.decode(Self.row(index: 77, picture: 1920, left: 0, total: 1920) { $0[5] = $0[6] }) == nil)
        // A block neither black nor white.
        #expect(FrameIndexCode.decode(Self.row(index: 77, picture: 1920, left: 0, total: 1920) { $0[9] = Self.grey }) == nil)
        // No markers (another picture on the output, or nothing).
        #expect(FrameIndexCode.decode(Self.row(index: 77, picture: 1920, left: 0, total: 1920) { $0[0] = Self.white; $0[33] = Self.black }) == nil)
        #expect(FrameIndexCode.decode([Pixel](repeating: (0, 0, 0), count: 1920)) == nil)
        // A picture too narrow to hold the blocks.
        #expect(FrameIndexCode.decode(Self.row(index: 77, picture: 60, left: 10, total: 100)) == nil)
    }
}
#endif
