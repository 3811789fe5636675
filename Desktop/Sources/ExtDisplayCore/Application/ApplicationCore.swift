import ExternalDisplayKit
public import ExternalDisplayMedia
import Foundation

/// The application core: one reducer for everything `extdisplay` runs, with the presenter's ``PresenterCore``
/// and the playing mode's ``ExtDisplayCore/PlayerCore`` (the library's `VideoPlayback` inside) as its children,
/// scoped as the Composable Architecture's `Scope` does: the mode decides which child an input goes to, and what
/// the child returns comes back as the application's effects.
///
/// - **Presenting** (`extdisplay present`): every input goes to ``presenter``; keys mean what
///   ``ExtDisplayCore/PresenterKeyTable`` says.
/// - **Playing** (`extdisplay play`): keys mean what ``ExtDisplayCore/PlayerKeyTable`` says, playback events
///   (outputs, the end of the film, remotes) go to the film's `VideoPlayback`, and its effects come back as
///   ``PresenterEffect/playback(_:)``. Esc never quits, Q twice within 2 s or Ctrl-Q quits, in both modes.
///
/// ```swift
/// var app = ApplicationCore(playing: VideoPlaybackConfiguration())
/// app.handle(.playback([.load(item, at: 0, playing: true)]), at: 0)   // [.stateChanged, .playback(.place(…)), …]
/// app.handle(.press(KeyPress(.space)), at: 1)                         // pauses the film
/// ```
public struct ApplicationCore: Hashable, Sendable {
    /// What the application is doing.
    public enum Mode: Hashable, Sendable {
        /// Presenting a deck.
        case presenting
        /// Playing a film on the external display.
        case playing
    }

    /// The presenter's core (in the playing mode it holds a talk nobody sees, and gets no input).
    public private(set) var presenter: PresenterCore
    /// The playing mode's core: the film's playback, its keys and the quit rule; nil while presenting.
    public private(set) var player: PlayerCore?

    /// A core presenting: `presenter` gets every input.
    public init(presenting presenter: PresenterCore) {
        self.presenter = presenter
        player = nil
    }

    /// A core playing a film as `configuration` says (which display, what unplugging does).
    public init(playing configuration: VideoPlaybackConfiguration) {
        presenter = PresenterCore(state: PresenterState(slideCount: 1, startedAt: 0))
        player = PlayerCore(configuration: configuration)
    }

    /// The mode the inputs are decided in.
    public var mode: Mode { player == nil ? .presenting : .playing }

    /// Whether the run should end.
    public var wantsQuit: Bool { player?.wantsQuit ?? presenter.state.wantsQuit }

    /// Whether the quit key was pressed once and a second press within the window would quit, at `now`.
    public func isQuitArmed(at now: Double) -> Bool {
        if let player { return player.isQuitArmed(at: now) }
        return presenter.state.quitArmedAt != nil && !presenter.state.wantsQuit
    }

    /// Handles one input at `now` (seconds on the runtime's clock) in the current mode; returns the effects.
    @discardableResult
    public mutating func handle(_ input: PresenterInput, at now: Double) -> [PresenterEffect] {
        guard var player else { return presenter.handle(input, at: now) }
        let before = player
        var effects: [PresenterEffect] = []
        switch input {
        case .press(let press):
            let wasArmed = player.isQuitArmed(at: now)
            effects += player.handle(press, at: now).map(PresenterEffect.playback)
            if !player.wantsQuit, !wasArmed, player.isQuitArmed(at: now) {
                effects.append(.say(QuitConfirmation.prompt))
            }
        case .playback(let events):
            effects += player.handle(events, at: now).map(PresenterEffect.playback)
        case .stop:
            player.stop()
        case .key, .remote, .attached, .layoutChanged, .detached, .pointer, .ink, .zoom, .inkLoaded, .plan, .limits, .startPacing, .deckReloaded, .clip:
            // The presenter's inputs: nothing to decide while a film plays.
            break
        }
        self.player = player
        if player != before { effects.insert(.stateChanged, at: 0) }
        if player.wantsQuit, !before.wantsQuit { effects.append(.quit) }
        return effects
    }

    /// The presenter's core, changed by `body` (a deck read again).
    package mutating func withPresenter<T>(_ body: (inout PresenterCore) -> T) -> T { body(&presenter) }
}
