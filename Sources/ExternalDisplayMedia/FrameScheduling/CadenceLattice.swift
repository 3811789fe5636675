import Foundation

/// The grid of media positions a steady stream of vsyncs samples, and the frame boundaries placed between its
/// points so that no vsync sits on a boundary.
///
/// While a timeline moves at a constant rate, vsync `k` after the lock sees the position `x₀ + k·ρ` frames,
/// where `ρ = fps × rate / refresh`. Written as a fraction `a / b` in lowest terms, the fractional parts of
/// those positions take only the values `frac(x₀) + j / b`: a lattice with spacing `1 / b`. Shifting the frame
/// boundaries by a phase `φ ∈ (−1/b, 0]` so they fall exactly midway between lattice points keeps every vsync
/// at least `1 / (2b)` frames from a boundary. That margin is what makes the cadence even (3:2 for 24 fps on
/// 60 Hz) and immune to timestamp jitter and rounding, and `φ ≤ 0` means a frame is never shown before its
/// time on the lattice.
struct CadenceLattice: Sendable, Hashable {
    /// The largest lattice denominator used; slower-repeating ratios are approximated and re-locked when the
    /// approximation has drifted by an eighth of the margin.
    static let maximumDenominator = 10_000

    /// The numerator and denominator of `ρ` (or its closest fraction with a denominator up to the maximum).
    let numerator: Int
    let denominator: Int
    /// The shift applied to positions before taking the floor: `(−1/b, 0]`.
    let phase: Double
    /// How many vsyncs after the lock the approximation stays within an eighth of the margin.
    let validVsyncs: Double

    /// The lattice for a ratio `ρ > 0` locked at position `x₀` (frames).
    init(ratio: Double, lockedAt position: Double) {
        let (a, b) = Self.fraction(approximating: ratio)
        numerator = a
        denominator = b
        let error = abs(ratio - Double(a) / Double(b))
        guard error <= ratio / 100 else {
            // A ratio below 1 / maximumDenominator (a 0.1 fps slide show on 1000 Hz) has no usable lattice:
            // plain floor, the frame that covers the position.
            phase = 0
            validVsyncs = .infinity
            return
        }
        let spacing = 1 / Double(b)
        let offset = (position - position.rounded(.down)) - spacing / 2
        let reduced = offset - (offset / spacing).rounded(.down) * spacing
        phase = reduced <= 0 || reduced >= spacing ? 0 : -reduced
        validVsyncs = error == 0 ? .infinity : (spacing / 16) / error
    }

    /// The closest fraction `a / b` to `value > 0` with `b` up to ``maximumDenominator``, from the continued
    /// fraction's convergents; `a` is at least 1.
    static func fraction(approximating value: Double) -> (Int, Int) {
        var (h0, h1) = (0.0, 1.0)   // numerators of the convergents k−2, k−1
        var (k0, k1) = (1.0, 0.0)   // denominators
        var rest = value
        var best = (max(1, Int(value.rounded())), 1)
        for _ in 0..<40 {
            let whole = rest.rounded(.down)
            let h = whole * h1 + h0
            let k = whole * k1 + k0
            guard k <= Double(maximumDenominator), h < 1e15 else { break }
            best = (max(1, Int(h)), Int(k))
            if abs(value - h / k) <= 1e-12 * max(1, value) { break }
            (h0, h1, k0, k1) = (h1, h, k1, k)
            let fractional = rest - whole
            guard fractional > 1e-15 else { break }
            rest = 1 / fractional
        }
        return best
    }
}
