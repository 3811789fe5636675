import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayBrowser

/// The QR encoder: its Reed–Solomon codewords and format/version bits against the values worked out by hand
/// from ISO/IEC 18004's worked example, and whole symbols read back by an independent decoder (zbarimg, from
/// zbar-tools) at every version boundary, for every mask, and at many lengths. Fails (never skips) when
/// zbarimg is missing.
struct QRCodeTests {
    /// GF(256) multiplication by shift and add (not the encoder's log tables): the oracle's own arithmetic.
    static func gfMultiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var a = Int(a), b = Int(b), product = 0
        while b > 0 {
            if b & 1 == 1 { product ^= a }
            b >>= 1
            a <<= 1
            if a & 0x100 != 0 { a ^= 0x11D }
        }
        return UInt8(product)
    }

    /// The codeword polynomial evaluated at x (Horner's rule, highest power first).
    static func evaluate(_ codeword: [UInt8], at x: UInt8) -> UInt8 {
        codeword.reduce(UInt8(0)) { gfMultiply($0, x) ^ $1 }
    }

    @Test("Reed–Solomon: the standard's worked example (\"01234567\", version 1-M)")
    func reedSolomonWorkedExample() {
        // "01234567" in numeric mode, worked out by hand: mode 0001, count 0000001000 (8), 012 → 0000001100,
        // 345 → 0101011001, 67 → 1000011 (7 bits), terminator 0000, three 0 bits to the byte, then EC 11 pads.
        let bits = "0001" + "0000001000" + "0000001100" + "0101011001" + "1000011" + "0000" + "000"
        var data = stride(from: 0, to: bits.count, by: 8).map { start -> UInt8 in
            let slice = bits.dropFirst(start).prefix(8)
            return UInt8(slice, radix: 2)!
        }
        #expect(data == [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80])
        while data.count < 16 { data.append(data.count % 2 == 0 ? 0xEC : 0x11) }
        let check = QRReedSolomon.errorCorrection(for: data, count: 10)
        // The standard's listed error correction codewords for this symbol.
        #expect(check == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
        // Independently: a valid codeword has the roots α⁰…α⁹ of the generator polynomial.
        var alpha: UInt8 = 1
        for i in 0..<10 {
            #expect(Self.evaluate(data + check, at: alpha) == 0, "syndrome \(i) is not zero")
            alpha = Self.gfMultiply(alpha, 2)
        }
        // And the check can fail: one flipped bit gives a non-zero syndrome.
        var broken = data + check
        broken[3] ^= 0x01
        #expect(Self.evaluate(broken, at: 1) != 0)
    }

    @Test("format and version bits: the standard's examples, worked by hand")
    func formatAndVersionBits() {
        // Level M (00), mask 101: data 00101, BCH 0011011100, XOR 101010000010010.
        #expect(QRMatrix.formatBits(mask: 5) == 0b100000011001110)
        // Version 7: 000111 then BCH 110010010100.
        #expect(QRMatrix.versionBits(7) == 0b000111110010010100)
        // The eight masks give eight different format words, none all zero.
        let words = Set((0..<8).map { QRMatrix.formatBits(mask: $0) })
        #expect(words.count == 8 && !words.contains(0))
    }

    @Test("versions 1–10 hold 14, 26, 42, 62, 84, 106, 122, 152, 180, 213 bytes at level M")
    func capacities() {
        #expect((1...10).map { QRVersion($0)!.byteCapacity } == [14, 26, 42, 62, 84, 106, 122, 152, 180, 213])
        #expect(QRVersion(0) == nil && QRVersion(11) == nil)
    }

    @Test("too long a text is refused with what to do")
    func tooLong() {
        #expect(throws: QRCodeError.self) { try QRCode(encoding: String(repeating: "a", count: 214)) }
        do {
            _ = try QRCode(encoding: String(repeating: "a", count: 500))
        } catch {
            #expect(error.description.contains("213 bytes"))
        }
    }

    /// A text of `length` bytes that looks like a served URL.
    static func url(length: Int, seed: Int) -> String {
        var text = "http://127.0.0.1:8080/remote?token="
        var state = UInt64(truncatingIfNeeded: seed &* 2_654_435_761 &+ 1)
        let alphabet = Array("0123456789abcdefABCDEF-_.~/?=&%")
        while text.utf8.count < length {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text.append(alphabet[Int(state >> 33) % alphabet.count])
        }
        return String(text.utf8.prefix(length))!
    }

    @Test("zbarimg reads back every version boundary, every mask and many lengths")
    func decodedByZbar() throws {
        var cases: [(text: String, mask: Int?, version: Int?)] = []
        for version in 1...10 {
            let capacity = QRVersion(version)!.byteCapacity
            cases.append((Self.url(length: capacity, seed: version), nil, version))
            if version < 10 { cases.append((Self.url(length: capacity + 1, seed: version), nil, version + 1)) }
        }
        for mask in 0..<8 { cases.append((Self.url(length: 60, seed: 100 + mask), mask, nil)) }
        for length in stride(from: 1, through: 213, by: 7) { cases.append((Self.url(length: length, seed: length), nil, nil)) }
        // Non-ASCII bytes (UTF-8) too.
        cases.append(("http://example.test/présentation/日本", nil, nil))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edk-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (i, test) in cases.enumerated() {
            let code = try QRCode(bytes: Array(test.text.utf8), forcingMask: test.mask)
            if let version = test.version { #expect(code.version == version, "\(test.text.utf8.count) bytes") }
            if let mask = test.mask { #expect(code.mask == mask) }
            let file = directory.appendingPathComponent(String(format: "%03d.pgm", i))
            try Self.pgm(code).write(to: file)
            files.append(file.path)
        }
        guard let zbar = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile) else {
            throw QRTestError("zbarimg is missing: run scripts/install-deps.sh (Debian package zbar-tools)")
        }
        for (i, file) in files.enumerated() {
            let decoded = try Self.zbar(zbar, file)
            #expect(decoded == cases[i].text, "case \(i) (\(cases[i].text.utf8.count) bytes, mask \(cases[i].mask.map(String.init) ?? "best")) read back as \(decoded)")
        }
    }

    @Test("the oracle can fail: a symbol with a band of damaged data modules does not read as its text")
    func zbarCanFail() throws {
        guard let zbar = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile) else {
            throw QRTestError("zbarimg is missing: run scripts/install-deps.sh (Debian package zbar-tools)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("edk-qr-blank-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        let code = try QRCode(encoding: "http://127.0.0.1:8080/")
        // Four middle rows inverted (84 modules, far more than level M corrects): the finders stay intact.
        var flipped = code.modules
        for row in 9...12 {
            for column in 0..<code.size { flipped[row * code.size + column].toggle() }
        }
        try Self.pgm(size: code.size, modules: flipped).write(to: file)
        #expect(try Self.zbar(zbar, file.path) != "http://127.0.0.1:8080/")
    }

    @Test("terminal text: two module rows per line, quiet zone included")
    func terminalText() throws {
        let code = try QRCode(encoding: "http://127.0.0.1:8080/")  // 22 bytes: version 2, 25 modules
        let lines = code.terminalText().split(separator: "\n")
        #expect(code.size == 25)
        #expect(lines.count == (25 + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[30;107m") && $0.hasSuffix("\u{1B}[0m") })
        // Row 4 of the text holds module rows 4 and 5: the finders' top edges are full blocks or upper halves.
        #expect(lines[2].contains("█"))
    }

    // MARK: Support

    static func pgm(_ code: QRCode) -> Data { pgm(size: code.size, modules: code.modules) }

    /// A binary PGM: 4 pixels per module, a 4-module quiet zone.
    static func pgm(size: Int, modules: [Bool]) -> Data {
        let scale = 4, quiet = 4, side = (size + 2 * quiet) * scale
        var data = Data("P5\n\(side) \(side)\n255\n".utf8)
        for y in 0..<side {
            for x in 0..<side {
                let row = y / scale - quiet, column = x / scale - quiet
                let dark = (0..<size).contains(row) && (0..<size).contains(column) && modules[row * size + column]
                data.append(dark ? 0 : 255)
            }
        }
        return data
    }

    /// What zbarimg reads from a file (empty when it finds no code).
    static func zbar(_ zbar: String, _ file: String) throws -> String {
        var text = try runToEnd(zbar, ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file]).stdout
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

struct QRTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
