import ExternalDisplayMedia
import ExternalDisplayTesting
import Foundation
import Testing

/// The frame scheduler over random streams, displays, jitter, stalls, pauses, seeks, rate changes, visibility
/// changes and bad input, judged by invariants computed here and by ``CadenceOracle``.
///
/// Each case has a seed; a failure prints it with the command that replays it. `EDK_CASES=N` runs more cases.
@Suite("Video frame scheduler properties")
struct VideoFrameSchedulerPropertyTests {
    /// Frame and refresh rates as exact fractions (numerator, denominator): the common pairs of the field.
    static let standardPairs: [((Int, Int), (Int, Int))] = [
        ((24, 1), (60, 1)), ((25, 1), (50, 1)), ((30, 1), (60, 1)), ((60, 1), (60, 1)), ((24_000, 1_001), (60, 1)),
        ((24_000, 1_001), (60_000, 1_001)), ((30_000, 1_001), (60_000, 1_001)), ((60_000, 1_001), (60, 1)),
        ((25, 1), (60, 1)), ((24, 1), (144, 1)), ((60, 1), (144, 1)), ((30, 1), (144, 1)), ((50, 1), (60, 1)),
        ((60, 1), (30, 1)), ((120, 1), (60, 1)), ((24, 1), (50, 1)), ((48, 1), (60, 1)), ((24, 1), (120, 1)),
        ((25, 1), (75, 1)), ((60, 1), (165, 1)), ((24, 1), (30, 1)), ((60, 1), (50, 1)), ((24, 1), (24, 1)),
    ]

    @Test func theOracleStatesTheKnownCadences() {
        // Written out by hand: 3:2 pulldown, 2:2, and 12 vsyncs for 5 frames of 60 fps on 144 Hz.
        #expect(CadenceOracle(fpsNumerator: 24, fpsDenominator: 1, refreshNumerator: 60, refreshDenominator: 1)
                    .period == [0, 0, 1, 0, 1])
        #expect(CadenceOracle(fpsNumerator: 25, fpsDenominator: 1, refreshNumerator: 50, refreshDenominator: 1)
                    .period == [0, 1])
        #expect(CadenceOracle(fpsNumerator: 60, fpsDenominator: 1, refreshNumerator: 144, refreshDenominator: 1)
                    .period == [0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1])
        #expect(CadenceOracle(fpsNumerator: 60, fpsDenominator: 1, refreshNumerator: 30, refreshDenominator: 1)
                    .period == [2])
        let ntsc = CadenceOracle(fpsNumerator: 24_000, fpsDenominator: 1_001, refreshNumerator: 60, refreshDenominator: 1)
        #expect(ntsc.b == 1_001 && ntsc.period.reduce(0, +) == 400)
    }

    /// Standard pairs, random anchors and vsync phases, jitter up to ±0.19 of a period: the frame on screen at
    /// each vsync advances exactly as the oracle's pattern says, and nothing is dropped unless the stream is
    /// faster than the display.
    @Test func standardPairsShowTheExactCadenceUnderJitter() throws {
        let run = MediaRandomRun(defaultCases: 300)
        for index in 0..<run.cases {
            let seed = run.seed(ofCase: index)
            var random = SeededRandom(state: seed)
            let ((p, q), (r, s)) = random.pick(from: Self.standardPairs)
            let oracle = CadenceOracle(fpsNumerator: p, fpsDenominator: q, refreshNumerator: r, refreshDenominator: s)
            let fps = Double(p) / Double(q), refresh = Double(r) / Double(s), period = 1 / refresh
            // Half the cases start exactly on a frame boundary at a vsync (playing from a seek to a frame's
            // time), where every vsync of 30 on 60 sits on a boundary unless the phase moves them apart.
            let aligned = random.chance(0.5)
            let elapsed = aligned ? Double(Int.random(in: 120...100_000, using: &random)) * Double(q) / Double(p)
                : Double.random(in: 5...5_000, using: &random)
            let anchor = Double.random(in: -10_000...10_000, using: &random)
            let firstVsync = anchor + (aligned ? 0 : Double.random(in: 0...1, using: &random))
            let jitter = random.pick(from: [0, 0.05, 0.15, 0.19]) * period
            let count = min(3_500, max(300, 3 * oracle.b + 2))
            var scheduler = try VideoFrameScheduler(framesPerSecond: fps, refreshRate: refresh)
            scheduler.follow(PlaybackTimeline(elapsed: elapsed, at: anchor, rate: 1), discontinuity: true)
            var shown: [Int] = []
            for k in 0..<count {
                let time = firstVsync + Double(k) * period + Double.random(in: -1...1, using: &random) * jitter
                guard let frame = scheduler.frame(forVsyncAt: time).frameOnScreen else { break }
                shown.append(frame)
            }
            let advances = zip(shown, shown.dropFirst()).map { $1 - $0 }
            let matches = shown.count == count && oracle.shift(matching: advances) != nil
            let dropsExpected = p * s > q * r
            guard !matches || (!dropsExpected && scheduler.counters.dropped != 0) else { continue }
            Issue.record(Comment(rawValue: """
                case \(index), seed \(seed): \(p)/\(q) fps on \(r)/\(s) Hz, elapsed \(elapsed) at host \(anchor), \
                first vsync \(firstVsync), jitter ±\(jitter) s: \(shown.count) of \(count) vsyncs showed a frame, \
                dropped \(scheduler.counters.dropped)
                expected advances (one period): \(oracle.period.prefix(40))
                observed advances: \(advances.prefix(60))
                replay: \(MediaRandomRun.replay(seed, test: "standardPairsShowTheExactCadenceUnderJitter"))
                """))
            return
        }
    }

    /// Everything random, bad input included; after every vsync the invariants of ``VideoFrameScheduler`` hold.
    @Test func randomPlaybackKeepsEveryInvariant() {
        let run = MediaRandomRun(defaultCases: 400)
        var refused = 0, presentedTotal = 0
        for index in 0..<run.cases {
            let seed = run.seed(ofCase: index)
            var random = SeededRandom(state: seed)
            var trial = SchedulerTrial(random: &random)
            guard let problem = trial.run(random: &random) else {
                if trial.refused { refused += 1 }
                presentedTotal += trial.presented
                continue
            }
            Issue.record(Comment(rawValue: """
                case \(index), seed \(seed): \(problem)
                \(trial.describe())
                replay: \(MediaRandomRun.replay(seed, test: "randomPlaybackKeepsEveryInvariant"))
                """))
            return
        }
        // The generator's promises: some invalid rates, and mostly cases that present many frames.
        if run.cases >= 100 {
            #expect(refused > 0 && refused < run.cases / 4, "\(refused) of \(run.cases) cases had invalid rates")
            #expect(presentedTotal > run.cases * 20, "only \(presentedTotal) frames presented")
        }
    }
}

