import ExternalDisplayMedia
import Testing

@Suite("External playback policy")
struct ExternalPlaybackPolicyTests {
    typealias Row = (content: PlaybackContentKind, fullScreen: Bool, screen: ExternalScreenUse,
                     allows: Bool, takesOver: Bool, nowPlaying: Bool, rule: ExternalPlaybackPolicy.Rule)

    /// The table of the DocC article "External playback policy", one line per row and situation.
    static let table: [Row] = [
        // An intro movie or a clip in an article: never on the TV, whatever the screen does.
        (.incidentalVideo, false, .none, false, false, false, .incidentalVideo),
        (.incidentalVideo, true, .mirroring, false, false, false, .incidentalVideo),
        (.incidentalVideo, true, .extending, false, false, false, .incidentalVideo),
        // Audio only: no video route, and mirroring is not ended.
        (.audioOnly, false, .none, false, false, true, .audioOnly),
        (.audioOnly, false, .mirroring, false, false, true, .audioOnly),
        (.audioOnly, true, .extending, false, false, true, .audioOnly),
        // Full-screen feature video: allowed and takes over the external screen.
        (.featureVideo, true, .none, true, true, true, .fullScreenFeature),
        (.featureVideo, true, .mirroring, true, true, true, .fullScreenFeature),
        (.featureVideo, true, .extending, true, true, true, .fullScreenFeature),
        // Inline feature video: allowed, but the external screen keeps what it shows.
        (.featureVideo, false, .mirroring, true, false, true, .inlineFeatureWhileMirroring),
        (.featureVideo, false, .extending, true, false, true, .inlineFeatureWhileExtending),
        (.featureVideo, false, .none, true, false, true, .inlineFeatureWithoutExternalScreen),
    ]

    @Test(arguments: table.indices)
    func row(_ index: Int) {
        let row = Self.table[index]
        let decision = ExternalPlaybackPolicy.decide(
            ExternalPlaybackSituation(content: row.content, isFullScreen: row.fullScreen, screen: row.screen))
        #expect(decision.allowsExternalPlayback == row.allows)
        #expect(decision.usesExternalPlaybackWhileExternalScreenIsActive == row.takesOver)
        #expect(decision.becomesNowPlayingApp == row.nowPlaying)
        #expect(decision.rule == row.rule)
    }

    @Test func theTableCoversEverySituationAndEveryRule() {
        let situations = Set(Self.table.map { "\($0.content)-\($0.fullScreen)-\($0.screen)" })
        #expect(Set(Self.table.map(\.rule)) == Set(ExternalPlaybackPolicy.Rule.allCases))
        // Every feature-video situation is listed; the other kinds ignore full screen and screen.
        for screen in ExternalScreenUse.allCases {
            for fullScreen in [false, true] {
                #expect(situations.contains("featureVideo-\(fullScreen)-\(screen)"))
            }
        }
    }

    @Test func takingOverIsNeverAskedWithoutAllowing() {
        for content in PlaybackContentKind.allCases {
            for screen in ExternalScreenUse.allCases {
                for fullScreen in [false, true] {
                    let decision = ExternalPlaybackPolicy.decide(
                        ExternalPlaybackSituation(content: content, isFullScreen: fullScreen, screen: screen))
                    #expect(decision.allowsExternalPlayback || !decision.usesExternalPlaybackWhileExternalScreenIsActive)
                }
            }
        }
    }
}

@Suite("Playing-on indicator")
struct ExternalPlaybackIndicatorTests {
    @Test func activeVideoShowsTheRoute() {
        let indicator = ExternalPlaybackIndicator(content: .featureVideo, isExternalPlaybackActive: true,
                                                  routeName: " Living Room ")
        #expect(indicator == .playing(onRoute: "Living Room"))
        #expect(indicator.message == "Playing on Living Room")
    }

    @Test func unnamedRoutesGetAGenericName() {
        let indicator = ExternalPlaybackIndicator(content: .featureVideo, isExternalPlaybackActive: true,
                                                  routeName: "")
        #expect(indicator.message == "Playing on external display")
    }

    @Test func inactivePlaybackOrAudioHidesIt() {
        #expect(ExternalPlaybackIndicator(content: .featureVideo, isExternalPlaybackActive: false,
                                          routeName: "TV") == .hidden)
        #expect(ExternalPlaybackIndicator(content: .audioOnly, isExternalPlaybackActive: true,
                                          routeName: "TV") == .hidden)
        #expect(!ExternalPlaybackIndicator.hidden.isVisible)
        #expect(ExternalPlaybackIndicator.hidden.message == nil)
    }
}
