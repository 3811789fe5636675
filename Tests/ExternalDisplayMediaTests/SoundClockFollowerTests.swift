import ExternalDisplayMedia
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
}
