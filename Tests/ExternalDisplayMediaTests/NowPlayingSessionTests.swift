import ExternalDisplayMedia
import PropertyBased
import Testing

@Suite("Now Playing session: publication rule")
struct NowPlayingSessionTests {
    @Test func anHourOfSteadyPlaybackIsOnePublication() {
        let fixture = SessionFixture()
        fixture.session.load(longFilm, playing: true)
        // The real player reports its position four times a second for an hour, wobbling by up to 0.3 s.
        var playerPosition = 0.0
        for tick in 1...(4 * 3_600) {
            fixture.clock.advance(by: 0.25)
            playerPosition += 0.25
            let wobble = 0.3 * Double((tick * 7_919) % 200 - 100) / 100
            fixture.session.report(observedPosition: playerPosition + wobble)
        }
        #expect(fixture.recorder.reasons == [.newItem])
        #expect(fixture.session.publicationCount == 1)
        #expect(abs(fixture.session.position - 3_600) < 1e-6)
    }

    @Test func nothingIsPublishedBeforeAnItemIsLoaded() {
        let fixture = SessionFixture()
        fixture.session.play()
        fixture.session.pause()
        fixture.session.seek(to: 10)
        fixture.session.report(observedPosition: 50)
        fixture.session.clear()
        #expect(fixture.recorder.publications.isEmpty)
    }

    @Test func eachDiscontinuityPublishesOnceWithItsReason() {
        let fixture = SessionFixture()
        let session = fixture.session
        session.load(song)                   // new item
        session.play()                       // rate change
        session.play()                       // already playing: nothing
        fixture.clock.advance(by: 10)
        session.seek(to: 100)                // seek
        session.setPreferredRate(2)          // rate change (speed)
        session.report(observedPosition: 150) // drift: computed is 100
        session.pause()                      // rate change
        session.pause()                      // already paused: nothing
        session.load(longFilm, playing: true) // new item
        session.clear()                      // cleared
        #expect(fixture.recorder.reasons == [.newItem, .rateChange, .seek, .rateChange, .drift, .rateChange,
                                             .newItem, .cleared])
    }

    @Test func pauseFreezesThePositionAndPlayResumesFromIt() {
        let fixture = SessionFixture()
        fixture.session.load(song, playing: true)
        fixture.clock.advance(by: 30)
        fixture.session.pause()
        fixture.clock.advance(by: 1_000)
        #expect(fixture.session.position == 30)
        #expect(fixture.session.state.status == .paused)
        fixture.session.play()
        fixture.clock.advance(by: 5)
        #expect(fixture.session.position == 35)
    }

    @Test func stopRewindsAndPlayStartsOver() {
        let fixture = SessionFixture()
        fixture.session.load(song, at: 120, playing: true)
        fixture.session.stop()
        #expect(fixture.session.state.status == .stopped)
        #expect(fixture.session.position == 0)
        fixture.session.play()
        fixture.clock.advance(by: 3)
        #expect(fixture.session.position == 3)
    }

    @Test func liveStreamsCannotSeek() {
        let fixture = SessionFixture()
        fixture.session.load(radio, playing: true)
        fixture.session.seek(to: 100)
        #expect(fixture.recorder.reasons == [.newItem])
    }

    @Test func unchangedMetadataIsNotRepublished() {
        let fixture = SessionFixture()
        fixture.session.load(song)
        fixture.session.updateMetadata(song)
        var renamed = song
        renamed.title = "Song (Live)"
        fixture.session.updateMetadata(renamed)
        #expect(fixture.recorder.reasons == [.newItem, .newItem])
        #expect(fixture.recorder.publications.last?.state.metadata?.title == "Song (Live)")
    }

    @Test func steadyPlaybackWithinToleranceNeverPublishes() async {
        await propertyCheck(input: Gen.double(in: 0.01...5).array(of: 1...200),
                            Gen.double(in: -0.99...0.99).array(of: 1...200),
                            Gen.double(in: 0.5...3)) { steps, wobbles, rate in
            let fixture = SessionFixture()
            fixture.session.setPreferredRate(rate)
            fixture.session.load(longFilm, playing: true)
            var position = 0.0
            for (index, step) in steps.enumerated() {
                fixture.clock.advance(by: step)
                position = min(position + step * rate, 7_200)
                fixture.session.report(observedPosition: position + wobbles[index % wobbles.count])
            }
            #expect(fixture.recorder.reasons == [.newItem])
        }
    }

    @Test func theLastPublicationAlwaysMatchesTheSession() async {
        // Operations: 0 play, 1 pause, 2 toggle, 3 stop, 4 seek, 5 rate, 6 report, 7 load, 8 clear, 9 time passes.
        let operations = zip(Gen.int(in: 0...9), Gen.double(in: 0...400)).array(of: 1...60)
        await propertyCheck(input: operations) { steps in
            let fixture = SessionFixture()
            let session = fixture.session
            for (operation, value) in steps {
                switch operation {
                case 0: session.play()
                case 1: session.pause()
                case 2: session.togglePlayPause()
                case 3: session.stop()
                case 4: session.seek(to: value)
                case 5: session.setPreferredRate(1 + value / 400)
                case 6: session.report(observedPosition: value)
                case 7: session.load(value < 200 ? song : longFilm, at: value, playing: value < 100)
                case 8: session.clear()
                default: fixture.clock.advance(by: value)
                }
                #expect(session.publicationCount == fixture.recorder.publications.count)
                // The platform is never stale: with an item it shows exactly the session's state; without one
                // it shows nothing (a rate chosen while nothing is loaded waits for the next item).
                if let last = fixture.recorder.publications.last {
                    if session.state.metadata != nil {
                        #expect(last.state == session.state)
                    } else {
                        #expect(last.state.metadata == nil && last.reason == .cleared)
                    }
                }
                #expect(session.state.status == .playing ? session.state.timeline.rate != 0
                                                          : session.state.timeline.rate == 0)
            }
        }
    }
}

@Suite("Now Playing publication")
struct NowPlayingPublicationTests {
    @Test func elapsedTimeIsThePositionWhenPublished() {
        let fixture = SessionFixture()
        fixture.session.load(song, at: 20, playing: true)
        fixture.clock.advance(by: 30)
        var renamed = song
        renamed.title = "Renamed"
        fixture.session.updateMetadata(renamed)   // keeps the timeline's old anchor
        let last = fixture.recorder.publications.last
        #expect(last?.instant == 1_030)
        #expect(last?.elapsedTime == 50)
        #expect(last?.state.timeline.rate == 1)
    }
}
