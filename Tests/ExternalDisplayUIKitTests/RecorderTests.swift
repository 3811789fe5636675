import ExternalDisplayKit
import ExternalDisplaySimulator
import ExternalDisplayTesting
import ExternalDisplayUIKit
import Foundation
import PropertyBased
import Testing

/// Virtual time for a recorder: the test moves it.
final class VirtualClock: @unchecked Sendable {
    var now = 0.0
}

/// A device session as UIKit would report it, built from a seed: the scenario the session stands for (written
/// here, by counting and arithmetic of the test's own) and the UIKit-shaped inputs that produce it, fed through
/// `PlatformEventTranslator` into an `ExternalDisplayRecorder` — as `UIKitDisplayPlatform` and
/// `DisplayCoordinator` do on a device.
@MainActor
struct DeviceSession {
    /// What the session stands for.
    var expected: Scenario
    /// What the recorder wrote.
    var recording: String

    /// One screen the session attached: its keys and what it offers.
    struct Attached {
        var id: DisplayID
        var scene: Int
        var screen: Int
        var description: ScreenDescription
        var display: Display
    }

    static let sizes = [(720, 480), (1280, 720), (1920, 1080), (3840, 2160)]

    static func make(seed: UInt64) -> DeviceSession {
        var rng = SplitMix(state: seed)
        let clock = VirtualClock()
        let modeSelections: [(ModeSelection, JSONValue)] = [(.preferred, "preferred"), (.highest, "highest"),
                                                            (.lowest, "lowest"),
                                                            (.pixelBudget(2_073_600), .object([("maxPixels", 2_073_600)]))]
        let (selection, selectionJSON) = rng.pick(modeSelections)
        let configuration = DisplayConfiguration(
            modeSelection: selection, overscanCompensation: rng.pick(OverscanCompensation.allCases),
            background: rng.pick(DisplayConfiguration.BackgroundBehavior.allCases),
            contentReadyAtLaunch: rng.chance(0.5))
        let device = rng.pick(["ipad", "iphone"])
        let recorder = ExternalDisplayRecorder(device: device, configuration: configuration, clock: { clock.now })
        let translator = PlatformEventTranslator<Int>()
        translator.recorder = recorder
        var steps: [ScenarioStep] = []
        var attached: [Attached] = []
        var nextKey = 1, nextID = 1
        let deviceScreen = 0
        var captured = false, background = false
        var routePorts: [(type: String, name: String)] = []

        func newScreen() -> (ScreenDescription, Display, DisplayID) {
            let count = Int.random(in: 1...3, using: &rng)
            let chosen = Array(sizes.shuffled(using: &rng).prefix(count))
            let fps = rng.pick([30, 50, 60, 120])
            let par = rng.pick([1.0, 8.0 / 9.0])
            let current = rng.pick(chosen)
            let preferred = rng.chance(0.7) ? rng.pick(chosen) : nil
            let insetStep = rng.pick([0, 1, 2, 4])       // overscan = insetStep / 40 of the width
            let inset = Double(insetStep * current.0) / 40
            let port = rng.pick([("HDMI", "Projector"), ("AirPlay", "Living Room"), ("HDMI", "TV")])
            let description = ScreenDescription(
                modes: chosen.map { .init(width: Double($0.0), height: Double($0.1), pixelAspectRatio: par) },
                preferredMode: preferred.map { .init(width: Double($0.0), height: Double($0.1), pixelAspectRatio: par) },
                currentMode: .init(width: Double(current.0), height: Double(current.1), pixelAspectRatio: par),
                boundsWidth: Double(current.0), boundsHeight: Double(current.1),
                overscanInsets: .init(left: inset, right: inset), maximumFramesPerSecond: fps)
            func mode(_ size: (Int, Int)) -> DisplayMode {
                DisplayMode(width: size.0, height: size.1, pixelAspectRatio: par, refreshRate: Double(fps))
            }
            let id = DisplayID("screen-\(nextID)")
            nextID += 1
            let display = Display(id: id, name: port.1, connection: port.0 == "AirPlay" ? .airplay : .hdmi,
                                  modes: chosen.map(mode), preferredMode: preferred.map(mode),
                                  currentMode: mode(current), overscan: Double(insetStep) / 40)
            routePorts = [(type: port.0, name: port.1)]
            return (description, display, id)
        }

        // Launch, with the displays already attached.
        var present: [Display] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let (description, expectedDisplay, id) = newScreen()
            let scene = nextKey, screen = nextKey + 1
            nextKey += 2
            let display = translator.registerScene(scene, role: .externalDisplayNonInteractive, screen: screen,
                                                   description: description, routePorts: routePorts)!
            present.append(display)
            attached.append(Attached(id: id, scene: scene, screen: screen, description: description, display: display))
            steps.append(ScenarioStep(at: 0, .event(.connect(expectedDisplay))))
        }
        recorder.start()
        recorder.record(present.map(DisplayEvent.connect) + [.launch])   // what DisplayCoordinator.start() records
        steps.append(ScenarioStep(at: 0, .event(.launch)))

