/// Reed–Solomon error correction over GF(256) as QR codes use it: the field built on the primitive polynomial
/// x⁸ + x⁴ + x³ + x² + 1 (0x11D) with generator element α = 2, and generator polynomials
/// g(x) = (x − α⁰)(x − α¹)…(x − αⁿ⁻¹).
///
/// ```swift
/// let check = QRReedSolomon.errorCorrection(for: [0x10, 0x20, 0x0C], count: 10)   // 10 codewords
/// ```
public enum QRReedSolomon {
    /// αⁱ for i in 0…254 (index 255 repeats 1, so sums of logarithms below 510 need one subtraction at most).
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        var value = 1
        for i in 0..<256 {
            table[i] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α(v) for v in 1…255 (index 0 unused).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exponents[i])] = i }
        return table
    }()

    /// The product of two field elements.
    public static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exponents[(logarithms[Int(a)] + logarithms[Int(b)]) % 255]
    }

    /// The coefficients of g(x) for `count` check codewords, highest power first, without the leading 1.
    public static func generator(count: Int) -> [UInt8] {
        // Start from g(x) = 1 and multiply by (x + αⁱ) for each i (minus is plus in GF(2⁸)).
        var poly: [UInt8] = [1]
        for i in 0..<count {
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (j, c) in poly.enumerated() {
                next[j] ^= c
                next[j + 1] ^= multiply(c, exponents[i])
            }
            poly = next
        }
        return Array(poly.dropFirst())
    }

    /// The `count` check codewords for `data`: the remainder of data(x)·xⁿ divided by g(x).
    public static func errorCorrection(for data: [UInt8], count: Int) -> [UInt8] {
        let divisor = generator(count: count)
        var remainder = [UInt8](repeating: 0, count: count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for i in 0..<count { remainder[i] ^= multiply(divisor[i], factor) }
        }
        return remainder
    }
}
