public import ExternalDisplayMedia

extension VideoRemoteRequest {
    /// `requests` (in arrival order) as one batch of events for ``VideoPlayback`` — a command becomes `.remote`, a
    /// volume `setVolume`, so the core decides them like keys — and whether one asked the player to quit. Volumes,
    /// quits and ignored commands are logged as `REMOTE: …` (`MPRIS`, `browser`).
    public static func events(from requests: [VideoRemoteRequest], remote: String,
                              log: (String) -> Void) -> (events: [VideoPlaybackEvent], quit: Bool) {
        var events: [VideoPlaybackEvent] = []
        var quit = false
        for request in requests {
            switch request {
            case .command(let command): events.append(.remote(command))
            case .volume(let level):
                log("\(remote): volume \(level)")
                events.append(.setVolume(level))
            case .quit:
                log("\(remote): quit")
                quit = true
            case .ignored(let command, let status):
                log("\(remote): \(command) ignored (\(status.rawValue))")
            }
        }
        return (events, quit)
    }
}