        let items = ["photo-1", "photo-2", "notes"]
        for _ in 0..<Int.random(in: 5...40, using: &rng) {
            clock.now += rng.pick([0, 0.25, 0.5, 1, 2.5])
            let t = clock.now
            func expect(_ events: [DisplayEvent]) { steps += events.map { ScenarioStep(at: t, .event($0)) } }
            func app(_ event: DisplayEvent) { recorder.record([event]); expect([event]) }  // DisplayCoordinator.send
            switch Int.random(in: 0..<14, using: &rng) {
            case 0, 1:
                let (description, expectedDisplay, id) = newScreen()
                let scene = nextKey, screen = nextKey + 1
                nextKey += 2
                guard let display = translator.registerScene(scene, role: .externalDisplayNonInteractive,
                                                             screen: screen, description: description,
                                                             routePorts: routePorts) else { continue }
                attached.append(Attached(id: id, scene: scene, screen: screen, description: description, display: display))
                _ = translator.connected(display)
                expect([.connect(expectedDisplay)])
            case 2:
                guard !attached.isEmpty else { continue }
                let gone = attached.remove(at: Int.random(in: 0..<attached.count, using: &rng))
                _ = translator.disconnected(gone.scene)
                expect([.disconnect(gone.id)])
            case 3, 4:
                guard let which = attached.indices.randomElement(using: &rng) else { continue }
                let target = attached[which]
                let mode = rng.pick(target.description.modes)
                _ = translator.modeChanged(on: target.screen, description: target.description, current: mode)
                expect([.modeChanged(target.id, DisplayMode(
                    width: Int(mode.width), height: Int(mode.height), pixelAspectRatio: mode.pixelAspectRatio,
                    refreshRate: Double(target.description.maximumFramesPerSecond)))])
            case 5:
                background.toggle()
                _ = translator.lifecycle(background ? .didEnterBackground : .willEnterForeground)
                expect([background ? .background : .foreground])
                _ = translator.lifecycle(background ? .willResignActive : .didBecomeActive)   // a note, no event
            case 6:
                captured.toggle()
                _ = translator.capture(captured, on: deviceScreen, deviceScreen: deviceScreen)
                expect([.capture(captured)])
            case 7:
                guard let which = attached.indices.randomElement(using: &rng) else { continue }
                let moving = attached[which]
                let (description, _, _) = newScreen()
                nextID -= 1                                   // a move keeps the display's id
                let screen = nextKey
                nextKey += 1
                _ = translator.sceneUpdated(moving.scene, screen: screen, description: description, routePorts: routePorts)
                let moved = Display(id: moving.id, name: routePorts[0].name,
                                    connection: routePorts[0].type == "AirPlay" ? .airplay : .hdmi,
                                    modes: description.modes.map { DisplayMode(
                                        width: Int($0.width), height: Int($0.height), pixelAspectRatio: $0.pixelAspectRatio,
                                        refreshRate: Double(description.maximumFramesPerSecond)) },
                                    preferredMode: description.preferredMode.map { DisplayMode(
                                        width: Int($0.width), height: Int($0.height), pixelAspectRatio: $0.pixelAspectRatio,
                                        refreshRate: Double(description.maximumFramesPerSecond)) },
                                    currentMode: description.currentMode.map { DisplayMode(
                                        width: Int($0.width), height: Int($0.height), pixelAspectRatio: $0.pixelAspectRatio,
                                        refreshRate: Double(description.maximumFramesPerSecond)) },
                                    overscan: description.overscanInsets.left / description.boundsWidth)
                attached[which] = Attached(id: moving.id, scene: moving.scene, screen: screen, description: description,
                                           display: moved)
                expect([.disconnect(moving.id), .connect(moved)])
            case 8: app(.contentReady)
            case 9:
                guard let target = attached.randomElement(using: &rng) else { continue }
                let mode = rng.pick(target.description.modes)
                app(.requestMode(target.id, PixelSize(width: Int(mode.width), height: Int(mode.height))))
            case 10:
                guard let target = attached.randomElement(using: &rng) else { continue }
                app(rng.chance(0.5) ? .mirror(target.id) : .extend(target.id))
            case 11:
                let item = rng.pick(items)
                app(rng.chance(0.7) ? .show(item: item, isPrivate: item == "notes", display: nil) : .dismiss(item: item))
            case 12:
                app(rng.pick([.modelRunning(rng.chance(0.5)), .deviceViewVisible(rng.chance(0.5)),
                              .rotate(rng.pick(DeviceOrientation.allCases)), .deviceContent(empty: rng.chance(0.5))]))
            default:
                guard let target = attached.randomElement(using: &rng) else {
                    app(.consumerRate(.device, rng.pick([0, 1, 30, 60])))
                    continue
                }
                app(rng.chance(0.5) ? .renderContinuously(target.id, rng.chance(0.5))
                        : .consumerRate(.display(target.id), rng.pick([0, 1, 30, 60])))
            }
        }
        clock.now += 1
        recorder.stop()
        steps.append(ScenarioStep(at: clock.now, .end))
        let expected = Scenario(device: DisplayCatalog.device(named: device)!, configuration: configuration,
                                modeSelectionJSON: selectionJSON, steps: steps)
        return DeviceSession(expected: expected, recording: recorder.scenarioJSON())
    }
}

