import ExternalDisplayMedia
import PropertyBased
import Testing

@Suite("Playback timeline")
struct PlaybackTimelineTests {
    @Test func positionMovesWithRateFromTheReference() {
        let timeline = PlaybackTimeline(elapsed: 10, at: 100, rate: 1, duration: 300)
        #expect(timeline.position(at: 100) == 10)
        #expect(timeline.position(at: 130) == 40)
    }

    @Test func doubleSpeedMovesTwiceAsFast() {
        let timeline = PlaybackTimeline(elapsed: 0, at: 0, rate: 2)
        #expect(timeline.position(at: 5) == 10)
    }

    @Test func pausedTimelineStandsStill() {
        let timeline = PlaybackTimeline(elapsed: 42, at: 0, rate: 0, duration: 100)
        #expect(timeline.position(at: 1_000_000) == 42)
        #expect(!timeline.isMoving)
    }

    @Test func positionIsClampedToTheItem() {
        let timeline = PlaybackTimeline(elapsed: 290, at: 0, rate: 1, duration: 300)
        #expect(timeline.position(at: 60) == 300)
        let rewinding = PlaybackTimeline(elapsed: 5, at: 0, rate: -1, duration: 300)
        #expect(rewinding.position(at: 60) == 0)
    }

    @Test func nonFiniteInputsAreSanitised() {
        let timeline = PlaybackTimeline(elapsed: .nan, at: .infinity, rate: .nan, duration: .infinity)
        #expect(timeline.elapsed == 0)
        #expect(timeline.referenceInstant == 0)
        #expect(timeline.rate == 0)
        #expect(timeline.duration == nil)
    }

    @Test func changingRateKeepsThePosition() {
        let timeline = PlaybackTimeline(elapsed: 10, at: 0, rate: 1, duration: 300)
        let paused = timeline.changingRate(to: 0, at: 20)
        #expect(paused.position(at: 20) == 30)
        #expect(paused.position(at: 500) == 30)
    }

    @Test func driftIsTheDistanceFromTheComputedPosition() {
        let timeline = PlaybackTimeline(elapsed: 0, at: 0, rate: 1)
        #expect(timeline.drift(ofObservedPosition: 12.5, at: 10) == 2.5)
        #expect(timeline.drift(ofObservedPosition: 7.5, at: 10) == 2.5)
    }

    @Test func positionIsAlwaysInsideTheItem() async {
        await propertyCheck(input: Gen.double(in: -1_000...10_000), Gen.double(in: -4...4),
                            Gen.double(in: 0...5_000), Gen.double(in: -10_000...10_000)) {
            elapsed, rate, duration, instant in
            let timeline = PlaybackTimeline(elapsed: elapsed, at: 0, rate: rate, duration: duration)
            let position = timeline.position(at: instant)
            #expect(position >= 0 && position <= duration)
        }
    }

    @Test func reanchoringNeverMovesThePosition() async {
        await propertyCheck(input: Gen.double(in: 0...3_600), Gen.double(in: 0...4),
                            Gen.double(in: 0...3_600), Gen.double(in: 0...4)) { elapsed, rate, later, newRate in
            let timeline = PlaybackTimeline(elapsed: elapsed, at: 0, rate: rate)
            let changed = timeline.changingRate(to: newRate, at: later)
            #expect(abs(changed.position(at: later) - timeline.position(at: later)) < 1e-6)
        }
    }

    @Test func seekingPutsThePositionExactlyThere() async {
        await propertyCheck(input: Gen.double(in: 0...300), Gen.double(in: 0...1_000)) { target, instant in
            let timeline = PlaybackTimeline(elapsed: 50, at: 0, rate: 1, duration: 300)
            #expect(timeline.seeking(to: target, at: instant).position(at: instant) == target)
        }
    }
}
