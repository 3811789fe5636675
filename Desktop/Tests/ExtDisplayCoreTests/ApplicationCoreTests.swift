import ExternalDisplayKit
import ExternalDisplayMedia
import ExternalDisplayTesting
import Foundation
import Testing
@testable import ExtDisplayCore

/// The application core's modes: which child an input goes to, what comes back, and the keys every mode shares.
/// Expected effects are written out here from the README's key tables and the playback rules, not computed by the
/// children.
@Suite("Application core: presenting and playing")
struct ApplicationCoreTests {
    static let film = VideoItem(metadata: NowPlayingMetadata(identifier: "/films/demo.webm", title: "demo",
                                                             duration: 60, mediaType: .video))
    static let tv = VideoDisplay(id: "DUMMY1", name: "DUMMY1")

    /// The keys that mean something to `play` besides Q and Esc (README: play's key table), and two that do not.
    static let playKeys: Set<KeyPress> = [KeyPress(.space), KeyPress(.left), KeyPress(.right), KeyPress(.home),
                                          KeyPress(.character("e")), KeyPress(.character("m"))]

    static func playing() -> ApplicationCore {
        var app = ApplicationCore(playing: VideoPlaybackConfiguration())
        app.handle(.playback([.displayAttached(tv), .load(film, at: 0, playing: true)]), at: 0)
        return app
    }

