import ExternalDisplayMedia
import Foundation
import Testing

/// Remote commands arriving on threads nobody promised: answered at once from the published state, carried
/// out on the main actor, in arrival order, each exactly once.
@MainActor
@Suite("Remote commands from any thread")
struct RemoteCommandInboxTests {
    /// Collects what the inbox delivers. Its closure is `@MainActor`: the compiler refuses any delivery that
    /// is not a hop to the main actor (on Linux the main actor's executor need not be the main thread, so
    /// `Thread.isMainThread` is no oracle here).
    @MainActor final class Sink {
        var delivered: [RemoteCommand] = []
        var deliveries = 0
    }

    /// Statuses gathered from several threads.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var statuses: [RemoteCommandStatus] = []
        func add(_ part: [RemoteCommandStatus]) { lock.lock(); statuses += part; lock.unlock() }
        var all: [RemoteCommandStatus] { lock.lock(); defer { lock.unlock() }; return statuses }
    }

    private func playingState() -> NowPlayingState {
        NowPlayingState(metadata: NowPlayingMetadata(identifier: "ep1", title: "Episode 1", duration: 600),
                        timeline: PlaybackTimeline(elapsed: 10, at: 0, rate: 1, duration: 600), status: .playing)
    }

    private func makeInbox(_ sink: Sink, clock: ManualMediaClock = ManualMediaClock()) -> RemoteCommandInbox {
        RemoteCommandInbox(clock: clock) { commands in
            sink.deliveries += 1
            sink.delivered += commands
        }
    }

    /// Polls (never sleeps a fixed time) until `condition` holds or a generous guard runs out.
    private func waitUntil(_ condition: @MainActor () -> Bool) async {
        for _ in 0..<20_000 where !condition() { await Task.yield() }
    }

    @Test func commandsFromManyThreadsAllArriveOnTheMainActorExactlyOnce() async {
        let sink = Sink()
        let inbox = makeInbox(sink)
        inbox.publish(router: RemoteCommandRouter(capabilities: PlaybackCapabilities(hasNextItem: true)),
                      state: playingState())
        let threads = 8, perThread = 50
        // Real threads (Dispatch's worker pool), as MediaPlayer might use, not tasks on the main actor.
        let statuses = await Task.detached { () -> [RemoteCommandStatus] in
            let collected = Collected()
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                collected.add((0..<perThread).map { i in
                    inbox.receive(.changePosition(to: Double(t * 1000 + i) / 1000))
                })
            }
            return collected.all
        }.value
        #expect(statuses.count == threads * perThread && statuses.allSatisfy { $0 == .success })
        await waitUntil { sink.delivered.count == threads * perThread }
        #expect(sink.delivered.count == threads * perThread)
        #expect(Set(sink.delivered).count == threads * perThread) // none twice, none lost
        #expect(inbox.pendingCount == 0)
    }

    @Test func theSenderIsAnsweredFromThePublishedState() async {
        let sink = Sink()
        let inbox = makeInbox(sink)
        // Nothing published yet: nothing to act on.
        #expect(inbox.receive(.play) == .noActionableItem)
        inbox.publish(router: RemoteCommandRouter(), state: playingState())
        #expect(inbox.receive(.play) == .success)
        #expect(inbox.receive(.nextTrack) == .noSuchContent)          // no next item
        #expect(inbox.receive(.changePosition(to: 9_999)) == .failed) // past the end
        #expect(inbox.receive(.changePosition(to: .nan)) == .failed)
        await waitUntil { sink.delivered.count == 5 }
        // Every command is still handed over: the app's state decides what it does when carried out.
        #expect(sink.delivered.count == 5)
        #expect(sink.delivered.first == .play)
    }

    @Test func commandsFromOneThreadKeepTheirOrder() async {
        let sink = Sink()
        let inbox = makeInbox(sink)
        inbox.publish(router: RemoteCommandRouter(), state: playingState())
        let sent: [RemoteCommand] = [.pause, .play, .togglePlayPause, .togglePlayPause, .stop]
        await Task.detached { for command in sent { inbox.receive(command) } }.value
        await waitUntil { sink.delivered.count == sent.count }
        #expect(sink.delivered == sent)
    }

    @Test func receivingOnTheMainActorNeverRunsTheAppsCodeInline() async {
        let sink = Sink()
        let inbox = makeInbox(sink)
        inbox.publish(router: RemoteCommandRouter(), state: playingState())
        inbox.receive(.pause)
        // Delivery is a hop, not a call from inside the handler.
        #expect(sink.delivered.isEmpty && inbox.pendingCount == 1)
        await waitUntil { !sink.delivered.isEmpty }
        #expect(sink.delivered == [.pause])
    }
}
