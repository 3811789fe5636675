@testable import ExternalDisplayBrowser
import ExternalDisplayTesting
import Foundation
import Testing

/// The video route's `Range` answers (RFC 9110 §14), against a table written by hand and a second, independent
/// reading of the header for random and hostile ones.
@Suite("Byte ranges")
struct ByteRangeTests {
    @Test("RFC 9110 forms, clamping, several ranges, other units")
    func table() {
        let length: Int64 = 1_000
        let cases: [(String?, ByteRangeAnswer)] = [
            (nil, .whole(length: 1_000)),
            ("bytes=0-", .partial(first: 0, last: 999, length: 1_000)),
            ("bytes=0-0", .partial(first: 0, last: 0, length: 1_000)),
            ("bytes=100-199", .partial(first: 100, last: 199, length: 1_000)),
            ("bytes=900-5000", .partial(first: 900, last: 999, length: 1_000)),      // last beyond the end: cut
            ("bytes=-100", .partial(first: 900, last: 999, length: 1_000)),          // the last 100 bytes
            ("bytes=-5000", .partial(first: 0, last: 999, length: 1_000)),           // more than the file: all of it
            ("BYTES=5-9", .partial(first: 5, last: 9, length: 1_000)),               // the unit is case-insensitive
            (" bytes=5-9 ", .partial(first: 5, last: 9, length: 1_000)),
            ("bytes=5-9, 20-29", .partial(first: 5, last: 9, length: 1_000)),        // several: the first, alone
            ("bytes=2000-3000, 20-29", .partial(first: 20, last: 29, length: 1_000)), // the first satisfiable
            ("bytes=,5-9,", .partial(first: 5, last: 9, length: 1_000)),             // empty list elements (RFC #rule)
            ("bytes=999-999", .partial(first: 999, last: 999, length: 1_000)),
            ("items=0-5", .whole(length: 1_000)),                                    // another unit: ignored
            ("bytes=99999999999999999999999999-", .unsatisfiable(length: 1_000, reason: "")),
            ("bytes=0-99999999999999999999999999", .partial(first: 0, last: 999, length: 1_000)),
            ("bytes=-99999999999999999999999999", .partial(first: 0, last: 999, length: 1_000)),
            ("bytes=1000-", .unsatisfiable(length: 1_000, reason: "")),
            ("bytes=-0", .unsatisfiable(length: 1_000, reason: "")),
            ("bytes=1000-2000, 3000-4000", .unsatisfiable(length: 1_000, reason: "")),
            ("bytes", .malformed("")),
            ("bytes=", .malformed("")),
            ("bytes=,", .malformed("")),
            ("bytes=-", .malformed("")),
            ("bytes=5", .malformed("")),
            ("bytes=9-5", .malformed("")),                                           // ends before it starts
            ("bytes=-5-9", .malformed("")),
            ("bytes=+5-9", .malformed("")),
            ("bytes=5 -9", .malformed("")),
            ("bytes=0x10-20", .malformed("")),
            ("bytes=5-9;10-20", .malformed("")),
            ("bytes=١-٢", .malformed("")),                                            // Arabic-Indic digits are not digits here
            ("bytes=0-1, garbage", .malformed("")),                                  // one bad range spoils the header
            (String(repeating: "bytes=", count: 1) + Array(repeating: "0-1", count: 65).joined(separator: ","), .malformed("")),
        ]
        for (header, expected) in cases {
            let answer = ByteRangeAnswer.answer(to: header, length: length)
            #expect(Self.sameKind(answer, expected), "\(String(describing: header)) → \(answer), expected \(expected)")
        }
        // An empty file: no range lies within it; without a range it is served (empty).
        #expect(Self.sameKind(ByteRangeAnswer.answer(to: "bytes=0-", length: 0), .unsatisfiable(length: 0, reason: "")))
        #expect(ByteRangeAnswer.answer(to: nil, length: 0) == .whole(length: 0))
        // The messages say what is wrong.
        #expect(ByteRangeAnswer.answer(to: "bytes=9-5", length: length) == .malformed("the range 9-5 ends before it starts (RFC 9110: invalid)"))
        #expect(ByteRangeAnswer.answer(to: "bytes=1000-", length: length)
                == .unsatisfiable(length: 1_000, reason: "the range 1000- lies outside the file's 1000 bytes"))
    }

    /// The kind of answer, and for whole and partial answers the bytes (the messages are checked apart).
    static func sameKind(_ a: ByteRangeAnswer, _ b: ByteRangeAnswer) -> Bool {
        switch (a, b) {
        case (.whole(let x), .whole(let y)): x == y
        case (.partial(let f1, let l1, let n1), .partial(let f2, let l2, let n2)): f1 == f2 && l1 == l2 && n1 == n2
        case (.unsatisfiable(let x, _), .unsatisfiable(let y, _)): x == y
        case (.malformed, .malformed): true
        default: false
        }
    }

    // MARK: The oracle

    /// A second reading of a header, written apart from the server's: regular expressions over the whole text,
    /// numbers compared as digit strings (any length), no 64-bit arithmetic until a number is known to fit.
    static func oracle(_ header: String, length: Int64) -> ByteRangeAnswer {
        let text = header.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard let equals = text.range(of: "=") else { return .malformed("") }
        if text[..<equals.lowerBound].lowercased() != "bytes" { return .whole(length: length) }
        let items = text[equals.upperBound...].components(separatedBy: ",")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }.filter { !$0.isEmpty }
        if items.isEmpty || items.count > 64 { return .malformed("") }
        let pattern = try! NSRegularExpression(pattern: "^(?:([0-9]+)-([0-9]*)|-([0-9]+))$")
        var found: (Int64, Int64)?
        for item in items {
            let range = NSRange(item.startIndex..., in: item)
            guard let match = pattern.firstMatch(in: item, range: range) else { return .malformed("") }
            func group(_ n: Int) -> String? {
                guard let r = Range(match.range(at: n), in: item), !item[r].isEmpty else { return nil }
                return String(item[r])
            }
            if let firstText = group(1) {
                if let lastText = group(2), compare(lastText, firstText) < 0 { return .malformed("") }
                guard found == nil, length > 0, compare(firstText, String(length)) < 0 else { continue }
                let first = Int64(firstText.drop { $0 == "0" }) ?? 0
                let last = group(2).map { compare($0, String(length - 1)) < 0 ? (Int64($0.drop { $0 == "0" }) ?? 0) : length - 1 }
                    ?? length - 1
                found = (first, last)
            } else if let countText = group(3) {
                guard found == nil, length > 0, compare(countText, "0") > 0 else { continue }
                let count = compare(countText, String(length)) < 0 ? (Int64(countText.drop { $0 == "0" }) ?? 0) : length
                found = (length - count, length - 1)
            }
        }
        guard let (first, last) = found else { return .unsatisfiable(length: length, reason: "") }
        return .partial(first: first, last: last, length: length)
    }

    /// Compares two decimal digit strings by value, whatever their length.
    static func compare(_ a: String, _ b: String) -> Int {
        let x = String(a.drop { $0 == "0" }), y = String(b.drop { $0 == "0" })
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        return x == y ? 0 : (x < y ? -1 : 1)
    }

    @Test("random and hostile headers: the same answer as the oracle, never a byte outside the file")
    func randomHeaders() {
        let seed = UInt64(ProcessInfo.processInfo.environment["RANGE_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        var generator = SeededRandom(state: seed)
        let pieces = ["0", "1", "9", "00", "999", "1000", "1001", "-", "-", "-", ",", ",", " ", "\t", "=", "bytes=",
                      "+", "x", "9223372036854775807", "9223372036854775808", "18446744073709551616",
                      "99999999999999999999", "١", "é", ";", "\0"]
        let lengths: [Int64] = [0, 1, 2, 1_000, 1_001, Int64.max - 1, Int64.max]
        for round in 0..<3_000 {
            let length = lengths[Int(generator.next() % UInt64(lengths.count))]
            var header = generator.next() % 5 == 0 ? "" : "bytes="
            for _ in 0..<Int(generator.next() % 8) { header += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let answer = ByteRangeAnswer.answer(to: header, length: length)
            let expected = Self.oracle(header, length: length)
            #expect(Self.sameKind(answer, expected),
                    "RANGE_SEED=\(seed) round \(round): \(header.debugDescription) length \(length) → \(answer), oracle \(expected)")
            if case .partial(let first, let last, let total) = answer {
                #expect(first >= 0 && first <= last && last < total && total == length, "RANGE_SEED=\(seed): \(header.debugDescription)")
            }
        }
    }
}
