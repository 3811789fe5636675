import ExternalDisplayTesting
import PropertyBased
import Testing

/// Properties of the checker over alterations of the hand-written good trace. Small finite spaces (every line
/// deleted, every state-changing command duplicated, garbage at every position) are enumerated exhaustively
/// (issue 12.8); only the shuffles, a space too large to list, are sampled.
@Suite struct CheckerPropertyTests {
    /// Lines of ``GoodTrace`` whose loss the rules cannot see: notifications, the summary, and `hideWindow` right
    /// before `destroyWindow` (a destroyed window is not visible either way).
    static let invisibleLosses: Set<Int> = [7, 13, 15, 22, 31, 32]

    @Test func deletingAnyLoadBearingLineIsCaught() {
        let lines = GoodTrace.lines
        let loadBearing = (1...lines.count).filter { !Self.invisibleLosses.contains($0) }
        #expect(loadBearing.count >= 20)
        for number in loadBearing {
            let found = check(removing(lines, number))
            #expect(!found.isEmpty, "deleting line \(number) went unnoticed: \(lines[number - 1])")
        }
    }

    @Test func duplicatingAnyCommandThatChangesStateIsCaught() {
        let lines = GoodTrace.lines
        let changing = lines.indices.filter { lines[$0].contains(#""type":"command""#)
            && !lines[$0].contains("hideWindow") && !lines[$0].contains("stopFrameClock")
            && !lines[$0].contains("showWindow") && !lines[$0].contains("setContent")
            && !lines[$0].contains("layoutWindow") && !lines[$0].contains("setOverscanCompensation") }
        #expect(!changing.isEmpty)
        for index in changing {
            var copy = lines
            copy.insert(lines[index], at: index + 1)
            #expect(!check(copy).isEmpty, "duplicating line \(index + 1) went unnoticed: \(lines[index])")
        }
    }

    @Test func shuffledTracesNeverCrashAndReportInOrder() async {
        await propertyCheck(count: 300, input: Gen.shuffled(GoodTrace.lines)) { shuffled in
            let found = check(shuffled)
            #expect(found.allSatisfy { (1...shuffled.count).contains($0.line) })
            #expect(found.map(\.line) == found.map(\.line).sorted())
        }
    }

    @Test func garbageLinesAreMalformedAndCheckingGoesOn() {
        for (text, position) in product(["x", "not json", "0", "[1,2", "\"t\":1"], Array(1...GoodTrace.lines.count)) {
            var copy = GoodTrace.lines
            copy.insert("{" + text, at: position - 1)
            let found = check(copy)
            #expect(found.map(\.rule) == [.malformedLine])
            #expect(found.first?.line == position)
        }
    }
}

/// Every pair of an element of `a` with an element of `b`.
func product<A, B>(_ a: [A], _ b: [B]) -> [(A, B)] { a.flatMap { x in b.map { (x, $0) } } }
