import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Testing

/// The screen decisions a scene-based platform needs: a scene moving to another screen, the device's own
/// screen, and which capture changes count.
@Suite("Screen assignments")
struct PlatformSignalsScreenTests {
    let hdmi = DisplayCatalog.display(named: "hdmi-tv-1080p", id: "scene-1")!
    /// The same scene described by the screen it moved to (another refresh rate and other modes).
    let projector = DisplayCatalog.display(named: "vga-projector-xga", id: "scene-1")!

    @Test func aMoveToAnotherScreenIsALeaveAndArriveInOneBatchUnderTheSameIdentity() throws {
        var assignments = ScreenAssignments<String>()
        assignments.attach("scene-1", on: "screen-A")
        let moved = assignments.move("scene-1", to: "screen-B", describedAs: projector,
                                                 contentSwitch: ExternalContentSwitch())
        let move = try #require(moved)
        #expect(move.leftScreen == "screen-A")
        #expect(move.events.map(\.name) == ["disconnect", "connect"])
        #expect(move.events.map(\.display) == ["scene-1", "scene-1"])
        #expect(assignments.screens["scene-1"] == "screen-B")
        #expect(assignments.display(on: "screen-B") == "scene-1" && assignments.display(on: "screen-A") == nil)
    }

    @Test func noMoveWithoutAScreenChangeOrForAnUnknownDisplay() {
        var assignments = ScreenAssignments<String>()
        assignments.attach("scene-1", on: "screen-A")
        // Orientation and trait updates report the same screen: nothing happens.
        #expect(assignments.move("scene-1", to: "screen-A", describedAs: hdmi, contentSwitch: .init()) == nil)
        #expect(assignments.move("scene-9", to: "screen-B", describedAs: hdmi, contentSwitch: .init()) == nil)
        // A description under another id is refused rather than swapping identities.
        let other = DisplayCatalog.display(named: "hdmi-tv-720p", id: "scene-2")!
        #expect(assignments.move("scene-1", to: "screen-B", describedAs: other, contentSwitch: .init()) == nil)
        #expect(assignments.screens["scene-1"] == "screen-A")
    }

    @Test func whileExternalContentIsOffTheMovedDisplayStaysMirrored() throws {
        var assignments = ScreenAssignments<String>()
        assignments.attach("scene-1", on: "screen-A")
        var contentSwitch = ExternalContentSwitch()
        _ = contentSwitch.set(false, connected: ["scene-1"], mirrored: [])
        let moved = assignments.move("scene-1", to: "screen-B", describedAs: projector,
                                                 contentSwitch: contentSwitch)
        let move = try #require(moved)
        #expect(move.events.map(\.name) == ["disconnect", "connect", "mirror"])
    }

    /// The engine, given the move's batch, moves identity, clock and mode: the old window and clock go, the
    /// new screen gets its own mode, compensation, window and a clock at its refresh rate.
    @Test func theEngineMovesWindowClockAndModeToTheNewScreen() throws {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(hdmi), .contentReady, .renderContinuously("scene-1", true)])
        #expect(engine.windows["scene-1"]?.frameClock?.fps == hdmi.currentMode.refreshRate)
        var assignments = ScreenAssignments<String>()
        assignments.attach("scene-1", on: "screen-A")
        let moved = assignments.move("scene-1", to: "screen-B", describedAs: projector,
                                                 contentSwitch: ExternalContentSwitch())
        let move = try #require(moved)
        let commands = engine.handle(move.events).compactMap { effect -> DisplayCommand? in
            if case .command(let command) = effect { command } else { nil }
        }
        let names = commands.map(\.name)
        let destroy = try #require(names.firstIndex(of: "destroyWindow"))
        let create = try #require(names.firstIndex(of: "createWindow"))
        let stopOld = try #require(names.firstIndex(of: "stopFrameClock"))
        let startNew = try #require(names.firstIndex(of: "startFrameClock"))
        #expect(stopOld < destroy && destroy < create && create < startNew)
        let compensation = try #require(names.firstIndex(of: "setOverscanCompensation"))
        #expect(compensation < create)
        if let setMode = names.firstIndex(of: "setMode") { #expect(setMode < create) }
        let window = try #require(engine.windows["scene-1"])
        #expect(projector.modes.contains(window.mode))
        #expect(window.frameClock?.fps == window.mode.refreshRate)
        #expect(engine.connectionOrder == ["scene-1"])
    }

    @Test func theDeviceScreenIsTheBuiltInOneWhereverItSitsInTheList() {
        typealias Candidate = ScreenCandidate<String>
        let monitor = Candidate(screen: "monitor", isBuiltIn: false, showsApplicationScene: true,
                                showsExternalScene: false)
        let tv = Candidate(screen: "tv", isBuiltIn: false, showsApplicationScene: false, showsExternalScene: true)
        let builtIn = Candidate(screen: "ipad", isBuiltIn: true, showsApplicationScene: false,
                                showsExternalScene: false)
        // Stage Manager: the app's scene is on the monitor, listed first; the built-in screen still wins.
        #expect(ScreenAssignments.deviceScreen(among: [monitor, tv, builtIn]) == "ipad")
        #expect(ScreenAssignments.deviceScreen(among: [builtIn, monitor]) == "ipad")
        // Without a built-in report: the one screen with an app scene and no external scene.
        #expect(ScreenAssignments.deviceScreen(among: [tv, monitor]) == "monitor")
        // Two such screens are ambiguous: no guess.
        let second = Candidate(screen: "second", isBuiltIn: false, showsApplicationScene: true,
                               showsExternalScene: false)
        #expect(ScreenAssignments.deviceScreen(among: [monitor, second]) == nil)
        #expect(ScreenAssignments.deviceScreen(among: [tv]) == nil)
        #expect(ScreenAssignments<String>.deviceScreen(among: []) == nil)
    }

    @Test func onlyTheDeviceScreensCaptureCountsAndOnlyWhenItChanges() {
        var assignments = ScreenAssignments<String>()
        #expect(assignments.capture(true, on: "tv", deviceScreen: "ipad").isEmpty)
        #expect(assignments.capture(true, on: "ipad", deviceScreen: nil).isEmpty)
        #expect(assignments.capture(false, on: "ipad", deviceScreen: "ipad").map(\.name) == ["capture"])
        #expect(assignments.capture(false, on: "ipad", deviceScreen: "ipad").isEmpty)
        #expect(assignments.capture(true, on: "monitor", deviceScreen: "ipad").isEmpty)
        let events = assignments.capture(true, on: "ipad", deviceScreen: "ipad")
        guard case .capture(let captured)? = events.first else {
            Issue.record("expected a capture event, got \(events.map(\.name))")
            return
        }
        #expect(captured && assignments.reportedCapture == true)
    }
}
