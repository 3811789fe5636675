#if os(Linux)
import ExternalDisplayMPRIS
import ExternalDisplayMedia
import Foundation

/// An MPRIS player served from the test process on a private bus, driven like an app would: a session on a
/// manual clock publishes to it, and every successful command is applied (next/previous move through a
/// three-item queue). Every received command is recorded.
///
/// Commands are applied on the bus thread through `onCommand` (under a lock), so the harness never needs a
/// thread of the Swift concurrency pool — the tests block theirs while they wait for external tools.
final class InProcessPlayer: @unchecked Sendable {
    static let items = ["First", "Second", "Third"].enumerated().map { index, title in
        NowPlayingMetadata(identifier: "item-\(index + 1)", title: title, artist: "Test Artist",
                           album: "Test Album", duration: 300)
    }

    static func capabilities(at index: Int) -> PlaybackCapabilities {
        PlaybackCapabilities(hasNextItem: index < items.count - 1, hasPreviousItem: index > 0,
                             supportedRates: 0.5...2)
    }

    let clock = ManualMediaClock(start: 0)
    private(set) var player: MPRISPlayer!
    private let lock = NSLock()
    private var session: NowPlayingSession!
    private var index = 0
    private var commands: [ReceivedRemoteCommand] = []

    init(name: String, busAddress: String) throws {
        let player = try MPRISPlayer.start(name: name, identity: "In-process test player",
                                           capabilities: Self.capabilities(at: 0), clock: clock,
                                           busAddress: busAddress) { [weak self] in self?.apply($0) }
        lock.lock()
        self.player = player
        session = NowPlayingSession(clock: clock, publisher: player)
        session.load(Self.items[0], playing: true)
        lock.unlock()
    }

    private func apply(_ received: ReceivedRemoteCommand) {
        lock.lock()
        defer { lock.unlock() }
        commands.append(received)
        guard let session, received.decision.status == .success, let action = received.decision.action else { return }
        switch action {
        case .nextTrack, .previousTrack:
            index = min(Self.items.count - 1, max(0, index + (action == .nextTrack ? 1 : -1)))
            player.update(capabilities: Self.capabilities(at: index))
            session.load(Self.items[index], playing: session.state.status == .playing)
        default:
            session.apply(action)
        }
    }

    /// The commands received so far, oldest first.
    var received: [ReceivedRemoteCommand] {
        lock.lock()
        defer { lock.unlock() }
        return commands
    }

    /// Stops the player (returns once the bus thread has ended).
    func stop() {
        player.stop()
    }
}
#endif
