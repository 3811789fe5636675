#if os(Linux)
public import DesktopVideo
public import ExternalDisplayMedia
public import ExternalDisplayPresenter
import Foundation

/// The remotes of the one runtime, in either mode. Presenting: the talk as an MPRIS player on the session bus
/// (``PresenterRemote``): media keys, desktop widgets, phone remotes and `playerctl` send remote commands; after
/// each pass the slide and timer are published. Playing: the film as an MPRIS player (``DesktopVideo/VideoRemote``,
/// `playerctl -p extdisplay_play`) and the browser remote's requests (``requests``), each request handed to the
/// application core as the film's events and decided there like a key; after each pass every remote hears, in one
/// batch, what the core decided.
@MainActor
public final class RemoteControlHost: PresenterHost {
    private enum Served {
        case presenting(PresenterRemote)
        /// The film's MPRIS player, once served (``serveMPRIS(failure:)``).
        case playing(VideoRemote?)
    }

    private var served: Served
    private let title: String
    private let configuration: VideoPlaybackConfiguration?
    private let clock: (any MediaClock)?
    private weak var runtime: PresenterRuntime?
    private let log: (String) -> Void
    /// The film's effects decided since the last pass (playing mode).
    private var decided: [VideoPlaybackEffect] = []
    /// Requests from remotes other than MPRIS (the browser remote of `--serve`), taken on every pass and decided by
    /// the core like MPRIS's (playing mode).
    public let requests = VideoRemoteInbox()
    /// Called after every batch the core decided for the film, with its effects and the core's volume after it:
    /// what other remotes show (the browser remote's answers and volume).
    public var onDecided: ((_ effects: [VideoPlaybackEffect], _ volume: Double) -> Void)?
    /// What an MPRIS `Quit` does (default: the runtime stops, as after Ctrl-Q).
    public var onQuit: (() -> Void)?

    private init(_ served: Served, title: String = "", configuration: VideoPlaybackConfiguration? = nil,
                 clock: (any MediaClock)? = nil, log: @escaping (String) -> Void) {
        self.served = served
        self.title = title
        self.configuration = configuration
        self.clock = clock
        self.log = log
    }

    /// The MPRIS bus name served, if any.
    public var busName: String? {
        switch served {
        case .presenting(let remote): remote.busName
        case .playing(let remote): remote?.busName
        }
    }

    /// Starts serving the talk when a session bus is there; nil (with the reason in `onError`) when it cannot.
    public static func start(deckTitle: String, runtime: PresenterRuntime,
                             onError: (String) -> Void) -> RemoteControlHost? {
        guard !(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else { return nil }
        do {
            let remote = try PresenterRemote.start(deckTitle: deckTitle) { [weak runtime] command in
                runtime?.send(.remote(command))
            }
            return RemoteControlHost(.presenting(remote), log: { _ in })
        } catch {
            onError("\(error)")
            return nil
        }
    }

    /// The film's remotes: the browser remote's ``requests`` from now on, MPRIS once ``serveMPRIS(failure:)`` is
    /// called. Positions are read from `clock`, the runtime's.
    public static func playing(title: String, configuration: VideoPlaybackConfiguration, clock: any MediaClock,
                               log: @escaping (String) -> Void) -> RemoteControlHost {
        RemoteControlHost(.playing(nil), title: title, configuration: configuration, clock: clock, log: log)
    }

    /// Serves the film as an MPRIS player when a session bus answers; says the bus name served, or why there is
    /// none in a line beginning with `failure` (nothing in the presenting mode, which serves from the start).
    /// Returns whether the film is served.
    @discardableResult
    public func serveMPRIS(failure: String = "note: no MPRIS remote control") -> Bool {
        guard case .playing(.none) = served, let configuration, let clock else { return false }
        do { served = .playing(try VideoRemote.start(title: title, configuration: configuration, clock: clock, log: log)) } catch {
            log("\(failure): \(error.description)")
            return false
        }
        if let runtime, case .playing(let remote?) = served { remote.wakes(runtime.waker) }
        return true
    }

    /// Remembers the runtime; the film's remotes wake its loop when a request arrives.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        guard case .playing(let remote) = served else { return }
        let wake = runtime.waker
        remote?.wakes(wake)
        requests.wakes(wake)
    }

    /// The film's remotes' requests since the last pass, to the core (MPRIS's first, then the browser's).
    public func pump() {
        guard case .playing(let remote) = served, let runtime else { return }
        if let taken = remote?.take() {
            if !taken.events.isEmpty { runtime.send(.playback(taken.events)) }
            if taken.quit { (onQuit ?? { [weak runtime] in runtime?.send(.stop) })() }
        }
        let browser = VideoRemoteRequest.events(from: requests.take(), remote: "browser", log: log)
        if !browser.events.isEmpty { runtime.send(.playback(browser.events)) }
    }

    /// Keeps what the core decided for the film, for the remotes after the pass.
    public func perform(_ effect: PresenterEffect) {
        guard case .playing = served, case .playback(let effect) = effect else { return }
        decided.append(effect)
    }

    /// Publishes the slide and timer when they changed; or tells the film's remotes what was decided.
    public func afterPass(at now: Double) {
        guard let controller = runtime?.controller else { return }
        switch served {
        case .presenting(let remote):
            remote.show(state: controller.state, slideTitle: controller.currentSlideTitle)
        case .playing(let remote):
            guard !decided.isEmpty else { return }
            let batch = decided
            decided = []
            let volume = controller.player?.playback.volume ?? 1
            remote?.reflect(batch, volume: volume)
            onDecided?(batch, volume)
        }
    }

    /// Tells the remotes what is left, then stops serving (the bus name is released).
    public func stop() {
        afterPass(at: runtime?.now ?? 0)
        switch served {
        case .presenting(let remote): remote.stop()
        case .playing(let remote): remote?.stop()
        }
    }
}
#endif
