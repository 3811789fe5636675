import ExternalDisplayMedia

/// Short spellings of video playback effects, so tests state whole traces by hand.
func spell(_ effect: VideoPlaybackEffect) -> String {
    switch effect {
    case .open(let item): "open \(item.metadata.identifier)"
    case .close: "close"
    case .place(.mainWindow): "place main"
    case .place(.externalDisplay(let display)): "place \(display.id)"
    case .indicate(let indicator): "indicate \(indicator.message ?? "nothing")"
    case .timeline(let m):
        "timeline #\(m.sequence) \(m.item ?? "-") \(m.mediaTime)@\(m.hostTime) x\(m.rate)"
            + (m.discontinuity ? " jump" : "")
    case .volume(let level): "volume \(level)"
    case .nowPlaying(let p): "nowPlaying \(p.reason.rawValue) \(p.state.status.rawValue) \(p.elapsedTime)"
    case .answer(let command, let status): "answer \(command) \(status.rawValue)"
    case .requestItem(let action): "request \(action)"
    case .failed(let error): "failed: \(error.message)"
    }
}

extension VideoPlayback {
    /// Handles one batch at `time` and spells the effects.
    mutating func spelled(at time: Double, _ batch: VideoPlaybackEvent...) -> [String] {
        handle(batch, at: time).map(spell)
    }
}

let tv = VideoDisplay(id: "HDMI-1", name: "Living Room TV")
let projector = VideoDisplay(id: "DP-2", name: "Projector")
/// A two-minute film whose length is known.
let film = VideoItem(metadata: NowPlayingMetadata(identifier: "film.mp4", title: "Film", duration: 120,
                                                  mediaType: .video))
/// A clip inside an article: incidental.
let teaser = VideoItem(metadata: NowPlayingMetadata(identifier: "teaser.webm", title: "Teaser", duration: 10,
                                                    mediaType: .video), content: .incidentalVideo)
let liveChannel = VideoItem(metadata: NowPlayingMetadata(identifier: "live", title: "Live", isLiveStream: true,
                                                         mediaType: .video))

/// Equal, with rates and positions compared to a microsecond (the drift corrector computes them in floating point).
func roughlyEqual(_ a: DriftCorrection, _ b: DriftCorrection) -> Bool {
    switch (a, b) {
    case (.setRate(let x), .setRate(let y)): abs(x - y) < 1e-6
    case (.seek(let x, let r), .seek(let y, let s)): abs(x - y) < 1e-6 && r == s
    default: a == b
    }
}
