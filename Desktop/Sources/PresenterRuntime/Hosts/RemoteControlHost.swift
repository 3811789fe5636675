#if os(Linux)
import ExternalDisplayPresenter
import Foundation

/// The talk as an MPRIS player on the session bus (``PresenterRemote``): media keys, desktop widgets, phone
/// remotes and `playerctl` send remote commands; after each pass the slide and timer are published.
@MainActor
public final class RemoteControlHost: PresenterHost {
    private let remote: PresenterRemote
    private weak var runtime: PresenterRuntime?

    private init(remote: PresenterRemote) { self.remote = remote }

    /// The bus name served.
    public var busName: String { remote.busName }

    /// Starts serving when a session bus is there; nil (with the reason in `onError`) when it cannot.
    public static func start(deckTitle: String, runtime: PresenterRuntime,
                             onError: (String) -> Void) -> RemoteControlHost? {
        guard !(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else { return nil }
        do {
            let remote = try PresenterRemote.start(deckTitle: deckTitle) { [weak runtime] command in
                runtime?.send(.remote(command))
            }
            return RemoteControlHost(remote: remote)
        } catch {
            onError("\(error)")
            return nil
        }
    }

    /// The bus is already served (from ``start(deckTitle:runtime:onError:)``); remembers the runtime.
    public func start(in runtime: PresenterRuntime) { self.runtime = runtime }

    /// Publishes the slide and timer when they changed.
    public func afterPass(at now: Double) {
        guard let controller = runtime?.controller else { return }
        remote.show(state: controller.state, slideTitle: controller.currentSlideTitle)
    }

    /// Stops serving.
    public func stop() { remote.stop() }
}
#endif
