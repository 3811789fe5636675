import ExternalDisplayKit
import ExternalDisplayUIKit
import Testing

/// A mode asked for while the app's window is on the screen: the engine (branch `hardening`) releases the
/// window, sets the mode and compensation, then creates and shows the window again. These tests check that
/// the UIKit translation carries that order out on one screen — and refuses a mode under a window.
@Suite("Mode requests in Apple's order")
struct ModeRequestOrderTests {
    let id: DisplayID = "screen-1"
    let mode720 = DisplayMode(width: 1280, height: 720)
    var layout: DisplayLayout { DisplayLayout(mode: mode720, overscan: 0, compensation: .none) }

    /// What one screen holds as the operations run, refusing what ``WindowOperation/refusal(windowExists:)``
    /// refuses (as the UIKit platform does).
    struct Screen {
        var windowExists = false
        var windowAssociated = false
        var visible = false
        var mode: DisplayMode?
        var refusals: [String] = []
        var log: [WindowOperation] = []

        mutating func run(_ operations: [WindowOperation]) {
            for operation in operations {
                if let refusal = operation.refusal(windowExists: windowExists) {
                    refusals.append("\(operation): \(refusal)")
                    continue
                }
                log.append(operation)
                switch operation {
                case .setScreenMode(let newMode): mode = newMode
                case .createWindowInScene: windowExists = true; windowAssociated = true
                case .createWindow: windowExists = true
                case .assignScreen: windowAssociated = true
                case .setHidden(let hidden): visible = !hidden
                case .releaseWindow: windowExists = false; windowAssociated = false; visible = false
                default: break
                }
            }
        }
    }

    /// The re-attach the engine emits for a mode request on a display that has the app's window.
    func reattach(withClock: Bool) -> [DisplayCommand] {
        (withClock ? [.stopFrameClock(id)] : []) + [
            .hideWindow(id), .destroyWindow(id), .setMode(id, mode720), .setOverscanCompensation(id, .none),
            .createWindow(id, layout), .showWindow(id, .app),
        ] + (withClock ? [.startFrameClock(id, fps: 60, paused: false)] : [])
    }

    func attached(path: LifecyclePath) -> Screen {
        var screen = Screen()
        for command: DisplayCommand in [.createWindow(id, layout), .showWindow(id, .app)] {
            screen.run(WindowOperation.plan(for: command, path: path))
        }
        return screen
    }

    @Test("Release, then mode and compensation, then a new window on the same screen",
          arguments: [LifecyclePath.scenes, .screens], [false, true])
    func destroyThenCreateOnTheSameScreen(path: LifecyclePath, withClock: Bool) throws {
        var screen = attached(path: path)
        screen.log = []
        for command in reattach(withClock: withClock) { screen.run(WindowOperation.plan(for: command, path: path)) }
        #expect(screen.refusals.isEmpty)
        #expect(screen.mode == mode720)
        #expect(screen.windowExists && screen.windowAssociated && screen.visible)
        let log = screen.log
        let release = try #require(log.firstIndex(of: .releaseWindow))
        let setMode = try #require(log.firstIndex(of: .setScreenMode(mode720)))
        let compensation = try #require(log.firstIndex(of: .setOverscanCompensation(.none)))
        let create = try #require(log.firstIndex { $0 == .createWindow || $0 == .createWindowInScene })
        let associate = path == .screens ? try #require(log.firstIndex(of: .assignScreen)) : create
        let show = try #require(log.lastIndex(of: .setHidden(false)))
        #expect(release < setMode && setMode < compensation && compensation < create)
        #expect(create <= associate && associate < show)
        if withClock {
            let stop = try #require(log.firstIndex(of: .stopFrameClock))
            let start = try #require(log.firstIndex(of: .startFrameClock(fps: 60, paused: false)))
            #expect(stop < release && show < start)
        }
    }

    @Test("A mode under the app's window is refused, not carried out", arguments: [LifecyclePath.scenes, .screens])
    func modeUnderAWindowIsRefused(path: LifecyclePath) {
        var screen = attached(path: path)
        screen.run(WindowOperation.plan(for: .setMode(id, mode720), path: path))
        #expect(screen.mode == nil)
        #expect(screen.refusals.count == 1)
        #expect(screen.refusals.first?.contains("before a window is associated") == true)
    }

    @Test("A second window for the display, or window work without one, is refused")
    func otherRefusals() {
        #expect(WindowOperation.createWindowInScene.refusal(windowExists: true) != nil)
        #expect(WindowOperation.createWindow.refusal(windowExists: true) != nil)
        #expect(WindowOperation.setHidden(false).refusal(windowExists: false) != nil)
        #expect(WindowOperation.assignScreen.refusal(windowExists: false) != nil)
        #expect(WindowOperation.setScreenMode(mode720).refusal(windowExists: false) == nil)
        #expect(WindowOperation.createWindowInScene.refusal(windowExists: false) == nil)
        #expect(WindowOperation.setHidden(false).refusal(windowExists: true) == nil)
    }
}
