public import ExternalDisplayMedia

/// The playing mode of the application core (`extdisplay play`): the library's ``VideoPlayback`` as its child —
/// where the film plays, its timeline, what unplugging does — and the keys of ``PlayerKeyTable`` with the quit
/// rule every mode shares (``QuitConfirmation``). Every input source of `play` (the controls window, `--keys`
/// steps headless, MPRIS, the browser remote) goes through ``handle(_:at:)-(KeyPress,_)`` or
/// ``handle(_:at:)-([VideoPlaybackEvent],_)``; players carry out the effects and decide nothing.
///
/// ```swift
/// var core = PlayerCore(configuration: VideoPlaybackConfiguration())
/// let effects = core.handle(KeyPress(.space), at: now)   // play or pause
/// _ = core.handle(KeyPress(.character("q")), at: now)    // "press Q again to quit"
/// core.wantsQuit                                          // false until the second Q
/// ```
public struct PlayerCore: Sendable, Hashable {
    /// The film's playback (the library's core): status, timeline, placement, volume.
    public private(set) var playback: VideoPlayback
    /// The quit rule's state.
    public private(set) var quit = QuitConfirmation()
    /// Whether the run should end (the second Q, Ctrl-Q, the window closed, a remote's Quit).
    public private(set) var wantsQuit = false

    /// A core for a film played as `configuration` says (which display, what unplugging does).
    public init(configuration: VideoPlaybackConfiguration) {
        playback = VideoPlayback(configuration: configuration)
    }

    /// The events a key asks for, or nil when it asks for none (quit keys, keys `play` does not use).
    public static func events(for command: PlayerCommand) -> [VideoPlaybackEvent]? {
        switch command {
        case .togglePlayPause: [.togglePlayPause]
        case .seekBy(let seconds): [.seekBy(seconds)]
        case .seekTo(let position): [.seek(to: position)]
        case .toExternalDisplay: [.moveToExternalDisplay]
        case .toMainWindow: [.moveToMainWindow]
        case .cancel, .quitRequest, .quit: nil
        }
    }

    /// A key pressed at `now` (seconds on the player's clock): what it asks of the film, through the playing
    /// mode's key table. Q arms or quits (``wantsQuit``); any other key disarms.
    public mutating func handle(_ press: KeyPress, at now: Double) -> [VideoPlaybackEffect] {
        guard let command = PlayerKeyTable.command(for: press) else { return [] }
        switch command {
        case .quitRequest:
            if quit.request(at: now) { wantsQuit = true }
            return []
        case .quit:
            wantsQuit = true
            return []
        case .cancel:
            quit.disarm()
            return []
        default:
            quit.disarm()
            return handle(Self.events(for: command) ?? [], at: now)
        }
    }

    /// A batch of events (remotes, outputs, the decoder's end of stream) at `now`, decided by ``VideoPlayback``.
    public mutating func handle(_ events: [VideoPlaybackEvent], at now: Double) -> [VideoPlaybackEffect] {
        guard !events.isEmpty else { return [] }
        return playback.handle(events, at: now)
    }

    /// Whether the console should say "press Q again to quit" at `now`.
    public func isQuitArmed(at now: Double) -> Bool { quit.isArmed(at: now) }

    /// Ends the run now (the window closed, a remote's Quit, a signal).
    public mutating func stop() { wantsQuit = true }
}
