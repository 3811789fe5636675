import ExternalDisplayMedia
import Testing

@Suite("Remote-command router")
struct RemoteCommandRouterTests {
    func state(_ metadata: NowPlayingMetadata?, status: PlaybackStatus = .playing,
               elapsed: Double = 100) -> NowPlayingState {
        NowPlayingState(metadata: metadata,
                        timeline: PlaybackTimeline(elapsed: elapsed, at: 0, rate: status == .playing ? 1 : 0,
                                                   duration: metadata?.duration),
                        status: status)
    }

    @Test func nothingIsEnabledWithoutAnItem() {
        let router = RemoteCommandRouter(capabilities: PlaybackCapabilities(hasNextItem: true, hasPreviousItem: true))
        #expect(router.enabledCommands(for: .empty).isEmpty)
        for command in [RemoteCommand.play, .pause, .nextTrack, .changePosition(to: 1)] {
            #expect(router.decide(command, for: .empty, at: 0).status == .noActionableItem)
        }
    }

    @Test func nothingIsEnabledWhileTheAppDoesNotTakeRemoteCommands() {
        let router = RemoteCommandRouter(capabilities: PlaybackCapabilities(receivesRemoteCommands: false))
        #expect(router.enabledCommands(for: state(song)).isEmpty)
        #expect(router.decide(.play, for: state(song), at: 0) == RemoteCommandDecision(status: .noActionableItem))
    }

