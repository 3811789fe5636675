/// The exact cadence a video of `p/q` fps shows on a display of `r/s` Hz, by integer arithmetic only — written
/// for these tests from the rule's statement, sharing nothing with ``VideoFrameScheduler``.
///
/// The positions the vsyncs sample advance by `ρ = (p/q)/(r/s) = a/b` frames per vsync (lowest terms). Frame
/// boundaries sit midway between the sampled positions, so vsync `k` of one period shows frame
/// `⌊(2ka + 1) / 2b⌋` (up to a shift of `k` and of the frame numbers), and the frame advances at each vsync form
/// a sequence that repeats every `b` vsyncs: for 24 on 60 (2/5) it is 0 0 1 0 1 — frames held 3, 2, 3, 2 vsyncs.
struct CadenceOracle {
    let a: Int
    let b: Int

    init(fpsNumerator p: Int, fpsDenominator q: Int, refreshNumerator r: Int, refreshDenominator s: Int) {
        let numerator = p * s, denominator = q * r
        let divisor = Self.gcd(numerator, denominator)
        a = numerator / divisor
        b = denominator / divisor
    }

    static func gcd(_ x: Int, _ y: Int) -> Int { y == 0 ? x : gcd(y, x % y) }

    /// How many frames the picture advances from vsync `k` to vsync `k + 1` of the periodic pattern.
    func advance(after k: Int) -> Int {
        (2 * (k + 1) * a + 1) / (2 * b) - (2 * k * a + 1) / (2 * b)
    }

    /// One period of advances.
    var period: [Int] { (0..<b).map(advance(after:)) }

    /// The shift `o` for which `observed[i] == advance(after: o + i)` for every `i`, or `nil` when the observed
    /// advances are not a stretch of the exact pattern.
    func shift(matching observed: [Int]) -> Int? {
        let pattern = period
        return (0..<b).first { o in observed.indices.allSatisfy { observed[$0] == pattern[(o + $0) % b] } }
    }
}
