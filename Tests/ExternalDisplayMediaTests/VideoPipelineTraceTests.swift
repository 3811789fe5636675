import ExternalDisplayMedia
import Testing

/// The three pure pieces wired the way the desktop layer will wire them: the core's timeline messages drive a
/// frame scheduler on the film's display and a browser page's drift corrector. Whole traces, by hand.
@Suite("Video pipeline traces")
struct VideoPipelineTraceTests {
    /// Runs one batch through the core and hands every timeline message to the scheduler and the page.
    struct Rig {
        var playback = VideoPlayback()
        var scheduler: VideoFrameScheduler
        var page = FollowerDriftCorrector()
        var lastMessage: TimelineMessage?

        init() throws { scheduler = try VideoFrameScheduler(framesPerSecond: 24, refreshRate: 60) }

        /// The last vsync of the display's 60 Hz grid (vsync `k` is at `k / 60` s) that has been ticked.
        var lastVsync = 5_989

        /// Ticks, without looking, every vsync before `k`: the display never stops refreshing.
        mutating func tick(until k: Int) {
            while lastVsync + 1 < k {
                lastVsync += 1
                _ = scheduler.frame(forVsyncAt: Double(lastVsync) / 60)
            }
        }

        /// Ticks the vsyncs before `time`, then runs one batch through the core and hands every timeline message
        /// to the scheduler.
        mutating func batch(at time: Double, _ events: VideoPlaybackEvent...) -> [String] {
            tick(until: Int((time * 60).rounded(.up)))
            let effects = playback.handle(events, at: time)
            for case .timeline(let message) in effects {
                scheduler.follow(message.timeline, discontinuity: message.discontinuity)
                lastMessage = message
            }
            return effects.map(spell)
        }

        /// The frame presented or held (`=`), or why nothing is shown, at each vsync of `range`.
        mutating func vsyncs(_ range: ClosedRange<Int>) -> [String] {
            tick(until: range.lowerBound)
            return range.map { k in
                lastVsync = k
                switch scheduler.frame(forVsyncAt: Double(k) / 60) {
                case .present(let p): return "\(p.index)"
                case .hold(let frame): return "=\(frame)"
                case .idle(let reason): return reason.rawValue
                }
            }
        }
    }

    @Test func aFilmPlaysSeeksIsUnpluggedAndContinues() throws {
        var rig = try Rig()
        // Before anything is loaded the display's vsyncs show nothing.
        #expect(rig.vsyncs(5_990...5_991) == ["noTimeline", "noTimeline"])
        #expect(rig.batch(at: 100, .displayAttached(tv), .load(film, at: 0, playing: true)) == [
            "open film.mp4", "place HDMI-1", "indicate Playing on Living Room TV",
            "timeline #1 film.mp4 0.0@100.0 x1.0 jump", "nowPlaying newItem playing 0.0",
        ])
        // 100 s is vsync 6000: the 3:2 cadence from frame 1 on; frame 0 also takes the film's very first vsync,
        // which the phase gives to the (non-existent) frame before it.
        #expect(rig.vsyncs(6_000...6_010) == ["0", "=0", "=0", "1", "=1", "=1", "2", "=2", "3", "=3", "=3"])
        // A seek to one minute, while playing: the first frame after the jump, then on.
        #expect(rig.batch(at: 101, .seek(to: 60)) == [
            "timeline #2 film.mp4 60.0@101.0 x1.0 jump", "nowPlaying seek playing 60.0",
        ])
        #expect(rig.vsyncs(6_061...6_066) == ["1440", "=1440", "1441", "=1441", "=1441", "1442"])
        // The page jumps with the leader (aiming 0.1 s ahead for its seek latency); it lands 0.3 s behind, so it
        // eases at +10 % and will aim 0.4 s ahead next time.
        let seeked = try #require(rig.lastMessage)
        #expect(roughlyEqual(rig.page.correct(leader: seeked, followerPosition: 2, at: 101.3), .seek(to: 60.4, rate: 1)))
        #expect(roughlyEqual(rig.page.correct(leader: seeked, followerPosition: 60.6, at: 101.9), .setRate(1.1)))
        #expect(abs(rig.page.seekLatency - 0.4) < 1e-9)
        // Then the cable is pulled.
        #expect(rig.batch(at: 102, .displayDetached(id: "HDMI-1")) == [
            "place main", "indicate nothing", "timeline #3 film.mp4 61.0@102.0 x0.0", "nowPlaying rateChange paused 61.0",
        ])
        // Paused: the frame at the position once, then nothing; the page is told to seek to the paused position.
        #expect(rig.vsyncs(6_120...6_123) == ["1464", "paused", "paused", "paused"])
        #expect(rig.page.correct(leader: try #require(rig.lastMessage), followerPosition: 61.08, at: 102.5)
                == .seek(to: 61, rate: 0))
        // Plugged back: out again, still paused, no new frame; play continues from 61 s (frame 1464, which
        // starts exactly at the vsync, stays: never early).
        #expect(rig.batch(at: 110, .displayAttached(tv)) == ["place HDMI-1", "indicate Playing on Living Room TV"])
        #expect(rig.vsyncs(6_601...6_602) == ["paused", "paused"])
        #expect(rig.batch(at: 111, .play) == [
            "timeline #4 film.mp4 61.0@111.0 x1.0", "nowPlaying rateChange playing 61.0",
        ])
        #expect(rig.vsyncs(6_660...6_664) == ["=1464", "=1464", "=1464", "1465", "=1465"])
        #expect(rig.scheduler.counters.dropped == 0)
    }
}
