import ExtDisplayCore
import Testing

@Suite("the quit rule (Q twice within 2 s)")
struct QuitConfirmationTests {
    /// Presses Q at each time in turn; returns which presses quit.
    static func presses(_ times: [Double], disarmingAfter: Int? = nil) -> [Bool] {
        var quit = QuitConfirmation()
        return times.enumerated().map { index, time in
            let quits = quit.request(at: time)
            if index == disarmingAfter { quit.disarm() }
            return quits
        }
    }

    @Test func aSecondQWithinTheWindowQuits() {
        #expect(Self.presses([10, 12]) == [false, true])
        #expect(Self.presses([10, 10]) == [false, true])
        var quit = QuitConfirmation()
        _ = quit.request(at: 10)
        #expect(quit.isArmed(at: 11.99) && quit.armedAt == 10)
    }

    @Test func aSecondQAfterTheWindowAsksAgain() {
        #expect(Self.presses([10, 12.01, 13]) == [false, false, true])
    }

    @Test func disarmingForgetsTheFirstQ() {
        #expect(Self.presses([1, 1.5, 2], disarmingAfter: 0) == [false, false, true])
    }

    @Test func timeGoingBackwardsOrNotFiniteNeverQuits() {
        #expect(Self.presses([10, 9]) == [false, false])
        #expect(Self.presses([10, .nan, .infinity, -.infinity]) == [false, false, false, false])
        var quit = QuitConfirmation()
        _ = quit.request(at: 10)
        _ = quit.request(at: .nan)
        #expect(quit.armedAt == 10 && !quit.isArmed(at: .nan))
    }
}
