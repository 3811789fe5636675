import ExternalDisplayMedia
import ExternalDisplayTesting
import Foundation
import Testing

/// The leader display's latency, learnt from presented frames: worked cases, and random reports against a
/// median computed here by counting.
@Suite("Presentation latency")
struct PresentationLatencyTests {
    /// Playing from 0 at host time 100, at `rate`.
    static func timeline(rate: Double = 1) -> PlaybackTimeline { PlaybackTimeline(elapsed: 0, at: 100, rate: rate) }

    @Test func framesShownLateGiveTheirMedianLatenessAndFollowersLagByIt() {
        var latency = PresentationLatency()
        // Frame at media 1.0 shown at host 101.08: 80 ms late; then 70, 90 ms.
        let resend1 = latency.record(frameTime: 1.0, presentedAt: 101.08, timeline: Self.timeline())
        #expect(resend1)
        #expect(abs(latency.estimate - 0.08) < 1e-9)
        let resend2 = latency.record(frameTime: 2.0, presentedAt: 102.07, timeline: Self.timeline())   // median 80 ms: no resend
        #expect(!resend2)
        let resend3 = latency.record(frameTime: 3.0, presentedAt: 103.09, timeline: Self.timeline())
        #expect(!resend3)
        #expect(abs(latency.estimate - 0.08) < 1e-9)
        // At double speed, 0.2 s of media late is 0.1 s of host time.
        var fast = PresentationLatency()
        _ = fast.record(frameTime: 1.0, presentedAt: 100.6, timeline: Self.timeline(rate: 2))
        #expect(abs(fast.estimate - 0.1) < 1e-9)
        // A follower of the adjusted message is where the leader's display is: 80 ms behind the timeline.
        let message = TimelineMessage(sequence: 1, item: nil, timeline: Self.timeline(), discontinuity: true)
        #expect(abs(latency.adjusted(message).position(atHostTime: 105) - 4.92) < 1e-9)
        #expect(latency.adjusted(message).sequence == 1 && latency.adjusted(message).discontinuity)
    }

    @Test func reportsThatAreNotASteadyDisplaysAreLeftOut() {
        var latency = PresentationLatency()
        let resend4 = latency.record(frameTime: 1, presentedAt: 102.5, timeline: Self.timeline())     // 1.5 s: a stall
        #expect(!resend4)
        let resend5 = latency.record(frameTime: 1, presentedAt: 100.8, timeline: Self.timeline())     // 200 ms early
        #expect(!resend5)
        let resend6 = latency.record(frameTime: 1, presentedAt: 101.5, timeline: Self.timeline(rate: 0))   // paused
        #expect(!resend6)
        let resend7 = latency.record(frameTime: .nan, presentedAt: 101, timeline: Self.timeline())
        #expect(!resend7)
        let resend8 = latency.record(frameTime: 1, presentedAt: .infinity, timeline: Self.timeline())
        #expect(!resend8)
        let resend9 = latency.record(frameTime: 1, presentedAt: 101, timeline: Self.timeline(rate: .infinity))
        #expect(!resend9)
        #expect(latency.estimate == 0)
        // Slightly early (frame times rounded) counts as on time.
        _ = latency.record(frameTime: 1, presentedAt: 100.98, timeline: Self.timeline())
        #expect(latency.estimate == 0)
    }

    @Test("random reports: the estimate is the median of the last 31 accepted, counted independently")
    func randomReports() {
        let seed = UInt64(ProcessInfo.processInfo.environment["LATENCY_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(state: seed)
        var latency = PresentationLatency()
        var accepted: [Double] = []
        let specials: [Double] = [.nan, .infinity, -.infinity, -1, 0, 1e300, -0.05, 1, 1.0000001]
        for step in 0..<2_000 {
            let rate = [0, 0.5, 1, 2, -1][Int(random.next() % 5)]
            let lateness = random.next() % 7 == 0 ? specials[Int(random.next() % UInt64(specials.count))]
                                                  : Double(random.next() % 1_400) / 1_000 - 0.2
            let frameTime = Double(step) / 30
            let timeline = PlaybackTimeline(elapsed: 0, at: 100, rate: rate)
            // Where the host clock is when the timeline has passed the frame by `lateness` host seconds.
            let host = 100 + frameTime / (rate == 0 ? 1 : rate) + lateness
            _ = latency.record(frameTime: frameTime, presentedAt: host, timeline: timeline)
            let measured = rate > 0 ? (timeline.position(at: host) - frameTime) / rate : .nan
            // A report at a host time that is not a number is left out (an infinite one would otherwise read as
            // a position clamped to the start: LATENCY_SEED=8614500530235168501 accepted -inf at frame 0).
            if rate > 0, host.isFinite, measured.isFinite, measured >= -0.05, measured <= 1 {
                accepted.append(max(0, measured))
            }
            let window = Array(accepted.suffix(31))
            guard !window.isEmpty else { continue }
            // The median by counting: the value with at least half the window at or below it and above it.
            let median = window.first { candidate in
                window.filter { $0 < candidate }.count <= window.count / 2
                    && window.filter { $0 > candidate }.count <= (window.count - 1) / 2
            }
            #expect(median.map { abs($0 - latency.estimate) < 1e-9 } == true,
                    "LATENCY_SEED=\(seed) step \(step): estimate \(latency.estimate), median \(String(describing: median))")
        }
    }
}
