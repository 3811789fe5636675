import ExternalDisplayMedia
import Foundation
import Testing

@Suite("Follower timeline")
struct FollowerTimelineTests {
    let playing = TimelineMessage(sequence: 4, item: "film.mp4",
                                  timeline: PlaybackTimeline(elapsed: 10, at: 1_000, rate: 1, duration: 120),
                                  discontinuity: false)

    @Test func aMessageIsAnAnchorAndARateInFlatJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(playing), as: UTF8.self)
        #expect(json == #"{"discontinuity":false,"duration":120,"hostTime":1000,"item":"film.mp4","mediaTime":10,"rate":1,"sequence":4}"#)
        let decoded = try JSONDecoder().decode(TimelineMessage.self, from: Data(json.utf8))
        #expect(decoded == playing)
        #expect(playing.position(atHostTime: 1_030) == 40)
        #expect(playing.position(atHostTime: 5_000) == 120)
    }

    @Test func aFollowerOnAnotherClockTranslatesTheAnchor() {
        // The page's clock reads 250 s more than the leader's.
        let translated = playing.translated(byClockOffset: 250)
        #expect(translated.position(atHostTime: 1_280) == 40)
        #expect(playing.translated(byClockOffset: .nan) == playing)
    }

    @Test func corrections() {
        var corrector = FollowerDriftCorrector()
        // Leader at 10 + (t − 1000). Each report: (follower position, host time) → answer.
        let trace: [(Double, Double, DriftCorrection)] = [
            (20.02, 1_010, .none),                     // 20 ms: within 40 ms
            (20.10, 1_010, .setRate(0.95)),            // 100 ms ahead: slow down by 0.1 / 2 s
            (20.03, 1_010, .setRate(1 - 0.015)),       // still easing (above the 20 ms band)
            (20.01, 1_010, .setRate(1)),               // back within 20 ms: the leader's rate
            (19.70, 1_010, .setRate(1.1)),             // 300 ms behind: at most +10 %
            (20.60, 1_010, .seek(to: 20.1, rate: 1)),  // 600 ms: beyond 0.5 s, seek where the leader will be
                                                       // after the assumed 0.1 s seek latency
            (25.00, 1_010.3, .none),                   // within the 0.5 s settle time after the seek
            (20.90, 1_010.9, .none),                   // landed in step: the latency stays 0.1 s
        ]
        for (position, time, expected) in trace {
            let answer = corrector.correct(leader: playing, followerPosition: position, at: time)
            #expect(roughlyEqual(answer, expected), "follower at \(position) when the host reads \(time): \(answer)")
        }
    }

    @Test func aPausedLeaderOrAJumpIsFollowedBySeeking() {
        var corrector = FollowerDriftCorrector()
        let paused = TimelineMessage(sequence: 5, item: "film.mp4",
                                     timeline: PlaybackTimeline(elapsed: 30, at: 1_000, rate: 0), discontinuity: false)
        #expect(corrector.correct(leader: paused, followerPosition: 30.03, at: 1_001) == .none)
        #expect(corrector.correct(leader: paused, followerPosition: 30.2, at: 1_001) == .seek(to: 30, rate: 0))
        let seeked = TimelineMessage(sequence: 6, item: "film.mp4",
                                     timeline: PlaybackTimeline(elapsed: 90, at: 1_002, rate: 1), discontinuity: true)
        // A jump is followed at once, even when the follower happens to be close.
        #expect(roughlyEqual(corrector.correct(leader: seeked, followerPosition: 90, at: 1_002),
                                  .seek(to: 90.1, rate: 1)))
        #expect(corrector.correct(leader: seeked, followerPosition: 95, at: 1_002.2) == .none)
    }

    @Test func theSeekLatencyIsLearntFromWhereTheFollowerLands() {
        var corrector = FollowerDriftCorrector()
        let leader = TimelineMessage(sequence: 1, item: "film.mp4",
                                     timeline: PlaybackTimeline(elapsed: 0, at: 0, rate: 2), discontinuity: true)
        #expect(roughlyEqual(corrector.correct(leader: leader, followerPosition: 0, at: 10),
                                  .seek(to: 20.2, rate: 2)))
        // It landed 0.3 s of media behind at double speed: the seek took 0.15 s longer than assumed; easing
        // takes back 0.3 s over 2 s.
        #expect(roughlyEqual(corrector.correct(leader: leader, followerPosition: 21.7, at: 11), .setRate(2.15)))
        #expect(abs(corrector.seekLatency - 0.25) < 1e-9)
        // The next seek aims 0.25 s ahead.
        #expect(roughlyEqual(corrector.correct(leader: leader, followerPosition: 10, at: 12),
                                  .seek(to: 24.5, rate: 2)))
    }

    @Test func unusableReportsAreIgnoredWithAReason() {
        var corrector = FollowerDriftCorrector()
        #expect(corrector.correct(leader: playing, followerPosition: .nan, at: 1_000) == .ignored(
            "the follower's position nan is not a finite, non-negative number of seconds; report the media "
                + "element's currentTime"))
        #expect(corrector.correct(leader: playing, followerPosition: 10, at: .infinity) == .ignored(
            "the report's host time inf is not finite; pass the leader's clock reading"))
        _ = corrector.correct(leader: playing, followerPosition: 10, at: 1_000)
        var older = playing
        older.sequence = 3
        #expect(corrector.correct(leader: older, followerPosition: 10, at: 1_000) == .ignored(
            "message 3 is older than message 4; keep the newer one"))
    }

    @Test func badThresholdsFallBackToTheDefaults() {
        let thresholds = FollowerDriftCorrector.Thresholds(tolerance: .nan, seekBeyond: -1, easingTime: 0,
                                                          maximumRateChange: .infinity, settleTime: -3,
                                                          initialSeekLatency: .nan)
        #expect(thresholds == FollowerDriftCorrector.Thresholds())
        #expect(FollowerDriftCorrector.Thresholds(tolerance: 1, seekBeyond: 0.5).seekBeyond == 1)
    }

    @Test func theCoreSendsFollowersOneMessagePerDiscontinuityWithIncreasingSequence() {
        var playback = VideoPlayback()
        var messages: [TimelineMessage] = []
        let batches: [(Double, [VideoPlaybackEvent])] = [
            (100, [.load(film, at: 0, playing: true)]), (101, []), (105, [.pause]), (106, [.seek(to: 50)]),
            (107, [.play]), (200, [.endOfMedia]),
        ]
        for (time, batch) in batches {
            for case .timeline(let message) in playback.handle(batch, at: time) { messages.append(message) }
        }
        #expect(messages.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(messages.map(\.discontinuity) == [true, false, true, false, false])
        // A follower extrapolating from the last message before t is where the leader is at t.
        #expect(messages[3].position(atHostTime: 150) == 93)
        #expect(messages[4].position(atHostTime: 300) == 120)
    }
}