    @Test func aSingleSeekableItemEnablesTransportAndSeeking() {
        let router = RemoteCommandRouter()
        #expect(router.enabledCommands(for: state(song)) ==
                [.play, .pause, .togglePlayPause, .stop, .skipForward, .skipBackward, .seek, .changePosition])
    }

    @Test func aQueueAndRatesEnableTheirCommands() {
        let router = RemoteCommandRouter(capabilities: PlaybackCapabilities(
            hasNextItem: true, hasPreviousItem: true, supportedRates: 0.5...2))
        #expect(router.enabledCommands(for: state(song)) == Set(RemoteCommandKind.allCases))
    }

    @Test func liveStreamsDisableSeekingAndSkipping() {
        let router = RemoteCommandRouter()
        #expect(router.enabledCommands(for: state(radio)) == [.play, .pause, .togglePlayPause, .stop])
        #expect(router.decide(.changePosition(to: 5), for: state(radio), at: 0).status == .noSuchContent)
        #expect(router.decide(.skipForward(15), for: state(radio), at: 0).status == .noSuchContent)
    }

    @Test func nextWithoutAQueueIsNoSuchContent() {
        let router = RemoteCommandRouter()
        #expect(router.decide(.nextTrack, for: state(song), at: 0) == RemoteCommandDecision(status: .noSuchContent))
        #expect(router.decide(.previousTrack, for: state(song), at: 0).status == .noSuchContent)
    }

    @Test func toggleDependsOnTheStatus() {
        let router = RemoteCommandRouter()
        #expect(router.decide(.togglePlayPause, for: state(song), at: 0).action == .pause)
        #expect(router.decide(.togglePlayPause, for: state(song, status: .paused), at: 0).action == .play)
        #expect(router.decide(.togglePlayPause, for: state(song, status: .stopped), at: 0).action == .play)
    }

    @Test func skipsAreRelativeToTheComputedPosition() {
        let router = RemoteCommandRouter()
        // Playing from 100 at rate 1: at instant 20 the position is 120.
        #expect(router.decide(.skipForward(15), for: state(song), at: 20).action == .seek(to: 135))
        #expect(router.decide(.skipBackward(15), for: state(song), at: 20).action == .seek(to: 105))
        #expect(router.decide(.skipBackward(500), for: state(song), at: 20).action == .seek(to: 0))
        #expect(router.decide(.skipForward(-15), for: state(song), at: 20).status == .failed)
    }

    @Test func seekingPastTheEndGoesToTheNextItemOrTheEnd() {
        let single = RemoteCommandRouter()
        #expect(single.decide(.seek(by: 1_000), for: state(song), at: 0).action == .seek(to: 300))
        let queue = RemoteCommandRouter(capabilities: PlaybackCapabilities(hasNextItem: true))
        #expect(queue.decide(.seek(by: 1_000), for: state(song), at: 0).action == .nextTrack)
    }

    @Test func positionsOutsideTheItemFail() {
        let router = RemoteCommandRouter()
        #expect(router.decide(.changePosition(to: 301), for: state(song), at: 0).status == .failed)
        #expect(router.decide(.changePosition(to: -1), for: state(song), at: 0).status == .failed)
        #expect(router.decide(.changePosition(to: .nan), for: state(song), at: 0).status == .failed)
        #expect(router.decide(.changePosition(to: 42), for: state(song), at: 0) ==
                RemoteCommandDecision(status: .success, action: .seek(to: 42)))
    }

    @Test func ratesOutsideTheOfferAreNoSuchContentAndZeroPauses() {
        let router = RemoteCommandRouter(capabilities: PlaybackCapabilities(supportedRates: 0.5...2))
        #expect(router.decide(.changeRate(to: 1.5), for: state(song), at: 0).action == .setRate(1.5))
        #expect(router.decide(.changeRate(to: 3), for: state(song), at: 0).status == .noSuchContent)
        #expect(router.decide(.changeRate(to: 0), for: state(song), at: 0).action == .pause)
        #expect(router.decide(.changeRate(to: .infinity), for: state(song), at: 0).status == .failed)
    }

    /// The whole space, enumerated: 2 × 2 × 2 × 2 capability settings × 4 items = 64 combinations, each with
    /// every command (sampling 64 points at random would miss some in most runs).
    @Test func everyDisabledCommandIsRefusedAndEveryEnabledOneCanSucceed() {
        let commands: [RemoteCommand] = [.play, .pause, .togglePlayPause, .stop, .nextTrack, .previousTrack,
                                         .skipForward(15), .skipBackward(15), .seek(by: 5),
                                         .changePosition(to: 10), .changeRate(to: 1.5)]
        #expect(Set(commands.map(\.kind)) == Set(RemoteCommandKind.allCases), "a command kind is not exercised")
        let items: [NowPlayingMetadata?] = [nil, song, radio, longFilm]
        let flags = [false, true]
        let space = flags.flatMap { receives in flags.flatMap { next in flags.flatMap { previous in
            flags.flatMap { rates in items.map { (receives, next, previous, rates, $0) } } } } }
        #expect(space.count == 64)
        for (receives, next, previous, rates, item) in space {
            let router = RemoteCommandRouter(capabilities: PlaybackCapabilities(
                receivesRemoteCommands: receives, hasNextItem: next, hasPreviousItem: previous,
                supportedRates: rates ? 0.5...2 : 1...1))
            let current = state(item ?? nil)
            for command in commands {
                let decision = router.decide(command, for: current, at: 0)
                if router.isEnabled(command.kind, for: current) {
                    #expect(decision.status == .success && decision.action != nil)
                } else {
                    #expect(decision.status != .success && decision.action == nil)
                }
            }
        }
    }

    @Test func sessionAppliesTheRoutersActions() {
        let fixture = SessionFixture()
        let router = RemoteCommandRouter(capabilities: PlaybackCapabilities(supportedRates: 0.5...2))
        fixture.session.load(song, playing: true)
        fixture.clock.advance(by: 10)
        let decision = router.decide(.skipForward(15), for: fixture.session.state, at: fixture.clock.now())
        #expect(fixture.session.apply(decision.action!))
        #expect(fixture.session.position == 25)
        #expect(fixture.session.apply(.setRate(2)))
        fixture.clock.advance(by: 5)
        #expect(fixture.session.position == 35)
        #expect(!fixture.session.apply(.nextTrack))
        #expect(fixture.recorder.reasons == [.newItem, .seek, .rateChange])
    }
}
