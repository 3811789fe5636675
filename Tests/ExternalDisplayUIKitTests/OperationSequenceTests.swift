import ExternalDisplayKit
import ExternalDisplayUIKit
import Testing

/// A deterministic pseudo-random generator (SplitMix64), so failures reproduce from the seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What UIKit would hold for one display, as the operations are carried out.
private struct UIKitModel {
    var hasWindow = false
    var isHidden = true
    var hasContent = false
    var clockRunning = false
    var problems: [String] = []

    mutating func apply(_ operation: WindowOperation, display: DisplayID) {
        func problem(_ text: String) { problems.append("\(display): \(text)") }
        switch operation {
        case .createWindow, .createWindowInScene:
            if hasWindow { problem("window created twice") }
            hasWindow = true
            isHidden = true
        case .setScreenMode, .setOverscanCompensation:
            if hasWindow && !isHidden { problem("screen configured under a visible window") }
        case .releaseWindow:
            if !hasWindow { problem("released a window that does not exist") }
            if !isHidden { problem("released a visible window") }
            hasWindow = false
            hasContent = false
        case .setHidden(let hidden):
            if !hidden && !hasContent { problem("shown without content (a black field)") }
            isHidden = hidden
        case .setRootContent:
            hasContent = true
        case .removeRootContent:
            hasContent = false
        case .startFrameClock:
            clockRunning = true
        case .stopFrameClock:
            clockRunning = false
        default:
            break
        }
        if operation.needsWindow && !hasWindow && operation != .releaseWindow {
            problem("\(operation) without a window")
        }
    }
}

@Suite("Engine and translation together")
struct OperationSequenceTests {
    static let displays: [Display] = [
        Display(id: "a", modes: [DisplayMode(width: 1280, height: 720), DisplayMode(width: 1920, height: 1080)],
                preferredMode: DisplayMode(width: 1920, height: 1080), overscan: 0.025),
        Display(id: "b", modes: [DisplayMode(width: 720, height: 480, pixelAspectRatio: 8.0 / 9.0)],
                overscan: 0.05),
        Display(id: "c", modes: [DisplayMode(width: 3840, height: 2160)]),
    ]

    fileprivate static func randomEvent(_ rng: inout SplitMix) -> DisplayEvent {
        let display = displays[Int(rng.next() % UInt64(displays.count))]
        switch rng.next() % 11 {
        case 0, 1: return .connect(display)
        case 2: return .disconnect(display.id)
        case 3: return PlatformSignals.event(for: .didEnterBackground)!
        case 4: return PlatformSignals.event(for: .willEnterForeground)!
        case 5: return .suspend
        case 6: return .resume
        case 7: return .modeChanged(display.id, display.modes[Int(rng.next() % UInt64(display.modes.count))])
        case 8: return .mirror(display.id)
        case 9: return .extend(display.id)
        default: return .contentReady
        }
    }

    @Test("Random plugs, unplugs, lifecycle and mode changes never ask UIKit for an impossible call",
          arguments: [LifecyclePath.scenes, .screens])
    func randomSequences(path: LifecyclePath) {
        for seed in UInt64(1)...150 {
            var rng = SplitMix(state: seed)
            var engine = DisplayEngine(configuration: DisplayConfiguration(contentReadyAtLaunch: seed % 2 == 0))
            var models: [DisplayID: UIKitModel] = [:]
            var batches: [[DisplayEvent]] = [[.launch]]
            for _ in 0..<25 {
                batches.append((0..<Int(1 + rng.next() % 3)).map { _ in Self.randomEvent(&rng) })
            }
            for batch in batches {
                for effect in engine.handle(batch) {
                    guard case .command(let command) = effect, let id = command.display else { continue }
                    for operation in WindowOperation.plan(for: command, path: path) {
                        models[id, default: UIKitModel()].apply(operation, display: id)
                    }
                }
            }
            let problems = models.values.flatMap(\.problems)
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
            for (id, model) in models where engine.windows[id] == nil {
                #expect(!model.hasWindow, "seed \(seed): \(id) holds a window the engine released")
                #expect(!model.clockRunning, "seed \(seed): \(id) still has a running display link")
            }
        }
    }
}
