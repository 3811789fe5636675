import Foundation
import Testing
@testable import ExternalDisplayPresenter
@testable import PresenterRuntime

/// A host that holds its runtime (as `play`'s players do) and the runtime that holds its hosts do not keep each other
/// alive once the loop has ended.
@Suite("The runtime lets its hosts go")
@MainActor
struct RuntimeReleaseTests {
    /// A host that keeps a strong reference to its runtime, as `LivePlayer` does.
    final class HoldingHost: PresenterHost {
        let runtime: PresenterRuntime
        init(_ runtime: PresenterRuntime) { self.runtime = runtime }
        func start(in runtime: PresenterRuntime) {}
    }

    @Test func aHostHoldingItsRuntimeAndTheRuntimeAreFreedAfterTheRun() async {
        weak var weakHost: HoldingHost?
        weak var weakRuntime: PresenterRuntime?
        do {
            let runtime = PresenterRuntime(controller: PresenterController(deck: PresenterRuntimeTests.deck, startedAt: 0),
                                           clock: ManualClock())
            let host = HoldingHost(runtime)
            runtime.add(host)
            weakHost = host
            weakRuntime = runtime
            let loop = Task { await runtime.run() }
            await runtime.nextPass()
            #expect(runtime.hosts.count == 1)
            runtime.send(.stop)
            await loop.value
            #expect(runtime.hosts.isEmpty, "the hosts are let go once stopped")
        }
        #expect(weakHost == nil, "the host outlived its run")
        #expect(weakRuntime == nil, "the runtime outlived its run")
    }
}
