#if canImport(CGStreamer) && canImport(CSDL2)
import ExtDisplayCore
public import ExternalDisplayMedia
public import Foundation

/// `extdisplay play FILE --serve PORT` with browser pages as the only external displays, like AirPlay Video to an
/// Apple TV: the player keeps the timeline and the pages play the file themselves; nothing is decoded here (the
/// file is opened once, to check it is a video and read its length, and closed).
///
/// ``VideoPlayback`` decides as always: the pages are one external display, ``display`` ("browser pages"), attached
/// for the whole run, so the core places the film there and its indicator says so. Keys do not exist here; MPRIS
/// (`playerctl -p extdisplay_play`, when there is a session bus) and the browser remote (``requests``) control it,
/// each request a `.remote` event (or `setVolume`) the core decides. The console is standard output: a
/// ``ServedStatusLine`` after every request and change, and once a second while playing; on a desktop
/// (``showsWindow``) also a controls window whose keys the playing mode's key table decides (Space, Left/Right,
/// Esc never quits, Q twice or Ctrl-Q quits; ``ExtDisplayCore/PlayerKeyTable``).
///
/// ```swift
/// let player = ServedPlayer(file: film) { print($0) }
/// player.onTimeline = { server.publish($0) }
/// player.pageCount = { server.pageCount }
/// let problems = try await player.run()        // until an MPRIS Quit
/// ```
@MainActor
public final class ServedPlayer {
    /// The one display the core sees: every browser page.
    nonisolated public static let display = VideoDisplay(id: "browser", name: "browser pages")

    /// Requests from the browser remote, taken every 10 ms and decided by the core like MPRIS's.
    public let requests = VideoRemoteInbox()
    /// Called with every timeline message the core sends: what the pages follow.
    public var onTimeline: ((TimelineMessage) -> Void)?
    /// Called after every batch the core decided, with its effects and the core's volume after it.
    public var onDecided: ((_ effects: [VideoPlaybackEffect], _ volume: Double) -> Void)?
    /// How many pages are connected now (shown on the console).
    public var pageCount: () -> Int = { 0 }
    /// How often the status line is printed while playing, in seconds.
    public var statusInterval = 1.0
    /// Whether to show the controls window (on a desktop: `DISPLAY` set) besides the status lines.
    public var showsWindow = false

    private let file: URL
    /// The playing mode of the application core: the film's ``VideoPlayback``, the keys, the quit rule.
    private var core = PlayerCore(configuration: VideoPlaybackConfiguration(display: .named(ServedPlayer.display.id)))
    private var playback: VideoPlayback { core.playback }
    private let clock = MonotonicMediaClock()
    private let log: (String) -> Void
    private var problems: [String] = []
    private var quits = false
    private var info: VideoStreamInfo?
    /// A batch was decided since the status line was last printed (a seek moves only the position).
    private var decided = false
    private var window: ServedConsoleWindow?
    #if os(Linux)
    private var remote: VideoRemote?
    #endif

    /// A served-only player of `file`, reporting through `log`.
    public init(file: URL, log: @escaping (String) -> Void) {
        self.file = file
        self.log = log
    }

    /// Opens the file once to check it is a video and read its length (the decoder is closed again); throws a
    /// message when it cannot be played. ``run()`` does it when it was not done before.
    public func open() throws(PlayerError) {
        guard info == nil else { return }
        do { info = try VideoDecoder(opening: file).info } catch { throw PlayerError(error.description) }
    }

    /// Plays until an MPRIS `Quit`, Q twice or Ctrl-Q in the window (or the process is stopped); returns the problems met
    /// on the way. Throws when the file cannot be opened as a video or the window cannot be opened.
    public func run() async throws(PlayerError) -> [String] {
        try open()
        guard let info else { return problems }
        let title = file.deletingPathExtension().lastPathComponent
        log("\(file.lastPathComponent): \(info.width)×\(info.height), "
            + (info.duration.map { String(format: "%.3f s", $0) } ?? "length unknown")
            + "; served only: browser pages are the displays, nothing is decoded here")
        #if os(Linux)
        do { remote = try VideoRemote.start(title: title, configuration: playback.configuration, clock: clock, log: log) } catch {
            log("note: no MPRIS remote control: \(error.description)")
        }
        defer { remote?.stop() }
        #endif
        let item = VideoItem(metadata: NowPlayingMetadata(identifier: file.path, title: title, duration: info.duration,
                                                          mediaType: .video))
        if showsWindow { window = try ServedConsoleWindow(title: title) }
        defer { window?.close() }
        apply([.displayAttached(Self.display), .load(item, at: 0, playing: true)])
        var printed: ServedStatusLine?
        var printedAt = -Double.infinity
        while !quits && !core.wantsQuit {
            takeRequests()
            let now = clock.now()
            if playback.status == .playing, let duration = playback.timeline.duration, playback.position(at: now) >= duration {
                apply([.endOfMedia])
            }
            let line = ServedStatusLine(playback: playback, now: now, pages: pageCount())
            window?.show(playback, at: now, pages: line.pages, changed: decided)
            if decided || printed.map(line.differs) ?? true || (playback.status == .playing && now - printedAt >= statusInterval) {
                log(line.text)
                printed = line
                printedAt = now
                decided = false
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return problems
    }

    private func takeRequests() {
        #if os(Linux)
        if let taken = remote?.take() {
            if !taken.events.isEmpty { apply(taken.events) }
            if taken.quit { quits = true }
        }
        #endif
        let browser = VideoRemoteRequest.events(from: requests.take(), remote: "browser", log: log)
        if !browser.events.isEmpty { apply(browser.events) }
        if let keys = window?.take() {
            for press in keys.presses {
                let now = clock.now()
                let wasArmed = core.isQuitArmed(at: now)
                decide(core.handle(press, at: now))
                if !core.wantsQuit, !wasArmed, core.isQuitArmed(at: now) { log("press Q again to quit") }
            }
            if keys.closed { quits = true }
        }
    }

    /// Hands a batch to the core now and passes on what followers and remotes need.
    private func apply(_ events: [VideoPlaybackEvent]) {
        decide(core.handle(events, at: clock.now()))
    }

    /// Passes on what the core decided to followers and remotes.
    private func decide(_ effects: [VideoPlaybackEffect]) {
        decided = true
        #if os(Linux)
        remote?.reflect(effects, volume: playback.volume)
        #endif
        onDecided?(effects, playback.volume)
        for effect in effects {
            switch effect {
            case .timeline(let message): onTimeline?(message)
            case .indicate(let indicator): log(indicator.message ?? "playing in the main window")
            case .failed(let error):
                problems.append(error.message)
                log("problem: \(error.message)")
            default: break
            }
        }
    }
}
#endif