/// One random case of ``VideoFrameSchedulerPropertyTests/randomPlaybackKeepsEveryInvariant()``: a stream and a
/// display, then a few hundred random steps, each vsync decision checked against the timeline this trial gave.
struct SchedulerTrial {
    static let typicalRates = [24, 25, 30, 60, 24_000.0 / 1_001, 30_000.0 / 1_001, 60_000.0 / 1_001, 23.976, 29.97,
                               50, 48, 120, 12, 15, 1, 0.01, 1_000, 144, 165, 240, 75]
    static let invalidRates = [0, -1, -24, .nan, .infinity, -.infinity, 1e300, 1_000.5, 0.005,
                               .leastNonzeroMagnitude, .greatestFiniteMagnitude]
    static let playRates = [1, 1, 1, 0.5, 1.25, 2, 4, 0.1, 1e-3, 37, -1, .nan, .infinity]
    static let badTimestamps = [Double.nan, .infinity, -.infinity, 1e300, -1e300, 1e13]

    let fps: Double
    let refresh: Double
    let jitter: Double
    var refused = false
    var presented = 0
    private var steps: [String] = []

    init(random: inout SeededRandom) {
        func rate(_ random: inout SeededRandom) -> Double {
            if random.chance(0.04) { return random.pick(from: Self.invalidRates) }
            if random.chance(0.2) { return exp(Double.random(in: log(0.01)...log(1_000), using: &random)) }
            return random.pick(from: Self.typicalRates)
        }
        fps = rate(&random)
        refresh = rate(&random)
        jitter = random.pick(from: [0, 0, 0.05, 0.3, 0.6, 2])
    }

    func describe() -> String {
        "stream \(fps) fps, display \(refresh) Hz, jitter ±\(jitter) of a period; last steps:\n  "
            + steps.suffix(14).joined(separator: "\n  ")
    }

