import ExternalDisplayMedia
import ExternalDisplayTesting
import Foundation
import Testing

/// A simulated browser page — its own seek latency, report noise, a leader that plays, pauses, changes speed and
/// jumps — follows the corrector's answers; within a bounded time it is in step and stays there.
@Suite("Follower drift properties")
struct FollowerDriftPropertyTests {
    static let rates: [Double] = [0, 0.5, 1, 1, 1, 1.5, 2]
    static let offsets: [Double] = [0, 0.01, -0.03, 0.045, -0.2, 0.3, -0.49, 0.51, 2, -5, 600]

    @Test func aFollowerConvergesAndStaysInStep() {
        let run = MediaRandomRun(defaultCases: 400)
        for index in 0..<run.cases {
            let seed = run.seed(ofCase: index)
            var random = SeededRandom(state: seed)
            var page = SimulatedPage(random: &random)
            guard let problem = page.run(random: &random) else { continue }
            Issue.record(Comment(rawValue: """
                case \(index), seed \(seed): \(problem)
                \(page.describe())
                replay: \(MediaRandomRun.replay(seed, test: "aFollowerConvergesAndStaysInStep"))
                """))
            return
        }
    }
}

/// One page following one leader for 40 s, the leader changing once at 15 s.
struct SimulatedPage {
    let latency: Double
    let noise: Double
    let first: TimelineMessage
    let second: TimelineMessage
    var steps: [String] = []

    init(random: inout SeededRandom) {
        latency = Double.random(in: 0...0.4, using: &random)
        noise = random.pick(from: [0, 0.002, 0.005])
        let rate = random.pick(from: FollowerDriftPropertyTests.rates)
        first = TimelineMessage(sequence: 1, item: "film",
                                timeline: PlaybackTimeline(elapsed: Double.random(in: 0...3_000, using: &random),
                                                           at: 0, rate: rate), discontinuity: true)
        let jump = random.chance(0.5)
        let later = first.timeline.position(at: 15)
        second = TimelineMessage(sequence: 2, item: "film",
                                 timeline: PlaybackTimeline(elapsed: jump ? Double.random(in: 0...3_000, using: &random) : later,
                                                            at: 15, rate: random.pick(from: FollowerDriftPropertyTests.rates)),
                                 discontinuity: jump)
    }

    func describe() -> String {
        "seek latency \(latency) s, report noise ±\(noise) s, leader \(first) then \(second); last steps:\n  "
            + steps.suffix(12).joined(separator: "\n  ")
    }

    /// Runs 40 s of reports; returns the first broken promise, if any.
    mutating func run(random: inout SeededRandom) -> String? {
        var corrector = FollowerDriftCorrector()
        let offset = random.pick(from: FollowerDriftPropertyTests.offsets)
        var position = max(0, first.position(atHostTime: 0) + offset)
        var rate = first.timeline.rate
        var landing: (at: Double, target: Double)?
        var time = 0.0
        while time < 40 {
            let step = Double.random(in: 0.2...0.3, using: &random)
            // The page plays on, or sits frozen until its seek lands.
            if let seek = landing {
                if time + step >= seek.at {
                    position = seek.target + rate * (time + step - seek.at)
                    landing = nil
                }
            } else {
                position += rate * step
            }
            time += step
            let leader = time < 15 ? first : second
            let report = random.chance(0.02) ? Double.nan : position + Double.random(in: -1...1, using: &random) * noise
            let answer = corrector.correct(leader: leader, followerPosition: report, at: time)
            steps.append(String(format: "%.3f s: page at %.4f (leader %.4f, rate %.3f) → %@", time, position,
                                leader.position(atHostTime: time), rate, "\(answer)"))
            switch answer {
            case .none: break
            case .ignored: if report.isFinite { return "a finite report was ignored" }
            case .setRate(let newRate):
                let leaderRate = leader.timeline.rate
                guard leaderRate > 0, abs(newRate - leaderRate) <= leaderRate * 0.1 + 1e-12 else {
                    return "rate \(newRate) is more than 10 % from the leader's \(leaderRate)"
                }
                if landing == nil { rate = newRate }
            case .seek(let target, let newRate):
                guard target.isFinite, target >= 0, newRate == leader.timeline.rate else { return "seek \(answer)" }
                landing = (time + latency * Double.random(in: 0.9...1.1, using: &random), target)
                rate = newRate
            }
            // In step within 10 s of each change of the leader, and from then on.
            let sinceChange = time < 15 ? time : time - 15
            let drift = abs(position - leader.position(atHostTime: time))
            if sinceChange > 10, landing == nil, drift > 0.06 {
                return "still \(drift) s out of step \(sinceChange) s after the leader changed"
            }
        }
        return nil
    }
}
