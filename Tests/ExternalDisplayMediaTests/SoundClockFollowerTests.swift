import ExternalDisplayMedia
import ExternalDisplayTesting
import Foundation
import Testing

/// The picture follows the heard position: held on its first frame until the sound starts after a seek, moved
/// when the sound drifts past the tolerance, back on the core's timeline when the sound is not a clock; the
/// expected positions are worked out by hand from the numbers in each case.
@Suite("SoundClockFollower")
struct SoundClockFollowerTests {
    @Test func thePictureWaitsForTheSoundAfterASeekThenRunsWithIt() throws {
        var follower = SoundClockFollower()
        // Playing from 30 s at host time 100.
        _ = follower.follow(PlaybackTimeline(elapsed: 30, at: 100, rate: 1, duration: 60))
        // 0.1 s later the sound has not started: it is still at 30, so the picture is held there.
        let heldAnswer = follower.observe(soundPosition: 30, at: 100.1)
        let held = try #require(heldAnswer)
        #expect(held.position(at: 100.1) == 30)
        // 0.25 s after the seek the sound started 0.15 s late: it is at 30.1, and the picture runs from there.
        let startedAnswer = follower.observe(soundPosition: 30.1, at: 100.25)
        let started = try #require(startedAnswer)
        #expect(abs(started.position(at: 101.25) - 31.1) < 1e-9)
        // Within 20 ms of that: nothing to do.
        let kept = follower.observe(soundPosition: 31.11, at: 101.25)
        #expect(kept == nil)
        #expect(follower.corrections == 2)
    }