extension SplitMix {
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
}

@MainActor
@Suite("Recording a device session and replaying it")
struct RecorderReplayTests {
    /// A recording replays to exactly the trace of the session it recorded: the same events, batches, steps,
    /// commands and notifications, and the checker finds nothing wrong.
    @Test func recordedSessionsReplayToTheSameTrace() async throws {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000_000)) { seed in
            let session = DeviceSession.make(seed: UInt64(seed))
            let recorded: Scenario
            do {
                recorded = try ScenarioParser.parse(Data(session.recording.utf8))
            } catch {
                Issue.record("seed \(seed): the recording does not parse: \(error)\n\(session.recording)")
                return
            }
            let original = ScenarioRunner(scenario: session.expected).run()
            let replay = ScenarioRunner(scenario: recorded).run()
            #expect(replay.ndjson == original.ndjson, "seed \(seed): the replay differs\n\(session.recording)")
            #expect(replay.violations.isEmpty, "seed \(seed): \(replay.violations)")
        }
    }

    /// The same session recorded twice is the same bytes (fields in a fixed order), so recordings diff well.
    @Test func recordingsAreDeterministic() {
        #expect(DeviceSession.make(seed: 42).recording == DeviceSession.make(seed: 42).recording)
    }

    /// Nothing is kept before `start()` or after `stop()`; recording is opt-in.
    @Test func offUntilStarted() {
        let clock = VirtualClock()
        let recorder = ExternalDisplayRecorder(clock: { clock.now })
        recorder.record([.launch])
        recorder.note("scenePhase")
        #expect(recorder.steps.isEmpty && recorder.notes.isEmpty && !recorder.isRecording)
        recorder.start()
        clock.now = 1.2344
        recorder.record([.contentReady, .frameCost([.device: 3])])
        recorder.stop()
        recorder.record([.background])
        #expect(recorder.steps.map(\.event.name) == ["contentReady"])
        #expect(recorder.steps.map(\.at) == [1.234])
        #expect(recorder.endedAt == 1.234)
    }

    /// The coordinator records the launch batch and what the app sends, never what its platform delivers.
    @Test func coordinatorRecordsTheAppsEvents() {
        let recorder = ExternalDisplayRecorder(clock: { 0 })
        recorder.start()
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.recorder = recorder
        coordinator.start()
        platform.connect(preset: "hdmi-tv-1080p", as: "tv")
        coordinator.send(.contentReady)
        #expect(recorder.steps.map(\.event.name) == ["launch", "contentReady"])
    }

    /// A connect with a mode object, and a `recording` object, parse; a `recording` that is not an object is
    /// refused, and old files (without either) still parse.
    @Test func scenarioFormatExtensionsAreCompatible() throws {
        let recorded = """
        {"device": "ipad", "recording": {"recorder": "ExternalDisplayRecorder", "notes": []},
         "steps": [{"at": 0, "event": "connect", "display": "tv", "modes": [{"size": [1920, 1080], "refresh": 50}]},
                   {"at": 0, "event": "launch"},
                   {"at": 1, "event": "modeChanged", "display": "tv", "mode": {"size": [1920, 1080], "refresh": 50}},
                   {"at": 2, "event": "modeChanged", "display": "tv", "mode": [1920, 1080]}]}
        """
        let scenario = try ScenarioParser.parse(Data(recorded.utf8))
        guard case .event(.modeChanged(_, let mode)) = scenario.steps[2].action else { Issue.record("no modeChanged"); return }
        #expect(mode.refreshRate == 50)
        guard case .event(.modeChanged(_, let legacy)) = scenario.steps[3].action else { Issue.record("no modeChanged"); return }
        #expect(legacy.refreshRate == 60)
        #expect(throws: ScenarioError.self) {
            try ScenarioParser.parse(Data(#"{"recording": 3, "steps": []}"#.utf8))
        }
    }
}

