#if canImport(CGStreamer) && canImport(CSDL2)
public import DesktopVideo
import ExtDisplayCore
public import ExternalDisplayMedia
public import ExternalDisplayPresenter
public import Foundation

/// `extdisplay play FILE --serve PORT` with browser pages as the only external displays, like AirPlay Video to an
/// Apple TV: the player keeps the timeline and the pages play the file themselves; nothing is decoded here (the
/// file is opened once, to check it is a video and read its length, and closed).
///
/// It is the playing mode of the one runtime, as ``LivePlayer`` is: a ``PresenterRuntime`` over a store in the
/// playing mode, with this player as its host beside ``remotes`` and the ``SignalHost``. ``VideoPlayback`` decides as always: the
/// pages are one external display, ``display`` ("browser pages"), attached for the whole run, so the core places
/// the film there and its indicator says so. MPRIS (`playerctl -p extdisplay_play`, when there is a session bus)
/// and the browser remote control it through ``remotes`` (a ``RemoteControlHost``), each request a `.remote` event (or `setVolume`) the core
/// decides, and wake the loop when they arrive. The console is standard output: a ``ServedStatusLine`` after
/// every request and change, and once a second while playing (the host's deadline); on a desktop
/// (``showsWindow``) also a controls window whose keys go to the runtime like `present`'s and mean what the
/// playing mode's key table says (Space, Left/Right, Esc never quits, Q twice or Ctrl-Q quits).
///
/// ```swift
/// let player = ServedPlayer(file: film) { print($0) }
/// player.add(pages)                            // a BrowserVideoHost: the pages follow the core's timeline
/// player.pageCount = { pages.pageCount }
/// let problems = try await player.run()        // until an MPRIS Quit
/// ```
@MainActor
public final class ServedPlayer: PresenterHost {
    /// The one display the core sees: every browser page.
    nonisolated public static let display = VideoDisplay(id: "browser", name: "browser pages")

    /// How many pages are connected now (shown on the console).
    public var pageCount: () -> Int = { 0 }
    /// How often the status line is printed while playing, in seconds.
    public var statusInterval = 1.0
    /// Whether to show the controls window (on a desktop: `DISPLAY` set) besides the status lines.
    public var showsWindow = false

    private let file: URL
    private let runtime: PresenterRuntime
    private let configuration = VideoPlaybackConfiguration(display: .named(ServedPlayer.display.id))
    /// The film's playback, as the application core decided it.
    private var playback: VideoPlayback {
        runtime.controller.player?.playback ?? VideoPlayback(configuration: configuration)
    }
    private let clock: RuntimeMediaClock
    private let log: (String) -> Void
    private var problems: [String] = []
    private var info: VideoStreamInfo?
    /// A batch was decided since the status line was last printed (a seek moves only the position).
    private var decided = false
    private var printed: ServedStatusLine?
    private var printedAt = -Double.infinity
    private var window: ServedConsoleWindow?
    /// The film's remotes, a host of the runtime beside this one: MPRIS (`playerctl -p extdisplay_play`) when
    /// there is a session bus, and the browser remote (its ``RemoteControlHost/requests``).
    public let remotes: RemoteControlHost

    /// A served-only player of `file`, reporting through `log`.
    public init(file: URL, log: @escaping (String) -> Void) {
        self.file = file
        self.log = log
        runtime = PresenterRuntime(controller: PresenterController(playing: configuration,
                                                                   title: file.deletingPathExtension().lastPathComponent),
                                   clock: ContinuousClock())
        clock = RuntimeMediaClock(runtime.timeSource)
        remotes = .playing(title: file.deletingPathExtension().lastPathComponent, configuration: configuration,
                           clock: clock, log: log)
        runtime.onSay = log
    }

    /// The runtime's clock, for what follows the film from elsewhere (the browser server's timeline).
    public nonisolated var timeSource: @Sendable () -> Double { clock.now }

    /// Opens the file once to check it is a video and read its length (the decoder is closed again); throws a
    /// message when it cannot be played. ``run()`` does it when it was not done before.
    public func open() throws(PlayerError) {
        guard info == nil else { return }
        do { info = try VideoDecoder(opening: file).info } catch { throw PlayerError(error.description) }
    }

    /// Adds a host to the runtime the film plays on (browser pages, ``BrowserVideoHost``); before ``run()``.
    public func add(_ host: any PresenterHost) { runtime.add(host) }

    /// Plays until an MPRIS `Quit`, Q twice or Ctrl-Q in the window, or a signal; returns the problems met on the
    /// way. Throws when the file cannot be opened as a video or the window cannot be opened.
    public func run() async throws(PlayerError) -> [String] {
        SignalHost.captureEarly()
        try open()
        guard let info else { return problems }
        let title = file.deletingPathExtension().lastPathComponent
        log("\(file.lastPathComponent): \(info.width)×\(info.height), "
            + (info.duration.map { String(format: "%.3f s", $0) } ?? "length unknown")
            + "; served only: browser pages are the displays, nothing is decoded here")
        remotes.serveMPRIS()
        if showsWindow { window = try ServedConsoleWindow(title: title) }
        runtime.add(self)
        runtime.add(remotes)
        runtime.add(SignalHost())
        await runtime.run()
        return problems
    }

    /// Loads the film on the pages and wakes the loop on remotes and keys.
    public func start(in runtime: PresenterRuntime) {
        let title = file.deletingPathExtension().lastPathComponent
        let item = VideoItem(metadata: NowPlayingMetadata(identifier: file.path, title: title, duration: info?.duration,
                                                          mediaType: .video))
        runtime.send(.playback([.displayAttached(Self.display), .load(item, at: 0, playing: true)]))
        window?.watch { [weak self] in self?.pump() }
    }

    /// The window's keys, to the core.
    public func pump() {
        if let keys = window?.take() {
            for press in keys.presses { runtime.send(.press(press)) }
            if keys.closed { runtime.send(.stop) }
        }
    }

    /// The end of the film, the window and the status line (after a change, else once per ``statusInterval``).
    public func drawConsole(at now: Double, clock: String) {
        if playback.status == .playing, let duration = playback.timeline.duration, playback.position(at: now) >= duration {
            runtime.send(.playback([.endOfMedia]))
        }
        let line = ServedStatusLine(playback: playback, now: now, pages: pageCount())
        window?.show(playback, at: now, pages: line.pages, changed: decided)
        if decided || printed.map(line.differs) ?? true || (playback.status == .playing && now - printedAt >= statusInterval) {
            log(line.text)
            printed = line
            printedAt = now
            decided = false
        }
    }

    /// While playing: the next status line, the window's next tenth of a second, the film's end; the page count
    /// is read at each of them (pages connecting change no state of the core).
    public func nextDeadline(after now: Double) -> Double? {
        var next = now + 0.25
        if playback.status == .playing {
            next = min(next, printedAt + statusInterval)
            if window != nil { next = min(next, now + 0.1) }
            if let duration = playback.timeline.duration, playback.timeline.rate > 0 {
                let end = now + (duration - playback.position(at: now)) / playback.timeline.rate
                if end.isFinite { next = min(next, max(now, end)) }
            }
        }
        return next
    }

    /// What the application core decided for the film.
    public func perform(_ effect: PresenterEffect) {
        guard case .playback(let effect) = effect else { return }
        decided = true
        switch effect {
        case .indicate(let indicator): log(indicator.message ?? "playing in the main window")
        case .failed(let error):
            problems.append(error.message)
            log("problem: \(error.message)")
        default: break
        }
    }

    /// The film is over: the window closed.
    public func stop() {
        window?.close()
    }
}
#endif