    @Test func driftBeyondTheToleranceMovesThePictureAtTheSoundsRate() throws {
        var follower = SoundClockFollower(tolerance: 0.02)
        _ = follower.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 2, duration: 100))
        let small = follower.observe(soundPosition: 19.985, at: 10)   // 15 ms: kept
        #expect(small == nil)
        let movedAnswer = follower.observe(soundPosition: 19.97, at: 10)
        let moved = try #require(movedAnswer)   // 30 ms: moved
        #expect(moved.rate == 2)
        #expect(abs(moved.position(at: 11) - 21.97) < 1e-9)
    }

    @Test func soundThatIsNotAClockIsIgnoredAndThePictureGoesBackToTheCore() throws {
        var follower = SoundClockFollower(limit: 1)
        let core = PlaybackTimeline(elapsed: 10, at: 0, rate: 1, duration: 60)
        _ = follower.follow(core)
        let behind = follower.observe(soundPosition: 10.5, at: 1)   // 0.5 s behind: followed
        #expect(behind != nil)
        // The sound track ended at 12 s while the film goes on: 3 s behind is not a clock.
        let ended = follower.observe(soundPosition: 12, at: 5)
        #expect(ended == core)
        #expect(follower.timeline == core)
        let again = follower.observe(soundPosition: 12, at: 6)
        #expect(again == nil)
    }

    @Test func pausedOrNonFiniteInputChangesNothing() {
        var follower = SoundClockFollower(tolerance: .nan, limit: -.infinity)
        #expect(follower.tolerance == 0.02 && follower.limit == 1)
        _ = follower.follow(PlaybackTimeline(elapsed: 5, at: 0, rate: 0, duration: 60))
        let paused = follower.observe(soundPosition: 4, at: 1)
        #expect(paused == nil)
        _ = follower.follow(PlaybackTimeline(elapsed: 5, at: 0, rate: 1, duration: 60))
        for (position, instant) in [(Double.nan, 1.0), (.infinity, 1), (-.infinity, 1), (5, .nan), (5, .infinity)] {
            let answer = follower.observe(soundPosition: position, at: instant)
            #expect(answer == nil, "\(position) at \(instant)")
        }
        #expect(follower.corrections == 0)
    }

    /// Readings every 10 ms from `from` to `to` (host seconds) of a sound heard at `heard(t)`: the decisions that
    /// were not `.keep`, with their instants.
    static func run(_ follower: inout SoundClockFollower, from: Int, to: Int,
                    heard: (Double) -> Double) -> [(instant: Double, decision: SoundClockDecision)] {
        var out: [(instant: Double, decision: SoundClockDecision)] = []
        for step in from..<to {
            let instant = Double(step) / 100
            let decision = follower.decide(soundPosition: heard(instant), at: instant)
            if decision != .keep { out.append((instant, decision)) }
        }
        return out
    }

    static func restarts(_ decisions: [(instant: Double, decision: SoundClockDecision)]) -> [(Double, Double)] {
        decisions.compactMap { entry in
            if case .restartSound(let position) = entry.decision { return (entry.instant, position) }
            return nil
        }
    }

    @Test func aStalledServerWhosePositionFellBackIsRestartedWhereThePictureStands() throws {
        var follower = SoundClockFollower()
        _ = follower.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: 60))
        // Heard 40 ms behind the core from 0.5 s; at 1.0 s the server's position falls to 120 ms behind (what
        // pipewire-pulse stopped for 200 ms does) and holds there.
        let decisions = Self.run(&follower, from: 50, to: 200) { t in t < 1.0 - 1e-9 ? t - 0.04 : t - 0.12 }
        // 0.5 s: the picture moves to the sound (40 ms > 20 ms). 1.0 s: moves again (80 ms). The shift held from
        // 1.0 s: at 1.25 s the sound is restarted at the picture's position then, 1.25 − 0.12 = 1.13 s.
        #expect(decisions.count == 3, "\(decisions)")
        let stall = try #require(Self.restarts(decisions).first)
        #expect(abs(stall.0 - 1.25) < 1e-9)
        #expect(abs(stall.1 - 1.13) < 1e-9)
        #expect(follower.restarts == 1)
    }

    @Test func aClockThatRunsFivePercentSlowIsRestartedAndOneThatDriftsOnePercentIsFollowed() throws {
        var slow = SoundClockFollower()
        _ = slow.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: 600))
        // From 1 s the reported position runs at 0.95 (pipewire-pulse after a stall fell 55 ms a second behind):
        // the steady offset follows at most 2 % of it, so 3 % a second apart reaches 25 ms after 0.83 s, and the
        // new offset holds within 25 ms for 0.25 s (it moves 12.5 ms): restarted about 1.08 s after 1 s.
        let restarted = Self.restarts(Self.run(&slow, from: 50, to: 400) { t in t < 1 ? t - 0.03 : 1 - 0.03 + (t - 1) * 0.95 })
        #expect(restarted.count == 1, "\(restarted)")
        #expect(restarted.first.map { $0.0 > 2.0 && $0.0 < 2.2 } ?? false, "\(restarted)")

        var drifting = SoundClockFollower()
        _ = drifting.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: 600))
        // 1 % a second for 60 s (600 ms in all): the picture follows, never a restart.
        let followed = Self.run(&drifting, from: 50, to: 6_000) { t in t * 0.99 }
        #expect(Self.restarts(followed).isEmpty)
        #expect(drifting.corrections > 20)
    }

    @Test func soundThatStoppedIsNeverRestartedAndFallsBackToTheCore() {
        var follower = SoundClockFollower()
        let core = PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: 60)
        _ = follower.follow(core)
        // The sound track ends at 5 s while the film goes on: its position stays at 5, never holding an offset.
        let decisions = Self.run(&follower, from: 50, to: 800) { t in min(t, 5) }
        #expect(Self.restarts(decisions).isEmpty, "\(decisions)")
        // More than 1 s behind (after 6 s): back on the core's timeline.
        #expect(decisions.last.map { $0.decision == .move(core) && $0.instant > 6 && $0.instant < 6.02 } ?? false,
                "\(decisions.suffix(3))")
    }

    @Test func aSecondStallWithinTwoSecondsIsFollowedNotRestarted() {
        var follower = SoundClockFollower()
        _ = follower.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: 60))
        // Stalls at 1 s (to 100 ms behind) and at 2 s (to 200 ms behind), within 2 s of the first restart (1.25 s):
        // the second is followed. A third at 4 s (to 300 ms behind) is 2.75 s after it: restarted.
        let decisions = Self.run(&follower, from: 50, to: 500) { t in
            t < 1 - 1e-9 ? t : t < 2 - 1e-9 ? t - 0.1 : t < 4 - 1e-9 ? t - 0.2 : t - 0.3
        }
        let restarted = Self.restarts(decisions).map(\.0)
        #expect(restarted.count == 2, "\(restarted)")
        #expect(restarted.first.map { abs($0 - 1.25) < 1e-9 } ?? false)
        #expect(restarted.last.map { abs($0 - 4.25) < 1e-9 } ?? false)
        #expect(follower.restarts == 2)
    }

    @Test func jitterOfTwentyMillisecondsAndSingleLateReadingsNeverRestart() {
        // Readings late by up to 20 ms at random (a loaded machine reads the position after its instant), and one
        // in fifty 60 ms late: the offset never holds a new value for 0.25 s.
        for seed in UInt64(1)...20 {
            var random = SeededRandom(state: seed)
            var follower = SoundClockFollower()
            _ = follower.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: 600))
            let decisions = Self.run(&follower, from: 50, to: 3_000) { t in
                let late = Double.random(in: 0...0.02, using: &random) + (Int.random(in: 0..<50, using: &random) == 0 ? 0.06 : 0)
                return t - 0.03 + late
            }
            #expect(Self.restarts(decisions).isEmpty, "seed \(seed): \(Self.restarts(decisions))")
        }
    }

    @Test func nonFiniteReadingsPausesAndNewTimelinesChangeNothingOrStartAfresh() {
        var follower = SoundClockFollower(stallLimit: .nan, stallPersistence: -1, driftAllowance: .infinity,
                                          restartInterval: 0)
        #expect(follower.stallLimit == 0.025 && follower.stallPersistence == 0.25)
        #expect(follower.driftAllowance == 0.02 && follower.restartInterval == 2)
        _ = follower.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 0, duration: 60))
        #expect(follower.decide(soundPosition: 3, at: 1) == .keep)
        _ = follower.follow(PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: 60))
        for (position, instant) in [(Double.nan, 1.0), (.infinity, 1), (5, .nan), (-.infinity, .infinity)] {
            #expect(follower.decide(soundPosition: position, at: instant) == .keep)
        }
        // Heard 100 ms behind from 0.5 s to 1 s; a seek at 1 s (a new timeline) starts the offset afresh, so 100 ms
        // behind the new one is its steady offset, not a stall.
        _ = Self.run(&follower, from: 50, to: 100) { t in t - 0.1 }
        _ = follower.follow(PlaybackTimeline(elapsed: 10, at: 1, rate: 1, duration: 60))
        let after = Self.run(&follower, from: 100, to: 300) { t in 10 + (t - 1) - 0.2 }
        #expect(Self.restarts(after).isEmpty)
        #expect(follower.restarts == 0)
    }

    /// Random readings over the whole input space (NaN, ±infinity, ±1e308, the smallest subnormal, negative and
    /// huge instants, readings out of order), several per instant, with random new timelines (paused, 2×, −1×)
    /// between them: nothing traps, every restart asks for a finite position on the film (0…duration), and
    /// restarts are at least `restartInterval` apart. `EXTDISPLAY_FUZZ_COUNT` seeds (default 300); a failure names
    /// its seed, which reruns it: `EXTDISPLAY_FUZZ_SEED=N`.
    @Test func randomReadingsNeverTrapAndRestartOnlyOnTheFilmAndNotTooOften() {
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["EXTDISPLAY_FUZZ_COUNT"] ?? "") ?? 300
        let seeds = environment["EXTDISPLAY_FUZZ_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(UInt64(1)...UInt64(count))
        let odd: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, .leastNonzeroMagnitude, 0, -1]
        for seed in seeds {
            var random = SeededRandom(state: seed)
            var follower = SoundClockFollower()
            var instant = 0.0
            var restartsAt: [Double] = []
            let duration = Double.random(in: 1...600, using: &random)
            for _ in 0..<500 {
                if Int.random(in: 0..<40, using: &random) == 0 {
                    let rate = [0, 1, 2, -1, 0.5].randomElement(using: &random)!
                    _ = follower.follow(PlaybackTimeline(elapsed: Double.random(in: 0...duration, using: &random),
                                                         at: instant, rate: rate, duration: duration))
                }
                instant += Int.random(in: 0..<20, using: &random) == 0 ? -0.5 : Double.random(in: 0...0.03, using: &random)
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let position = Int.random(in: 0..<10, using: &random) == 0
                        ? odd.randomElement(using: &random)!
                        : follower.reference.position(at: instant) + Double.random(in: -0.3...0.3, using: &random)
                    let at = Int.random(in: 0..<30, using: &random) == 0 ? odd.randomElement(using: &random)! : instant
                    if case .restartSound(let where_) = follower.decide(soundPosition: position, at: at) {
                        #expect(where_.isFinite && where_ >= 0 && where_ <= duration,
                                "EXTDISPLAY_FUZZ_SEED=\(seed): restart at \(where_) on a film of \(duration) s")
                        if let last = restartsAt.last, at.isFinite {
                            #expect(at - last >= follower.restartInterval || at < last,
                                    "EXTDISPLAY_FUZZ_SEED=\(seed): restarts at \(last) and \(at)")
                        }
                        restartsAt.append(at)
                    }
                }
            }
        }
    }
}

