import ExtDisplayCore
import ExternalDisplayKit
import Testing
@testable import ExternalDisplayPresenter
@testable import PresenterRuntime

/// The `--share` displays as a platform: one virtual display per target with its size as its one mode, outputs
/// made by the factories, a factory that throws leaving its display out with one warning.
@Suite("Share display platform")
@MainActor
struct ShareDisplayPlatformTests {
    /// An output that records what the platform asks of it.
    final class RecordingOutput: AudienceOutput, ShareOutputLifecycle {
        var presented = 0, shown = 0, closed = 0
        var metrics: (any TextMetrics)? { ApproximateTextMetrics() }
        func present(_ list: DisplayList) { presented += 1 }
        func shareShow() { shown += 1 }
        func shareClose() { closed += 1 }
    }

    struct CameraMissing: Error, CustomStringConvertible {
        var description: String { "no PipeWire here" }
    }

    @Test func aFactoryThatThrowsLeavesItsDisplayOutWithOneWarning() throws {
        var warnings: [String] = []
        let window = RecordingOutput()
        let targets = try ShareTarget.parseAll(["window=640x360", "camera"])
        let platform = ShareDisplayPlatform(targets: targets, warn: { warnings.append($0) }) { target in
            guard target.kind == .window else { throw CameraMissing() }
            return window
        }
        let displays = platform.start { _ in }
        #expect(displays.map(\.id.rawValue) == ["share-window"])
        #expect(displays.first?.connection == .virtual)
        #expect(displays.first?.modes == [DisplayMode(width: 640, height: 360, refreshRate: 30)])
        #expect(displays.first?.name == "share window 640×360")
        #expect(warnings == ["--share camera: no PipeWire here; the talk goes on without the camera 1280×720"])
        #expect(platform.surface(for: DisplayID("share-window")) === window)
        #expect(platform.surface(for: DisplayID("share-camera")) == nil)

        let id = DisplayID("share-window")
        try platform.perform(.setMode(id, DisplayMode(width: 640, height: 360, refreshRate: 30)))
        #expect(throws: DisplayPlatformError.self) {
            try platform.perform(.setMode(id, DisplayMode(width: 1920, height: 1080, refreshRate: 60)))
        }
        try platform.perform(.showWindow(id, .app))
        try platform.perform(.hideWindow(id))  // kept shown: hiding would freeze what the call sees
        #expect(window.shown == 1 && window.closed == 0)
        platform.stop()
        #expect(window.closed == 1)
        #expect(platform.surface(for: id) == nil)
    }

    @Test func aWindowDestroyedIsMadeAgainWhenTheEngineCreatesIt() throws {
        var made = 0
        let platform = ShareDisplayPlatform(targets: [ShareTarget(kind: .window)], warn: { _ in }) { _ in
            made += 1
            return RecordingOutput()
        }
        _ = platform.start { _ in }
        let id = DisplayID("share-window")
        try platform.perform(.createWindow(id, DisplayLayout(frame: Rect(x: 0, y: 0, width: 1280, height: 720),
                                                             safeFrame: Rect(x: 0, y: 0, width: 1280, height: 720))))
        #expect(made == 1)
        try platform.perform(.destroyWindow(id))
        #expect(platform.surface(for: id) == nil)
        try platform.perform(.createWindow(id, DisplayLayout(frame: Rect(x: 0, y: 0, width: 1280, height: 720),
                                                             safeFrame: Rect(x: 0, y: 0, width: 1280, height: 720))))
        #expect(made == 2 && platform.surface(for: id) != nil)
    }
}
