import ExternalDisplayKit
import ExternalDisplayUIKit
import Testing

@Suite("Engine commands to UIKit calls")
struct WindowOperationTests {
    let tv = Display(id: "screen-1", name: "TV",
                     modes: [DisplayMode(width: 1280, height: 720), DisplayMode(width: 1920, height: 1080)],
                     preferredMode: DisplayMode(width: 1280, height: 720),
                     currentMode: DisplayMode(width: 1920, height: 1080), overscan: 0.025)

    func operations(_ batch: [DisplayEvent], configuration: DisplayConfiguration = DisplayConfiguration(),
                    path: LifecyclePath) -> [WindowOperation] {
        var engine = DisplayEngine(configuration: configuration)
        return engine.handle(batch).flatMap { effect -> [WindowOperation] in
            if case .command(let command) = effect { WindowOperation.plan(for: command, path: path) } else { [] }
        }
    }

    @Test("Scenes: the mode and compensation are set before the window exists, then it is shown unhidden",
          arguments: [LifecyclePath.scenes, .screens])
    func attachOrder(path: LifecyclePath) throws {
        let ops = operations([.launch, .connect(tv)],
                             configuration: DisplayConfiguration(overscanCompensation: .none), path: path)
        let mode = try #require(ops.firstIndex(of: .setScreenMode(DisplayMode(width: 1280, height: 720))))
        let compensation = try #require(ops.firstIndex(of: .setOverscanCompensation(.none)))
        let create = try #require(ops.firstIndex { $0 == .createWindowInScene || $0 == .createWindow })
        let show = try #require(ops.firstIndex(of: .setHidden(false)))
        #expect(mode < create && compensation < create && create < show)
        if path == .screens {
            let assign = try #require(ops.firstIndex(of: .assignScreen))
            #expect(mode < assign && compensation < assign && assign < show)
            #expect(!ops.contains(.createWindowInScene))
        } else {
            #expect(!ops.contains(.assignScreen) && !ops.contains(.createWindow))
        }
        #expect(ops.contains(.setSafeAreaInsets(top: 18, left: 32, bottom: 18, right: 32)))
    }

    @Test("The created window starts hidden; content is installed before it is unhidden")
    func createHiddenThenShow() {
        let create = WindowOperation.plan(for: .createWindow("a", DisplayLayout(mode: tv.currentMode, overscan: 0,
                                                                               compensation: .scale)),
                                          path: .scenes)
        #expect(create.last == .setHidden(true))
        #expect(WindowOperation.plan(for: .showWindow("a", .placeholder), path: .scenes)
                == [.setRootContent(.placeholder), .setHidden(false)])
    }

    @Test("Disconnect: frame clock stopped, window hidden, content removed, window released")
    func teardown() throws {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(tv)])
        let ops = engine.handle([.disconnect(tv.id)]).flatMap { effect -> [WindowOperation] in
            if case .command(let c) = effect { WindowOperation.plan(for: c, path: .scenes) } else { [] }
        }
        let release = try #require(ops.firstIndex(of: .releaseWindow))
        let hide = try #require(ops.firstIndex(of: .setHidden(true)))
        #expect(hide < release)
        if let stop = ops.firstIndex(of: .stopFrameClock) { #expect(stop < release) }
    }

    @Test("Background hides the window; foreground shows it with setHidden(false) again")
    func lifecycle() {
        var engine = DisplayEngine()
        _ = engine.handle([.launch, .connect(tv)])
        let plan = { (batch: [DisplayEvent]) in
            engine.handle(batch).flatMap { effect -> [WindowOperation] in
                if case .command(let c) = effect { WindowOperation.plan(for: c, path: .scenes) } else { [] }
            }
        }
        #expect(plan([PlatformSignals.event(for: .didEnterBackground)!]).contains(.setHidden(true)))
        #expect(plan([PlatformSignals.event(for: .willEnterForeground)!]).contains(.setHidden(false)))
    }

    @Test("Every command maps to at least one call, and none of them makes a window key")
    func everyCommand() {
        let layout = DisplayLayout(mode: tv.currentMode, overscan: 0, compensation: .scale)
        let commands: [DisplayCommand] = [
            .setMode("a", tv.currentMode), .setOverscanCompensation("a", .insetBounds),
            .createWindow("a", layout), .layoutWindow("a", layout), .showWindow("a", .app),
            .setContent("a", .app), .hideWindow("a"), .destroyWindow("a"),
            .startFrameClock("a", fps: 60, paused: true), .pauseFrameClock("a"), .resumeFrameClock("a"),
            .stopFrameClock("a"), .startRefresh(fps: 30), .stopRefresh, .setRenderScale("a", 0.5),
            .setFrameRate("a", 30),
        ]
        for command in commands {
            for path in [LifecyclePath.scenes, .screens] {
                #expect(!WindowOperation.plan(for: command, path: path).isEmpty, "\(command.name)")
            }
        }
    }

    @Test("Safe-area insets are zero under scale and insetBounds")
    func insets() {
        for compensation in [OverscanCompensation.scale, .insetBounds] {
            let layout = DisplayLayout(mode: tv.currentMode, overscan: 0.025, compensation: compensation)
            #expect(WindowOperation.safeAreaInsets(for: layout) == .setSafeAreaInsets(top: 0, left: 0, bottom: 0, right: 0))
        }
    }
}
