import ExternalDisplayMedia

/// A publisher that remembers every publication, for counting and inspecting them.
final class RecordingPublisher: NowPlayingPublisher {
    var publications: [NowPlayingPublication] = []
    var reasons: [NowPlayingPublicationReason] { publications.map(\.reason) }
    func publish(_ publication: NowPlayingPublication) { publications.append(publication) }
}

/// A session on a manual clock with a recorder, the usual test fixture.
struct SessionFixture {
    let clock = ManualMediaClock(start: 1_000)
    let recorder = RecordingPublisher()
    let session: NowPlayingSession

    init(driftTolerance: Double = 1) {
        session = NowPlayingSession(clock: clock, publisher: recorder, driftTolerance: driftTolerance)
    }
}

let song = NowPlayingMetadata(identifier: "song-1", title: "Song", artist: "Artist", album: "Album", duration: 300)
let longFilm = NowPlayingMetadata(identifier: "film", title: "Film", duration: 7_200, mediaType: .video)
let radio = NowPlayingMetadata(identifier: "radio", title: "Radio", isLiveStream: true)