@MainActor
@Suite("A user's bug report, recorded on a device")
struct BugReportRecordingTests {
    /// Where the recording lives: beside this file.
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Recordings/airplay-tv-mode-change-in-background.json")

    /// The session the bug report describes, as UIKit reported it: an AirPlay TV attached at launch, the app
    /// asks for 720p, the TV switches, the user goes home and back, then unplugs. Rewrite the file with
    /// `EDK_UPDATE_RECORDINGS=1`.
    static func record() -> String {
        let clock = VirtualClock()
        let configuration = DisplayConfiguration(overscanCompensation: .none, contentReadyAtLaunch: false)
        let recorder = ExternalDisplayRecorder(device: "iphone", configuration: configuration, clock: { clock.now })
        recorder.metadata = ["system": "iOS 26.1", "model": "iPhone", "report": "TV shows the old picture after a mode change in the background"]
        let translator = PlatformEventTranslator<Int>()
        translator.recorder = recorder
        let tv = ScreenDescription(
            modes: [.init(width: 1280, height: 720), .init(width: 1920, height: 1080)],
            preferredMode: .init(width: 1920, height: 1080), currentMode: .init(width: 1920, height: 1080),
            boundsWidth: 1920, boundsHeight: 1080, overscanInsets: .init(left: 48, right: 48), maximumFramesPerSecond: 60)
        let ports = [(type: "AirPlay", name: "Living Room")]
        clock.now = 100
        recorder.start()
        let display = translator.registerScene(1, role: .externalDisplayNonInteractive, screen: 2,
                                               description: tv, routePorts: ports)!
        recorder.record([.connect(display), .launch])
        translator.overscanCompensationSet(display.id, .none, insets: tv.overscanInsets)
        clock.now = 100.8
        recorder.record([.contentReady])
        clock.now = 103.25
        recorder.record([.requestMode(display.id, PixelSize(width: 1280, height: 720))])
        translator.modeChangeResult(display.id, mode: DisplayMode(width: 1280, height: 720), refusal: nil)
        clock.now = 103.5
        _ = translator.lifecycle(.willResignActive)
        _ = translator.lifecycle(.didEnterBackground)
        clock.now = 104.1
        _ = translator.modeChanged(on: 2, description: tv, current: .init(width: 1280, height: 720))
        clock.now = 109
        _ = translator.lifecycle(.willEnterForeground)
        _ = translator.lifecycle(.didBecomeActive)
        clock.now = 112.4
        _ = translator.disconnected(1)
        clock.now = 113
        recorder.stop()
        return recorder.scenarioJSON()
    }

