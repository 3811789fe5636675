import ExternalDisplayMedia
import Testing

/// The video playback core, each behaviour stated as the whole list of effects of each batch.
@Suite("Video playback core")
struct VideoPlaybackTests {
    @Test func requestsBeforeAnythingIsLoadedAreRefusedAndDisplaysAreRemembered() {
        var playback = VideoPlayback()
        #expect(playback.spelled(at: 10, .displayAttached(tv), .play, .seek(to: 5), .moveToExternalDisplay) == [
            "failed: cannot play: no video is loaded; open a file first",
            "failed: cannot seek: no video is loaded; open a file first",
            "failed: cannot move the video to the external display: no video is loaded; open a file first",
        ])
        #expect(playback.spelled(at: 11, .remote(.play)) == ["answer play noActionableItem"])
        #expect(playback.spelled(at: 12, .setRate(1.5), .setVolume(0.5)) == ["volume 0.5"])
        #expect(playback.spelled(at: 100, .load(film, at: 0, playing: true)) == [
            "open film.mp4", "place HDMI-1", "indicate Playing on Living Room TV",
            "timeline #1 film.mp4 0.0@100.0 x1.5 jump", "nowPlaying newItem playing 0.0",
        ])
    }

    @Test func withoutAnExternalDisplayTheFilmPlaysInTheMainWindow() {
        var playback = VideoPlayback()
        #expect(playback.spelled(at: 100, .load(film, at: 30, playing: true)) == [
            "open film.mp4", "place main", "timeline #1 film.mp4 30.0@100.0 x1.0 jump",
            "nowPlaying newItem playing 30.0",
        ])
        #expect(playback.placement == .mainWindow && playback.indicator == .hidden)
    }

    @Test func unplugPausesAndHandsTheFilmBackAtTheSamePositionReplugMovesItOutStillPaused() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 130, .displayDetached(id: "HDMI-1")) == [
            "place main", "indicate nothing", "timeline #2 film.mp4 30.0@130.0 x0.0",
            "nowPlaying rateChange paused 30.0",
        ])
        // Time passes: the film stands still in the main window.
        #expect(playback.position(at: 500) == 30)
        #expect(playback.spelled(at: 140, .displayAttached(tv)) == ["place HDMI-1", "indicate Playing on Living Room TV"])
        #expect(playback.status == .paused)
        // The user continues with a key.
        #expect(playback.spelled(at: 150, .togglePlayPause) == [
            "timeline #3 film.mp4 30.0@150.0 x1.0", "nowPlaying rateChange playing 30.0",
        ])
    }

    @Test func aPausedFilmIsHandedBackWithoutAnyTimelineChange() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .load(film, at: 42, playing: false)], at: 100)
        #expect(playback.spelled(at: 200, .displayDetached(id: "HDMI-1")) == ["place main", "indicate nothing"])
    }

    @Test func anUnplugAndReplugInOneBatchDoNotInterruptTheFilm() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 110, .displayDetached(id: "HDMI-1"), .displayAttached(tv)) == [])
        #expect(playback.status == .playing && playback.placement == .externalDisplay(tv))
    }

    @Test func unplugWithAnotherDisplayAttachedPausesAndMovesToIt() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .displayAttached(projector), .load(film, at: 0, playing: true)],
                            at: 100)
        #expect(playback.spelled(at: 110, .displayDetached(id: "HDMI-1")) == [
            "place DP-2", "indicate Playing on Projector", "timeline #2 film.mp4 10.0@110.0 x0.0",
            "nowPlaying rateChange paused 10.0",
        ])
    }

    @Test func detachingADisplayTheFilmIsNotOnChangesNothingButAnUnknownOneIsReported() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .displayAttached(projector), .load(film, at: 0, playing: true)],
                            at: 100)
        #expect(playback.spelled(at: 110, .displayDetached(id: "DP-2")) == [])
        #expect(playback.spelled(at: 111, .displayDetached(id: "VGA-9")) == [
            "failed: display \"VGA-9\" was detached but never attached; nothing changed",
        ])
    }

    @Test func aNamedDisplayIsTheOnlyOneUsed() {
        var playback = VideoPlayback(configuration: VideoPlaybackConfiguration(display: .named("Projector")))
        #expect(playback.spelled(at: 100, .displayAttached(tv), .load(film, at: 0, playing: false)) == [
            "open film.mp4", "place main", "timeline #1 film.mp4 0.0@100.0 x0.0 jump",
            "nowPlaying newItem paused 0.0",
        ])
        #expect(playback.spelled(at: 101, .displayAttached(projector)) == [
            "place DP-2", "indicate Playing on Projector",
        ])
    }

    @Test func theUserCanKeepTheFilmInTheMainWindowAndSendItOutAgain() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 105, .moveToMainWindow) == ["place main", "indicate nothing"])
        #expect(playback.status == .playing)
        #expect(playback.spelled(at: 106, .moveToExternalDisplay) == [
            "place HDMI-1", "indicate Playing on Living Room TV",
        ])
        _ = playback.handle([.displayDetached(id: "HDMI-1")], at: 107)
        #expect(playback.spelled(at: 108, .moveToExternalDisplay) == [
            "failed: no external display to play on; connect one (or name an attached one) and try again",
        ])
    }

    @Test func anIncidentalClipStaysInTheMainWindowWithoutNowPlayingOrRemoteCommands() {
        var playback = VideoPlayback()
        #expect(playback.spelled(at: 100, .displayAttached(tv), .load(teaser, at: 0, playing: true)) == [
            "open teaser.webm", "place main", "timeline #1 teaser.webm 0.0@100.0 x1.0 jump",
        ])
        #expect(playback.spelled(at: 101, .moveToExternalDisplay, .remote(.pause)) == [
            "failed: this video stays in the main window (external playback policy: incidentalVideo)",
            "answer pause noActionableItem",
        ])
        #expect(playback.spelled(at: 102, .pause) == ["timeline #2 teaser.webm 2.0@102.0 x0.0"])
    }

    @Test func severalRequestsInOneBatchGiveOneTimelineMessageAndOnePublication() {
        var playback = VideoPlayback()
        _ = playback.handle([.load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 110, .seek(to: 60), .setRate(2), .pause, .play, .seekBy(-5)) == [
            "timeline #2 film.mp4 55.0@110.0 x2.0 jump", "nowPlaying seek playing 55.0",
        ])
        // Play then pause at the same instant: no net change, nothing sent.
        #expect(playback.spelled(at: 111, .pause, .play) == [])
    }

    @Test func seeksAreClampedAndNonFiniteOnesRefused() {
        var playback = VideoPlayback()
        _ = playback.handle([.load(film, at: 10, playing: false)], at: 100)
        #expect(playback.spelled(at: 101, .seek(to: -5)) == [
            "timeline #2 film.mp4 0.0@101.0 x0.0 jump", "nowPlaying seek paused 0.0",
        ])
        #expect(playback.spelled(at: 102, .seek(to: 1e12)) == [
            "timeline #3 film.mp4 120.0@102.0 x0.0 jump", "nowPlaying seek paused 120.0",
        ])
        #expect(playback.spelled(at: 103, .seek(to: .nan), .seek(to: .infinity), .seekBy(-.infinity)) == [
            "failed: the position nan is not a number of seconds; give a finite position (it is clamped to the video)",
            "failed: the position inf is not a number of seconds; give a finite position (it is clamped to the video)",
            "failed: the position -inf is not a number of seconds; give a finite position (it is clamped to the video)",
        ])
        #expect(playback.spelled(at: 104, .load(film, at: .nan, playing: true)).count == 1)
        #expect(playback.position(at: 104) == 120)
    }

    @Test func ratesAreValidated() {
        var playback = VideoPlayback()
        _ = playback.handle([.load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 101, .setRate(0), .setRate(-1), .setRate(.nan), .setRate(3)) == [
            "failed: the rate 0.0 is not usable; give a finite rate above 0 (1 is normal speed; pause to stop)",
            "failed: the rate -1.0 is not usable; give a finite rate above 0 (1 is normal speed; pause to stop)",
            "failed: the rate nan is not usable; give a finite rate above 0 (1 is normal speed; pause to stop)",
            "failed: the rate 3.0 is not supported; choose one from 0.5 to 2.0",
        ])
        #expect(playback.spelled(at: 102, .setRate(1.5)) == [
            "timeline #2 film.mp4 2.0@102.0 x1.5", "nowPlaying rateChange playing 2.0",
        ])
        // While paused the new rate is remembered and published, the timeline stands still.
        _ = playback.handle([.pause], at: 104)
        #expect(playback.spelled(at: 105, .setRate(0.5)) == ["nowPlaying rateChange paused 5.0"])
        #expect(playback.spelled(at: 106, .play) == [
            "timeline #4 film.mp4 5.0@106.0 x0.5", "nowPlaying rateChange playing 5.0",
        ])
    }

    @Test func volumeIsClampedAndNonFiniteVolumeRefused() {
        var playback = VideoPlayback()
        #expect(playback.spelled(at: 1, .setVolume(1.7)) == [])
        #expect(playback.spelled(at: 2, .setVolume(-0.2)) == ["volume 0.0"])
        #expect(playback.spelled(at: 3, .setVolume(.nan), .setVolume(0.25)) == [
            "failed: the volume nan is not a number; give one from 0 (silent) to 1 (full)", "volume 0.25",
        ])
    }

    @Test func theEndStopsAtTheLastPositionAndPlayStartsAgainFromTheBeginning() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .load(film, at: 100, playing: true)], at: 100)
        #expect(playback.spelled(at: 120.2, .endOfMedia) == [
            "timeline #2 film.mp4 120.0@120.2 x0.0", "nowPlaying rateChange paused 120.0",
        ])
        #expect(playback.hasReachedEnd && playback.placement == .externalDisplay(tv))
        #expect(playback.spelled(at: 130, .play) == [
            "timeline #3 film.mp4 0.0@130.0 x1.0 jump", "nowPlaying seek playing 0.0",
        ])
    }

    @Test func anUnknownLengthIsLearntFromTheDecoder() {
        var playback = VideoPlayback()
        let untimed = VideoItem(metadata: NowPlayingMetadata(identifier: "clip", title: "Clip", mediaType: .video))
        _ = playback.handle([.load(untimed, at: 0, playing: true)], at: 0)
        #expect(playback.spelled(at: 5, .durationFound(4), .durationFound(.nan)) == [
            "failed: the decoder reported a duration of nan s; the length stays as it was",
            "timeline #2 clip 4.0@5.0 x1.0", "nowPlaying newItem playing 4.0",
        ])
        #expect(playback.item?.metadata.duration == 4)
    }

    @Test func remoteCommandsAreAnsweredAndCarriedOut() {
        var playback = VideoPlayback(configuration: VideoPlaybackConfiguration(
            capabilities: PlaybackCapabilities(hasNextItem: true, supportedRates: 0.5...2)))
        _ = playback.handle([.load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 110, .remote(.togglePlayPause), .remote(.skipForward(15))) == [
            "answer togglePlayPause success", "answer skipForward(15.0) success",
            "timeline #2 film.mp4 25.0@110.0 x0.0 jump", "nowPlaying seek paused 25.0",
        ])
        #expect(playback.spelled(at: 111, .remote(.changeRate(to: 4)), .remote(.changePosition(to: 500)),
                                 .remote(.previousTrack), .remote(.nextTrack)) == [
            "answer changeRate(to: 4.0) noSuchContent", "answer changePosition(to: 500.0) failed",
            "answer previousTrack noSuchContent", "answer nextTrack success", "request nextTrack",
        ])
        #expect(playback.spelled(at: 112, .remote(.changeRate(to: 2))) == [
            "answer changeRate(to: 2.0) success", "timeline #3 film.mp4 25.0@112.0 x2.0",
            "nowPlaying rateChange playing 25.0",
        ])
        #expect(playback.spelled(at: 113, .remote(.stop)) == [
            "answer stop success", "timeline #4 film.mp4 0.0@113.0 x0.0 jump", "nowPlaying seek stopped 0.0",
        ])
    }

    @Test func aLiveStreamCannotBeMoved() {
        var playback = VideoPlayback()
        _ = playback.handle([.load(liveChannel, at: 30, playing: true)], at: 0)
        #expect(playback.position(at: 0) == 0)
        #expect(playback.spelled(at: 1, .seek(to: 10), .remote(.seek(by: 5))) == [
            "failed: \"Live\" is a live stream: its position cannot be moved", "answer seek(by: 5.0) noSuchContent",
        ])
    }

    @Test func aFailingFileIsClosedWithAMessageAndTheAppGoesOn() {
        var playback = VideoPlayback()
        _ = playback.handle([.displayAttached(tv), .load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 101, .mediaFailed("the file ends after 3 s of 120")) == [
            "failed: \"Film\" cannot be played: the file ends after 3 s of 120; the video was closed, check the "
                + "file or choose another",
            "close", "indicate nothing", "timeline #2 - 0.0@0.0 x0.0 jump", "nowPlaying cleared stopped 0.0",
        ])
        #expect(playback.placement == nil && playback.item == nil)
        #expect(playback.spelled(at: 102, .load(film, at: 0, playing: false)) == [
            "open film.mp4", "place HDMI-1", "indicate Playing on Living Room TV",
            "timeline #3 film.mp4 0.0@102.0 x0.0 jump", "nowPlaying newItem paused 0.0",
        ])
    }

    @Test func loadingAnotherItemReplacesTheFirstAndUnloadInTheSameBatchLeavesNothing() {
        var playback = VideoPlayback()
        #expect(playback.spelled(at: 1, .load(film, at: 0, playing: true), .unload) == [])
        _ = playback.handle([.load(film, at: 0, playing: true)], at: 2)
        #expect(playback.spelled(at: 3, .load(teaser, at: 1, playing: true)) == [
            "open teaser.webm", "place main", "timeline #2 teaser.webm 1.0@3.0 x1.0 jump",
            "nowPlaying cleared stopped 0.0",
        ])
    }

    @Test func badHostTimesAreReportedAndTheLastGoodTimeIsUsed() {
        var playback = VideoPlayback()
        _ = playback.handle([.load(film, at: 0, playing: true)], at: 100)
        #expect(playback.spelled(at: 90, .pause) == [
            "failed: the host time 90.0 is before the previous batch's 100.0; pass readings of one monotonic clock "
                + "(the previous time was used)",
            "timeline #2 film.mp4 0.0@100.0 x0.0", "nowPlaying rateChange paused 0.0",
        ])
        #expect(playback.spelled(at: .nan, .play) == [
            "failed: the host time nan is not finite; pass the monotonic clock's reading (the last valid time was used)",
            "timeline #3 film.mp4 0.0@100.0 x1.0", "nowPlaying rateChange playing 0.0",
        ])
    }
}