    @Test func aNewCoreIsInTheModeItWasMadeFor() {
        let presenting = ApplicationCore(presenting: PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0)))
        #expect(presenting.mode == .presenting)
        #expect(presenting.player == nil)
        let playing = ApplicationCore(playing: VideoPlaybackConfiguration())
        #expect(playing.mode == .playing)
        #expect(playing.player?.playback.item == nil)
        #expect(!playing.wantsQuit)
    }

    @Test func spaceMovesTheSlideWhilePresentingAndPausesTheFilmWhilePlaying() {
        var presenting = ApplicationCore(presenting: PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0)))
        #expect(presenting.handle(.press(KeyPress(.space)), at: 1) == [.stateChanged])
        #expect(presenting.presenter.state.slideIndex == 1)

        var playing = Self.playing()
        #expect(playing.player?.playback.status == .playing)
        let effects = playing.handle(.press(KeyPress(.space)), at: 2)
        #expect(effects.first == .stateChanged)
        #expect(effects.contains { if case .playback(.timeline(let message)) = $0 { message.timeline.rate == 0 } else { false } },
                "a pause sends a timeline at rate 0: \(effects)")
        #expect(playing.player?.playback.status == .paused)
        #expect(playing.player?.playback.position(at: 10) == 2, "paused where Space was pressed")
        // The presenter in the playing mode gets nothing.
        #expect(playing.presenter.state.slideIndex == 0)
    }

    @Test func escapeNeverQuitsAndQTwiceQuitsInBothModes() {
        let presenting = ApplicationCore(presenting: PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0)))
        for start in [presenting, Self.playing()] {
            var app = start
            for t in stride(from: 1.0, through: 10, by: 1) { app.handle(.press(KeyPress(.escape)), at: t) }
            #expect(!app.wantsQuit, "\(app.mode): Esc must never quit")
            let first = app.handle(.press(KeyPress(.character("q"))), at: 11)
            #expect(first.contains(.say("press q again within 2 s to quit (Ctrl-Q quits at once; Esc cancels)")), "\(app.mode): \(first)")
            #expect(app.isQuitArmed(at: 11.5))
            #expect(!app.wantsQuit)
            let second = app.handle(.press(KeyPress(.character("q"))), at: 12.5)
            #expect(app.wantsQuit, "\(app.mode): the second Q within 2 s quits")
            #expect(second.last == .quit, "\(app.mode): \(second)")
        }
    }

    @Test func qThenEscapeThenQAsksAgainInBothModes() {
        let presenting = ApplicationCore(presenting: PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0)))
        for start in [presenting, Self.playing()] {
            var app = start
            app.handle(.press(KeyPress(.character("q"))), at: 1)
            app.handle(.press(KeyPress(.escape)), at: 1.5)
            app.handle(.press(KeyPress(.character("q"))), at: 2)
            #expect(!app.wantsQuit, "\(app.mode): Esc between the two Qs cancels")
            app.handle(.press(KeyPress(.character("q"), control: true)), at: 3)
            #expect(app.wantsQuit, "\(app.mode): Ctrl-Q quits at once")
        }
    }

    @Test func stopEndsEitherMode() {
        var presenting = ApplicationCore(presenting: PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0)))
        #expect(presenting.handle(.stop, at: 1).last == .quit)
        #expect(presenting.wantsQuit)
        var playing = Self.playing()
        #expect(playing.handle(.stop, at: 1) == [.stateChanged, .quit])
        #expect(playing.wantsQuit)
    }

    @Test func unpluggingTheDisplayTheFilmPlaysOnBringsItBackPaused() {
        var app = Self.playing()
        #expect(app.player?.playback.placement == .externalDisplay(Self.tv))
        let effects = app.handle(.playback([.displayDetached(id: "DUMMY1")]), at: 5)
        #expect(effects.contains(.playback(.place(.mainWindow))), "\(effects)")
        #expect(app.player?.playback.status == .paused)
        #expect(app.player?.playback.position(at: 9) == 5)
    }

    @Test func eachModeIgnoresTheOtherModesInputs() {
        var presenting = ApplicationCore(presenting: PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0)))
        let before = presenting
        #expect(presenting.handle(.playback([.load(Self.film, at: 0, playing: true), .togglePlayPause]), at: 1) == [])
        #expect(presenting == before)

        var playing = Self.playing()
        let film = playing
        for input: PresenterInput in [.key(.next), .remote(.next), .plan(duration: 600), .pointer(nil), .detached("tv"),
                                      .deckReloaded(slideCount: 9, numbering: SlideNumbering(pageCount: 9), slideIndex: 4)] {
            #expect(playing.handle(input, at: 3) == [], "\(input)")
        }
        #expect(playing == film)
    }

    /// Random inputs of every kind, in both modes, at times that run forward with some not finite: no trap; the
    /// playing mode's presenter never moves and the presenting mode never gets a film; quitting follows the rule
    /// written here (Ctrl-Q or a stop at once, Q twice within 2 s with no other key between, Esc never).
    @Test("random inputs in both modes (seeded; EDK_APP_SEED=N replays one, EDK_APP_COUNT=N runs N seeds)")
    func randomInputsKeepTheModesApart() {
        let fixed = ProcessInfo.processInfo.environment["EDK_APP_SEED"].flatMap(UInt64.init)
        let count = ProcessInfo.processInfo.environment["EDK_APP_COUNT"].flatMap(Int.init) ?? 300
        let seeds: [UInt64] = fixed.map { [$0] } ?? (0..<max(1, count)).map { UInt64($0) &* 7_919 &+ 3 }
        let presses = [KeyPress(.space), KeyPress(.left), KeyPress(.right), KeyPress(.escape), KeyPress(.f5),
                       KeyPress(.character("q")), KeyPress(.character("q"), control: true), KeyPress(.character("e")),
                       KeyPress(.character("m")), KeyPress(.character("b")), KeyPress(.home), KeyPress(.character("z"))]
        let numbers: [Double] = [0, 1, -1, 59.9, 60, 61, 1e300, -1e300, .nan, .infinity, -.infinity]
        for seed in seeds {
            var g = SeededRandom(state: seed)
            let playingMode = seed % 2 == 0
            var app = playingMode ? ApplicationCore(playing: VideoPlaybackConfiguration())
                : ApplicationCore(presenting: PresenterCore(state: PresenterState(slideCount: 5, startedAt: 0)))
            let presenterAtStart = app.presenter
            var armedAt: Double?
            var quit = false
            var clock = 0.0
            for step in 0..<60 {
                clock += [0, 0.5, 1.999, 2, 2.001, 3][Int(g.next() % 6)]
                let now = g.next() % 12 == 0 ? [Double.nan, .infinity, -.infinity][Int(g.next() % 3)] : clock
                let input: PresenterInput
                switch g.next() % 4 {
                case 0, 1: input = .press(presses[Int(g.next() % UInt64(presses.count))])
                case 2:
                    let n = Int(g.next() % 4)
                    input = .playback((0..<n).map { _ in
                        switch g.next() % 6 {
                        case 0: .load(Self.film, at: numbers[Int(g.next() % UInt64(numbers.count))], playing: g.next() % 2 == 0)
                        case 1: .seekBy(numbers[Int(g.next() % UInt64(numbers.count))])
                        case 2: .displayAttached(Self.tv)
                        case 3: .displayDetached(id: "DUMMY1")
                        case 4: .setRate(numbers[Int(g.next() % UInt64(numbers.count))])
                        default: .endOfMedia
                        }
                    })
                default: input = g.next() % 8 == 0 ? .stop : .key(.next)
                }
                _ = app.handle(input, at: now)
                // The quit model (the presenter's own and the player's follow the same rule).
                switch input {
                case .stop: quit = true
                case .press(let press):
                    if press == KeyPress(.character("q"), control: true) {
                        quit = true
                    } else if press == KeyPress(.character("q")) {
                        if let armed = armedAt, now.isFinite, now >= armed, now - armed <= 2 { quit = true }
                        else if now.isFinite { armedAt = now }
                    } else if press == KeyPress(.escape) || press == KeyPress(.f5) {
                        armedAt = nil
                    } else if Self.playKeys.contains(press) {
                        armedAt = nil
                    }
                case .key where !playingMode: armedAt = nil
                default: break
                }
                let replay = "replay with EDK_APP_SEED=\(seed) (step \(step), \(input))"
                if playingMode {
                    #expect(app.presenter == presenterAtStart, "the playing mode's presenter moved; \(replay)")
                    #expect(app.wantsQuit == quit, "quit \(app.wantsQuit), expected \(quit); \(replay)")
                    if app.wantsQuit != quit || app.presenter != presenterAtStart { break }
                } else {
                    #expect(app.player == nil, "a film in the presenting mode; \(replay)")
                    if app.player != nil { break }
                }
                if quit { break }
            }
        }
    }
}
