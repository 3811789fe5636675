import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter
@testable import PresenterRuntime

/// Status lines under a crowd of network pages (issue 23 row g): the lines that only say the pages changed come
/// at most once a second; a key's line and a cable display's come at once; the external list is bounded.
@MainActor
struct StatusLineThrottleTests {
    static func display(_ id: String, _ kind: AudienceDisplay.Kind) -> AudienceDisplay {
        let mode = DisplayMode(width: 1280, height: 720)
        return AudienceDisplay(id: DisplayID(id), name: id, mode: mode,
                               layout: DisplayLayout(mode: mode, overscan: 0, compensation: .none), kind: kind)
    }

    @Test("300 pages attaching within a second: one line; a key and a cable display: at once; lines bounded")
    func pagesAreThrottledKeysAndCablesAreNot() {
        let controller = PresenterController(deck: PresenterRuntimeTests.deck, startedAt: 0)
        var printed: [String] = []
        var now = 0.0
        let throttle = StatusLineThrottle(controller: controller, say: { printed.append($0) }, clock: { now })
        throttle.line(controller.statusLine(at: now))
        for page in 1...300 {
            now += 0.001
            controller.apply(.attached(Self.display("browser-\(page)", .network)), at: now)
            throttle.line(controller.statusLine(at: now))
        }
        #expect(printed.count == 1, "300 pages within a second of the first line are held: \(printed.count) lines")
        now += 0.01
        controller.apply(.key(.next), at: now)
        throttle.line(controller.statusLine(at: now))
        #expect(printed.count == 2 && printed.last?.hasPrefix("slide 2 of 3") == true, "a key's line at once: \(printed)")
        #expect(printed.last?.hasSuffix("external: browser-1, browser-2, browser-3 and 297 more") == true, "\(printed)")
        #expect(printed.allSatisfy { $0.count < 200 }, "\(printed.map(\.count))")
        now += 0.01
        controller.apply(.attached(Self.display("DUMMY1", .cable)), at: now)
        throttle.line(controller.statusLine(at: now))
        #expect(printed.count == 3 && printed.last?.hasSuffix("and 298 more") == true, "a cable display's line at once: \(printed)")
    }
}
