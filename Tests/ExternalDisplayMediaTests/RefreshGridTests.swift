import ExternalDisplayMedia
import ExternalDisplayTesting
import Testing

/// The refresh grid of a display without vsync: worked examples written out by hand, and random wake-up times
/// (jittered, late, extreme, non-finite) against the grid's definition.
@Suite("Refresh grid")
struct RefreshGridTests {
    @Test func passesServeTheLatestInstantAtOrBeforeThem() throws {
        let grid = RefreshGrid(refreshRate: 50, origin: 1)   // instants 1, 1.02, 1.04 …
        #expect(grid.period == 0.02)
        #expect(try #require(grid.instant(servedAt: 1)) == 1)
        #expect(try #require(grid.instant(servedAt: 1.0005)) == 1)           // woken 0.5 ms late: still the instant 1
        #expect(abs(try #require(grid.instant(servedAt: 1.0199)) - 1.02) < 1e-12)   // 0.1 ms early: served as 1.02
        #expect(try #require(grid.instant(servedAt: 1.0185)) == 1)           // 1.5 ms early is too early
        #expect(abs(try #require(grid.instant(servedAt: 1.075)) - 1.06) < 1e-12)    // overslept: the latest, 1.06
        #expect(abs(try #require(grid.instant(servedAt: 0.97)) - 0.96) < 1e-12)     // before the origin too
    }

    @Test func theLoopWakesAtTheNextInstantOrSoonerWhileAFrameIsAwaited() {
        let grid = RefreshGrid(refreshRate: 60, origin: 0)
        #expect(grid.wake(afterServing: 1, awaitingFrame: false, now: 1.001) == 1 + 1.0 / 60)
        #expect(grid.wake(afterServing: 1, awaitingFrame: true, now: 1.001) == 1.003)
        // Catching up never skips the next refresh.
        #expect(grid.wake(afterServing: 1, awaitingFrame: true, now: 1.016) == 1 + 1.0 / 60)
        #expect(grid.wake(afterServing: 1, awaitingFrame: true, now: .nan) == 1 + 1.0 / 60)
    }

    @Test func unusableRatesAndOriginsFallBack() {
        for rate in [0, -60, .nan, .infinity, 1e9] {
            #expect(RefreshGrid(refreshRate: rate, origin: 0).refreshRate == 60, "\(rate)")
        }
        #expect(RefreshGrid(refreshRate: 144, origin: .nan).origin == 0)
        #expect(RefreshGrid(refreshRate: 144, origin: 3).refreshRate == 144)
        let grid = RefreshGrid(refreshRate: 60, origin: 0)
        for time in [Double.nan, .infinity, -.infinity, 1e300, -1e300] { #expect(grid.instant(servedAt: time) == nil, "\(time)") }
    }

    /// Random grids and wake-up times: the instant served is on the grid, not after the wake-up (beyond the
    /// tolerance), and less than a period before it.
    @Test func servedInstantsAreOnTheGridAndWithinAPeriod() throws {
        let run = MediaRandomRun(defaultCases: 400)
        for index in 0..<run.cases {
            let seed = run.seed(ofCase: index)
            var random = SeededRandom(state: seed)
            let rate = random.pick(from: [24, 50, 59.94, 60, 75, 120, 144, 1, 1000, Double.random(in: 1...1000, using: &random)])
            let origin = random.pick(from: [0, -5, 1e6, Double.random(in: -1e5...1e5, using: &random)])
            let grid = RefreshGrid(refreshRate: rate, origin: origin)
            let time = origin + random.pick(from: [0, 1e-9, -1e-9, Double.random(in: -100...1e4, using: &random)])
            let replay = MediaRandomRun.replay(seed, test: "servedInstantsAreOnTheGridAndWithinAPeriod")
            let instant = try #require(grid.instant(servedAt: time), "\(replay)")
            let periods = (instant - origin) * rate
            #expect(abs(periods - periods.rounded()) < 1e-6 * max(1, abs(periods)), "off the grid: \(replay)")
            #expect(instant <= time + RefreshGrid.earlyTolerance / rate + 1e-9 * max(1, abs(time)), "after: \(replay)")
            #expect(time - instant < 1 / rate + 1e-9 * max(1, abs(time)), "a period before: \(replay)")
        }
    }
}
