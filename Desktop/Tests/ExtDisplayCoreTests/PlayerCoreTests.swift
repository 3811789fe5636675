import ExtDisplayCore
import ExternalDisplayMedia
import ExternalDisplayTesting
import Foundation
import Testing

@Suite("the playing mode of the application core")
struct PlayerCoreTests {
    static let film = VideoItem(metadata: NowPlayingMetadata(identifier: "film.webm", title: "film", duration: 120,
                                                             mediaType: .video))
    static let tv = VideoDisplay(id: "HDMI-1", name: "HDMI-1")

    /// A core playing the film on an attached TV from 0 at time 0.
    static func playing() -> PlayerCore {
        var core = PlayerCore(configuration: VideoPlaybackConfiguration())
        _ = core.handle([.displayAttached(tv), .load(film, at: 0, playing: true)], at: 0)
        return core
    }

    @Test func spaceAndArrowsMoveTheFilmThroughTheLibrarysPlayback() {
        var core = Self.playing()
        #expect(core.playback.status == .playing)
        _ = core.handle(KeyPress(.space), at: 10)
        #expect(core.playback.status == .paused)
        #expect(abs(core.playback.position(at: 10) - 10) < 1e-9)
        _ = core.handle(KeyPress(.left), at: 11)
        #expect(abs(core.playback.position(at: 11) - 5) < 1e-9)
        _ = core.handle(KeyPress(.up), at: 12)
        #expect(abs(core.playback.position(at: 12) - 65) < 1e-9)
        _ = core.handle(KeyPress(.home), at: 13)
        #expect(core.playback.position(at: 13) == 0)
        _ = core.handle(KeyPress(.character("m")), at: 14)
        #expect(core.playback.placement == .mainWindow)
        _ = core.handle(KeyPress(.character("e")), at: 15)
        #expect(core.playback.placement == .externalDisplay(Self.tv))
    }

    @Test func escNeverQuitsOneQAsksTwoQuit() {
        var core = Self.playing()
        _ = core.handle(KeyPress(.escape), at: 1)
        _ = core.handle(KeyPress(.f5), at: 1.1)
        #expect(!core.wantsQuit)
        _ = core.handle(KeyPress(.character("q")), at: 2)
        #expect(!core.wantsQuit && core.isQuitArmed(at: 2))
        // Another key in between: the next Q asks again.
        _ = core.handle(KeyPress(.space), at: 2.5)
        _ = core.handle(KeyPress(.character("q")), at: 3)
        #expect(!core.wantsQuit)
        _ = core.handle(KeyPress(.character("q")), at: 4)
        #expect(core.wantsQuit)
    }

    @Test func ctrlQQuitsAtOnceAndAKeyOfNoMeaningChangesNothing() {
        var core = Self.playing()
        let before = core
        #expect(core.handle(KeyPress(.character("x")), at: 3).isEmpty)
        #expect(core == before)
        _ = core.handle(KeyPress(.character("q"), control: true), at: 3)
        #expect(core.wantsQuit)
    }

    static let presses: [KeyPress] = [KeyPress(.character("q")), KeyPress(.character("q")), KeyPress(.character("q")),
                                      KeyPress(.character("q"), control: true), KeyPress(.escape), KeyPress(.f5),
                                      KeyPress(.space), KeyPress(.left), KeyPress(.right), KeyPress(.home),
                                      KeyPress(.character("x")), KeyPress(.character("e")), KeyPress(.character("m")),
                                      KeyPress(.enter), KeyPress(.space, control: true)]
    /// The presses above that mean something while playing (the others leave the core as it was), written here.
    static let meaningful: Set<KeyPress> = [KeyPress(.escape), KeyPress(.f5), KeyPress(.space), KeyPress(.left),
                                            KeyPress(.right), KeyPress(.home), KeyPress(.character("e")),
                                            KeyPress(.character("m"))]
    static let numbers: [Double] = [0, 1, -1, 0.5, 5, 1e-300, 1e300, -1e300, .nan, .infinity, -.infinity,
                                    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne]

    /// Random keys and event batches, before any film is loaded and after, at times that run forward in steps of 0 to
    /// 3 s with some not finite: no trap, and quitting follows a model of the rule written here (Ctrl-Q at once; Q
    /// twice within 2 s with no meaningful key between; Esc never), not the core's own bookkeeping.
    @Test("random keys and batches (seeded; EDK_PLAYER_SEED=N replays one, EDK_PLAYER_COUNT=N runs N seeds)")
    func randomInputsFollowTheQuitModel() {
        let fixed = ProcessInfo.processInfo.environment["EDK_PLAYER_SEED"].flatMap(UInt64.init)
        let count = ProcessInfo.processInfo.environment["EDK_PLAYER_COUNT"].flatMap(Int.init) ?? 400
        let seeds: [UInt64] = fixed.map { [$0] } ?? (0..<max(1, count)).map { UInt64($0) &* 104_729 &+ 7 }
        for seed in seeds {
            var g = SeededRandom(state: seed)
            var core = PlayerCore(configuration: VideoPlaybackConfiguration())
            var armedAt: Double?
            var quit = false
            var clock = 0.0
            for step in 0..<80 {
                clock += [0, 0.5, 1.999, 2, 2.001, 3].randomElement(using: &g)!
                let now = Int.random(in: 0..<12, using: &g) == 0 ? [.nan, .infinity, -.infinity].randomElement(using: &g)! : clock
                if Bool.random(using: &g) {
                    let press = Self.presses.randomElement(using: &g)!
                    _ = core.handle(press, at: now)
                    if press == KeyPress(.character("q"), control: true) {
                        quit = true
                    } else if press == KeyPress(.character("q")) {
                        if let armed = armedAt, now.isFinite, now >= armed, now - armed <= 2 { quit = true }
                        else if now.isFinite { armedAt = now }
                    } else if Self.meaningful.contains(press) {
                        armedAt = nil
                    }
                } else {
                    let n = Int.random(in: 0...3, using: &g)
                    let batch: [VideoPlaybackEvent] = (0..<n).map { _ in
                        switch Int.random(in: 0..<8, using: &g) {
                        case 0: .load(Self.film, at: Self.numbers.randomElement(using: &g)!, playing: Bool.random(using: &g))
                        case 1: .seekBy(Self.numbers.randomElement(using: &g)!)
                        case 2: .seek(to: Self.numbers.randomElement(using: &g)!)
                        case 3: .displayAttached(Self.tv)
                        case 4: .displayDetached(id: Self.tv.id)
                        case 5: .setRate(Self.numbers.randomElement(using: &g)!)
                        case 6: .endOfMedia
                        default: .togglePlayPause
                        }
                    }
                    _ = core.handle(batch, at: now)
                }
                #expect(core.wantsQuit == quit, "step \(step); replay with EDK_PLAYER_SEED=\(seed)")
                if core.wantsQuit != quit { break }
            }
        }
    }
}
