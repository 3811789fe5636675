import ExternalDisplayMedia
import ExternalDisplayUIKit
import Foundation
import Testing

@Suite("Media translation for MediaPlayer")
struct MediaTranslationTests {
    let episode = NowPlayingMetadata(identifier: "ep1", title: "Episode 1", artist: "Host", album: "Season 2",
                                     artworkURL: URL(fileURLWithPath: "/tmp/cover.png"), duration: 1800)

    @Test("A loaded item writes title, artist, album, artwork, duration, elapsed time, rates and media type")
    func entries() throws {
        let state = NowPlayingState(metadata: episode,
                                    timeline: PlaybackTimeline(elapsed: 42, at: 10, rate: 1, duration: 1800),
                                    status: .playing)
        let entries = try #require(NowPlayingInfo.entries(for: state))
        #expect(entries[.title] == .text("Episode 1"))
        #expect(entries[.artist] == .text("Host"))
        #expect(entries[.albumTitle] == .text("Season 2"))
        #expect(entries[.artwork] == .artworkURL(URL(fileURLWithPath: "/tmp/cover.png")))
        #expect(entries[.playbackDuration] == .number(1800))
        #expect(entries[.elapsedPlaybackTime] == .number(42))
        #expect(entries[.playbackRate] == .number(1))
        #expect(entries[.isLiveStream] == .flag(false))
        #expect(entries[.mediaType] == .mediaType(episode.mediaType))
    }

    @Test("Paused playback publishes rate 0, so the system stops extrapolating")
    func paused() throws {
        let state = NowPlayingState(metadata: episode,
                                    timeline: PlaybackTimeline(elapsed: 42, at: 10, rate: 0, duration: 1800),
                                    status: .paused)
        #expect(try #require(NowPlayingInfo.entries(for: state))[.playbackRate] == .number(0))
    }

    @Test("A live stream has no duration; nothing loaded clears Now Playing")
    func liveAndCleared() throws {
        var live = episode
        live.isLiveStream = true
        let state = NowPlayingState(metadata: live, timeline: .idle, status: .playing)
        let entries = try #require(NowPlayingInfo.entries(for: state))
        #expect(entries[.playbackDuration] == nil)
        #expect(entries[.isLiveStream] == .flag(true))
        #expect(NowPlayingInfo.entries(for: .empty) == nil)
    }

    @Test("Command-center events become remote commands with their values")
    func commands() {
        #expect(RemoteCommandEvents.command(for: .skipForward, interval: 15) == .skipForward(15))
        #expect(RemoteCommandEvents.command(for: .skipBackward, interval: 30) == .skipBackward(30))
        #expect(RemoteCommandEvents.command(for: .changePosition, position: 90) == .changePosition(to: 90))
        #expect(RemoteCommandEvents.command(for: .changeRate, rate: 1.5) == .changeRate(to: 1.5))
        #expect(RemoteCommandEvents.command(for: .togglePlayPause) == .togglePlayPause)
        #expect(RemoteCommandEvents.command(for: .changePosition) == nil)
        #expect(!RemoteCommandEvents.kindsWithPlatformCommand.contains(.seek))
    }

    @Test("Offered rates: the range's ends and normal speed, once each")
    func rates() {
        #expect(RemoteCommandEvents.offeredRates(0.5...2) == [0.5, 1, 2])
        #expect(RemoteCommandEvents.offeredRates(1...1) == [1])
        #expect(RemoteCommandEvents.offeredRates(1.5...3) == [1.5, 3])
    }

    @Test("Video uses the movie-playback audio mode, audio-only the default")
    func audioMode() {
        #expect(PlaybackContentKind.featureVideo.usesMoviePlaybackAudioMode)
        #expect(PlaybackContentKind.incidentalVideo.usesMoviePlaybackAudioMode)
        #expect(!PlaybackContentKind.audioOnly.usesMoviePlaybackAudioMode)
    }
}
