import Foundation

/// Where remote commands arrive from any thread and leave on the main actor: the thread-safe half of a
/// platform binding whose system calls its handlers on a thread it does not promise (`MPRemoteCommandCenter`).
///
/// A handler calls ``receive(_:)``, which answers at once — from the router and Now Playing state the app
/// last ``publish(router:state:)``ed, which is what the lock screen or remote showed when the user acted —
/// and queues the command. The queue is then handed, in arrival order and each command exactly once, to the
/// `deliver` closure on the main actor, through an explicit hop (never by assuming the caller is already
/// there). The app's own state decides what the command does when it is carried out, so two quick toggles
/// from another thread still pause and play again.
///
/// ```swift
/// let inbox = RemoteCommandInbox(clock: session.clock) { commands in
///     for command in commands { binding.carryOut(command) }   // on the main actor
/// }
/// inbox.publish(router: router, state: session.state)
/// let status = inbox.receive(.togglePlayPause)                // from any thread
/// ```
public final class RemoteCommandInbox: @unchecked Sendable {
    // Every stored property below is guarded by `lock`; `deliver` is immutable and Sendable.
    private let lock = NSLock()
    private var router = RemoteCommandRouter(capabilities: PlaybackCapabilities(receivesRemoteCommands: false))
    private var state = NowPlayingState.empty
    private let clock: any MediaClock
    private var queue: [RemoteCommand] = []
    private var hopScheduled = false
    private let deliver: @MainActor @Sendable ([RemoteCommand]) -> Void

    /// Creates an inbox that reads positions from `clock` (the session's) and hands queued commands to
    /// `deliver` on the main actor. Until the first ``publish(router:state:)`` every command answers
    /// ``RemoteCommandStatus/noActionableItem``.
    public init(clock: any MediaClock, deliver: @escaping @MainActor @Sendable ([RemoteCommand]) -> Void) {
        self.clock = clock
        self.deliver = deliver
    }

    /// Records what senders are answered from: the router and the Now Playing state as published. Call after
    /// every change; any thread.
    public func publish(router: RemoteCommandRouter, state: NowPlayingState) {
        lock.lock()
        defer { lock.unlock() }
        self.router = router
        self.state = state
    }

    /// Answers `command` from the published state and queues it for the main actor. Safe from any thread,
    /// including the main thread; never blocks on the main actor.
    ///
    /// - Returns: the router's status for the command against the published state (the sender's answer).
    @discardableResult
    public func receive(_ command: RemoteCommand) -> RemoteCommandStatus {
        lock.lock()
        let status = router.decide(command, for: state, at: clock.now()).status
        queue.append(command)
        let scheduleHop = !hopScheduled
        hopScheduled = true
        lock.unlock()
        if scheduleHop {
            Task { @MainActor [self] in deliver(takeQueued()) }
        }
        return status
    }

    /// Commands received and not yet delivered (for tests and diagnostics).
    public var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return queue.count
    }

    private func takeQueued() -> [RemoteCommand] {
        lock.lock()
        defer { lock.unlock() }
        let taken = queue
        queue = []
        hopScheduled = false
        return taken
    }
}
