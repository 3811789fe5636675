import Foundation
import Testing
@testable import ExtDisplayCore

/// The remote's commands are the core's: each does exactly what its key does, and the pace cue a remote shows is
/// the console's judgement. Expected values are worked out by hand in the comments.
struct RemoteCommandTests {
    /// A core on slide 2 of 3 with a running clock.
    static func core() -> PresenterCore {
        var core = PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0))
        core.handle(.key(.next), at: 1)
        return core
    }

    @Test("each remote command changes the state as its key does")
    func sameAsKeys() {
        let pairs: [(PresenterRemoteCommand, PresenterKey)] = [(.next, .next), (.previous, .previous), (.blank, .blackout),
                                                               (.freeze, .freeze), (.playPause, .pauseTimer)]
        #expect(Set(pairs.map(\.0)).count == pairs.count)
        for (command, key) in pairs {
            for presses in 1...2 {   // once, and again (the toggles turn back)
                var byRemote = Self.core(), byKey = Self.core()
                for step in 0..<presses {
                    byRemote.handle(.remote(command), at: 5 + Double(step))
                    byKey.handle(.key(key), at: 5 + Double(step))
                }
                #expect(byRemote.state == byKey.state, "\(command) pressed \(presses)×")
            }
        }
    }

    @Test("freeze from the remote: the audience stays on the slide while the speaker moves on; again: it follows")
    func freeze() {
        var core = Self.core()
        core.handle(.remote(.freeze), at: 2)
        core.handle(.remote(.next), at: 3)
        #expect(core.state.slideIndex == 2 && core.state.audienceSlideIndex == 1 && core.state.frozenSlideIndex == 1)
        core.handle(.remote(.freeze), at: 4)
        #expect(core.state.frozenSlideIndex == nil && core.state.audienceSlideIndex == 2)
    }

    @Test("the pace signal: none without a plan; from the countdown; from the budgets; overtime")
    func paceSignal() {
        var core = PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0))
        #expect(core.state.paceSignal(at: 10) == nil)

        // A 10-minute plan, no budgets: at 0:30 on slide 1 of 3, a third of the slides in 5 % of the time.
        core.handle(.plan(duration: 600), at: 0)
        #expect(core.state.paceSignal(at: 30) == PaceSignal(countdown: "9:30 left", line: "▲ ahead", standing: .ahead))

        // Budgets of 60 s each (an even split of 180 s) from 0: at 0:30 on slide 1, on pace, ending at 3:00.
        var paced = PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0, plannedDuration: 180))
        paced.handle(.startPacing(SlideBudgets.plan(slideCount: 3, target: 180)), at: 0)
        #expect(paced.state.paceSignal(at: 30)
                == PaceSignal(countdown: "2:30 left", line: "● on pace, end ≈ 3:00 of 3:00", standing: .onPace, perSlide: true))
        // Still on slide 1 at 3:20: 140 s over its budget (behind), and 20 s over the plan: overtime.
        let late = paced.state.paceSignal(at: 200)
        #expect(late?.countdown == "+0:20 over" && late?.standing == .overtime)
        #expect(late?.line.hasPrefix("▼ 2:20 behind") == true, "\(String(describing: late))")
    }

    @Test("every standing has its own shape")
    func shapes() {
        let shapes = [Countdown.Pace.ahead, .onPace, .behind, .overtime].map(PaceSignal.shape)
        #expect(Set(shapes).count == 4)
    }
}
