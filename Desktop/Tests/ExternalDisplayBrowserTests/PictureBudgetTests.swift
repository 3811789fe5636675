import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing

/// The byte budget for pictures shared by all pages (issue 23 row a): the accepted range, what it admits in
/// worked cases, and a simulation of the renders it admits, one at a time, over random and extreme inputs.
struct PictureBudgetTests {
    static let uhd = PixelSize(width: 3_840, height: 2_160)
    static let mib = 1 << 20

    @Test("the range is 160…16384 MiB, default 256; outside it a message names the range")
    func range() throws {
        #expect(PictureBudget().bytes == 256 * Self.mib)
        #expect(try PictureBudget(megabytes: 160).bytes == 160 * Self.mib)
        #expect(try PictureBudget(megabytes: 16_384).bytes == 16_384 * Self.mib)
        for bad in [159, 0, -1, 16_385, Int.max, Int.min] {
            #expect {
                _ = try PictureBudget(megabytes: bad)
            } throws: { error in
                "\(error)".contains("outside 160…16384 MiB") && "\(error)".contains("\(bad)")
            }
        }
        // The smallest budget holds one render at the largest mode a page may have (16 bytes a pixel) and the
        // largest PNG it can make (4 bytes a pixel and a little).
        #expect(3_840 * 2_160 * (16 + 4) < 160 * Self.mib)
    }

    @Test("worked cases: a 4K render counts 133 MB; what fits beside it is admitted, the first always")
    func workedCases() throws {
        let small = try PictureBudget(megabytes: 160)  // 167,772,160 bytes
        #expect(PictureBudget.inFlightBytes(Self.uhd) == 132_710_400)
        // Four 4K pictures shown now, none made, each expected at 30 MB: the first (30 + 132.7 MB) fits, the second
        // (60 + 132.7) does not; a remote-sized picture held (100 KB) still fits after them.
        let remote = PixelSize(width: 640, height: 720)
        let wants = [PictureBudget.Want](repeating: .init(size: Self.uhd, heldBytes: nil, expectedBytes: 30_000_000), count: 4)
            + [.init(size: remote, heldBytes: 100_000)]
        #expect(small.admit(wants, pinnedBytes: 0) == [true, false, false, false, true])
        // The default budget (268,435,456 bytes): 30…120 MB + 132.7 fit; 150 + 132.7 does not.
        let six = [PictureBudget.Want](repeating: .init(size: Self.uhd, heldBytes: nil, expectedBytes: 30_000_000), count: 6)
        #expect(PictureBudget().admit(six, pinnedBytes: 0) == [true, true, true, true, false, false])
        // Pictures already made need no render: six of 25 MB fit in 160 MiB, the seventh does not.
        let made = [PictureBudget.Want](repeating: .init(size: Self.uhd, heldBytes: 25_000_000), count: 7)
        #expect(small.admit(made, pinnedBytes: 0) == [true, true, true, true, true, true, false])
        // Bytes a slow page still holds count: with 150 MB pinned only the first is admitted.
        #expect(small.admit(made, pinnedBytes: 150_000_000) == [true, false, false, false, false, false, false])
        #expect(small.admit([], pinnedBytes: .max).isEmpty)
    }

    @Test("random wants and budgets: rendering what is admitted, one at a time, never exceeds the budget")
    func randomWants() {
        let seed = UInt64(ProcessInfo.processInfo.environment["EXTDISPLAY_FUZZ_SEED"] ?? "")
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("PictureBudgetTests seed \(seed) (EXTDISPLAY_FUZZ_SEED=\(seed) replays it)")
        var generator = SeededRandom(state: seed)
        let extremes = [0, -1, -4_096, 1, 16_384, 65_536, Int.max, Int.min]
        for run in 0..<2_000 {
            let budget = try! PictureBudget(megabytes: Int.random(in: PictureBudget.megabytes, using: &generator))
            let pinned = Bool.random(using: &generator) ? 0 : Int.random(in: 0...300_000_000, using: &generator)
            var wants: [PictureBudget.Want] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                func side() -> Int {
                    Int.random(in: 0...9, using: &generator) == 0 ? extremes.randomElement(using: &generator)!
                        : Int.random(in: 1...4_096, using: &generator)
                }
                let size = PixelSize(width: side(), height: side())
                let bytes = Int.random(in: 0...9, using: &generator) == 0 ? extremes.randomElement(using: &generator)!
                    : Int.random(in: 0...40_000_000, using: &generator)
                wants.append(Bool.random(using: &generator)
                             ? .init(size: size, heldBytes: bytes)
                             : .init(size: size, heldBytes: nil, expectedBytes: bytes))
            }
            let admitted = budget.admit(wants, pinnedBytes: pinned)
            #expect(admitted.count == wants.count)
            if !wants.isEmpty { #expect(admitted[0], "run \(run) of seed \(seed): the first want is always admitted") }
            // Simulate: pictures held and admitted are there from the start; admitted ones not made are rendered
            // in order, one at a time, each taking 16 bytes a pixel (sides at most 16384) while it renders, then
            // its expected bytes. Every moment after the first picture must fit in the budget.
            func clamp(_ value: Int) -> Double { Double(min(max(0, value), 16_384)) }
            var memory = Double(max(0, pinned))
            for (want, taken) in zip(wants, admitted) where taken { memory += Double(max(0, want.heldBytes ?? 0)) }
            var peak = memory
            for (want, taken) in zip(wants, admitted) where taken && want.heldBytes == nil {
                peak = max(peak, memory + clamp(want.size.width) * clamp(want.size.height) * 16)
                memory += Double(max(0, want.expectedBytes))
                peak = max(peak, memory)
            }
            let onlyFirst = admitted.dropFirst().allSatisfy { !$0 }
            if !onlyFirst {
                #expect(peak <= Double(budget.bytes),
                        "run \(run) of seed \(seed): peak \(peak) over \(budget.bytes); wants \(wants), pinned \(pinned)")
            }
        }
    }
}