    @Test func theFileIsWhatTheRecorderWrites() throws {
        let written = Self.record()
        if ProcessInfo.processInfo.environment["EDK_UPDATE_RECORDINGS"] == "1" {
            try FileManager.default.createDirectory(at: Self.file.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try Data(written.utf8).write(to: Self.file)
        }
        #expect(try String(contentsOf: Self.file, encoding: .utf8) == written)
    }

    /// The report replays, the checker passes, and the trace shows what happened: the window was released before
    /// the mode was set and created again after, and at the end the TV is gone.
    @Test func theReportReplaysAndChecks() throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.file)
        let result = ScenarioRunner(scenario: scenario).run()
        #expect(result.violations.isEmpty, "\(result.violations)")
        let commands = result.records.compactMap { record -> String? in
            guard case .command(_, let command) = record else { return nil }
            return command.name
        }
        let setMode = try #require(commands.firstIndex(of: "setMode"))
        #expect(commands[..<setMode].contains("destroyWindow"))
        #expect(commands[setMode...].contains("createWindow"))
        #expect(result.summary.connected.isEmpty)
    }
}

@MainActor
@Suite("What the translator records")
struct TranslatorRecordingTests {
    let tv = ScreenDescription(modes: [.init(width: 1920, height: 1080)], preferredMode: .init(width: 1920, height: 1080),
                               currentMode: .init(width: 1920, height: 1080), boundsWidth: 1920, boundsHeight: 1080)

    func make() -> (PlatformEventTranslator<Int>, ExternalDisplayRecorder) {
        let recorder = ExternalDisplayRecorder(clock: { 0 })
        recorder.start()
        let translator = PlatformEventTranslator<Int>()
        translator.recorder = recorder
        return (translator, recorder)
    }

    /// With external content switched off, a display that attaches is recorded with its mirror, in one batch.
    @Test func aDisplayAttachingWhileSwitchedOffIsRecordedMirrored() {
        let (translator, recorder) = make()
        _ = translator.setExternalContentEnabled(false, connected: [], mirrored: [])
        let display = translator.registerScene(1, role: .externalDisplayNonInteractive, screen: 2, description: tv,
                                               routePorts: [(type: "HDMI", name: "TV")])!
        #expect(translator.connected(display).map(\.name) == ["connect", "mirror"])
        #expect(recorder.steps.map(\.event.name) == ["connect", "mirror"])
    }

    /// Nothing is recorded for what the engine never hears of: an application scene, an unknown disconnect, a
    /// capture of another screen, a repeated capture state; activation signals become notes.
    @Test func whatIsNoEventIsNoStep() {
        let (translator, recorder) = make()
        #expect(translator.registerScene(1, role: .application, screen: 2, description: tv, routePorts: []) == nil)
        #expect(translator.disconnected(99).isEmpty)
        #expect(translator.capture(true, on: 5, deviceScreen: 0).isEmpty)
        #expect(translator.capture(true, on: 0, deviceScreen: 0).map(\.name) == ["capture"])
        #expect(translator.capture(true, on: 0, deviceScreen: 0).isEmpty)
        #expect(translator.lifecycle(.didBecomeActive).isEmpty)
        #expect(recorder.steps.map(\.event.name) == ["capture"])
        #expect(recorder.notes.map(\.kind) == ["scenePhase"])
    }
}
