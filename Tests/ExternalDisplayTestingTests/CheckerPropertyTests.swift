import ExternalDisplayTesting
import PropertyBased
import Testing

/// Properties of the checker over many alterations of the hand-written good trace.
@Suite struct CheckerPropertyTests {
    /// Lines of ``GoodTrace`` whose loss the rules cannot see: notifications, the summary, and `hideWindow` right
    /// before `destroyWindow` (a destroyed window is not visible either way).
    static let invisibleLosses: Set<Int> = [7, 13, 15, 22, 31, 32]

    @Test func deletingAnyLoadBearingLineIsCaught() async {
        let lines = GoodTrace.lines
        let loadBearing = (1...lines.count).filter { !Self.invisibleLosses.contains($0) }
        await propertyCheck(input: Gen.element(of: loadBearing)) { number in
            guard let number else { return }
            let found = check(removing(lines, number))
            #expect(!found.isEmpty, "deleting line \(number) went unnoticed: \(lines[number - 1])")
        }
    }

    @Test func duplicatingAnyCommandThatChangesStateIsCaught() async {
        let lines = GoodTrace.lines
        let changing = lines.indices.filter { lines[$0].contains(#""type":"command""#)
            && !lines[$0].contains("hideWindow") && !lines[$0].contains("stopFrameClock")
            && !lines[$0].contains("showWindow") && !lines[$0].contains("setContent")
            && !lines[$0].contains("layoutWindow") && !lines[$0].contains("setOverscanCompensation") }
        await propertyCheck(input: Gen.element(of: changing)) { index in
            guard let index else { return }
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

    @Test func garbageLinesAreMalformedAndCheckingGoesOn() async {
        let garbage = Gen.letterOrNumber.string(of: 1...20)
        await propertyCheck(input: garbage, Gen.int(in: 1...GoodTrace.lines.count)) { text, position in
            var copy = GoodTrace.lines
            copy.insert("{" + text, at: position - 1)
            let found = check(copy)
            #expect(found.map(\.rule) == [.malformedLine])
            #expect(found.first?.line == position)
        }
    }
}