    /// Runs the case; returns the first broken invariant, if any.
    mutating func run(random: inout SeededRandom) -> String? {
        var scheduler: VideoFrameScheduler
        do {
            scheduler = try VideoFrameScheduler(framesPerSecond: fps, refreshRate: refresh)
        } catch {
            refused = true
            let valid = fps.isFinite && fps >= 0.01 && fps <= 1_000 && refresh.isFinite && refresh >= 1 && refresh <= 1_000
            return valid ? "valid rates refused: \(error)" : nil
        }
        let period = 1 / refresh
        let duration: Double? = random.chance(0.3) ? nil : Double.random(in: 0...7_200, using: &random)
        var time = Double.random(in: -1_000...100_000, using: &random)
        var lastAccepted: Double?
        var timeline = PlaybackTimeline(elapsed: Double.random(in: 0...60, using: &random), at: time, rate: 1,
                                        duration: duration)
        scheduler.follow(timeline, discontinuity: true)
        var visible = true
        var onScreen: Int?
        var mayGoBack = true, startsRun = true, freshAfterChange = true
        var presents = 0, holds = 0, drops = 0, rejected = 0

        for step in 0..<Int.random(in: 100...500, using: &random) {
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < 0.05 {
                let target = random.chance(0.1) ? random.pick(from: [-5, 1e9, .nan]) : Double.random(in: 0...7_200, using: &random)
                timeline = PlaybackTimeline(elapsed: target, at: time, rate: timeline.rate, duration: duration)
                scheduler.follow(timeline, discontinuity: true)
                (mayGoBack, startsRun, freshAfterChange) = (true, true, true)
                steps.append("\(step): seek to \(target) at \(time)")
                continue
            }
            if roll < 0.12 {
                let rate = random.chance(0.5) ? (timeline.rate > 0 ? 0 : 1) : random.pick(from: Self.playRates)
                timeline = timeline.changingRate(to: rate, at: time)
                scheduler.follow(timeline, discontinuity: false)
                freshAfterChange = true
                steps.append("\(step): rate \(rate) at \(time) (position \(timeline.elapsed))")
                continue
            }
            if roll < 0.14 {
                visible.toggle()
                scheduler.setVisible(visible)
                if visible { (startsRun, freshAfterChange) = (true, true) }
                steps.append("\(step): \(visible ? "shown" : "hidden")")
                continue
            }
            var stamp: Double
            if roll < 0.15 {
                stamp = random.chance(0.5) ? random.pick(from: Self.badTimestamps) : (lastAccepted ?? time) - period * Double.random(in: 0...2, using: &random)
            } else {
                let missed = random.chance(0.03) ? Double(Int.random(in: 2...10, using: &random)) : 1
                time += period * missed
                stamp = time + Double.random(in: -1...1, using: &random) * jitter * period
            }
            let decision = scheduler.frame(forVsyncAt: stamp)
            steps.append("\(step): vsync \(stamp) → \(decision)")
            let acceptable = stamp.isFinite && abs(stamp) <= 1e12 && (lastAccepted.map { stamp > $0 } ?? true)
            guard acceptable else {
                rejected += 1
                guard case .idle(let reason) = decision, reason == .invalidTimestamp || reason == .staleTimestamp else {
                    return "a bad timestamp \(stamp) was not refused: \(decision)"
                }
                continue
            }
            lastAccepted = stamp
            let position = Self.position(of: timeline, at: stamp)
            let moving = timeline.rate.isFinite && timeline.rate > 0
            switch decision {
            case .idle(let reason):
                let expected: Set<FrameIdleReason> = !visible ? [.hidden]
                    : moving ? [.positionOutOfRange] : [.paused, .positionOutOfRange]
                guard expected.contains(reason) else { return "idle for \(reason), expected one of \(expected)" }
                if reason == .positionOutOfRange, position * fps < 1e12 {
                    return "position \(position) s called out of range"
                }
                if reason == .paused, freshAfterChange, onScreen == nil {
                    return "paused after a change without showing any frame"
                }
                if reason == .paused { freshAfterChange = false }
            case .hold(let frame):
                guard visible else { return "held a frame while hidden" }
                guard frame == onScreen else { return "held \(frame) while \(String(describing: onScreen)) is on screen" }
                guard moving else { return "held while paused (a paused vsync is idle)" }
                holds += 1
            case .present(let shown):
                guard visible else { return "presented while hidden" }
                guard moving || freshAfterChange else { return "presented \(shown.index) while paused, twice" }
                let start = Double(shown.index) / fps, end = Double(shown.index + 1) / fps
                let reach = moving ? timeline.rate / refresh : 0
                // A still frame may be the next one when the position is a rounding error below its start (the
                // scheduler's documented snap of at most 1e-7 of a frame: a seek to exactly 2 s shows frame 2 s).
                let snap = moving ? 0 : 2e-7 / fps
                let slack = 1e-12 * max(1, position) + 1e-9 + snap
                guard start <= position + reach + slack, end >= position - reach - slack else {
                    return "frame \(shown.index) [\(start), \(end)) is not within one refresh (\(reach) s of media) "
                        + "of the position \(position)"
                }
                guard abs(shown.mediaTime - start) <= 1e-9 * max(1, start) else { return "wrong media time \(shown.mediaTime)" }
                if let onScreen, !mayGoBack {
                    guard shown.index > onScreen || (startsRun && shown.index == onScreen) else {
                        return "went back from \(onScreen) to \(shown.index) without a seek"
                    }
                }
                let dropped = startsRun ? 0 : max(0, shown.index - (onScreen ?? shown.index) - 1)
                guard shown.droppedBefore == dropped else {
                    return "dropped \(shown.droppedBefore) before \(shown.index), expected \(dropped)"
                }
                drops += dropped
                presents += 1
                onScreen = shown.index
                (mayGoBack, startsRun, freshAfterChange) = (false, false, false)
            }
        }
        presented = presents
        let counters = scheduler.counters
        guard counters.presented == presents, counters.held == holds, counters.dropped == drops,
              counters.rejectedTimestamps == rejected else {
            return "counters \(counters) do not add up: presented \(presents), held \(holds), dropped \(drops), "
                + "rejected \(rejected)"
        }
        return nil
    }

    /// The position at `time`, computed here from the timeline's fields: elapsed + Δt × rate within the item.
    static func position(of timeline: PlaybackTimeline, at time: Double) -> Double {
        var position = timeline.elapsed + (time - timeline.referenceInstant) * timeline.rate
        if !position.isFinite { position = timeline.elapsed }
        position = max(0, position)
        if let duration = timeline.duration { position = min(position, duration) }
        return position
    }
}
