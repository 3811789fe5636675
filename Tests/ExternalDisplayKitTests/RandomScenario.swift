import ExternalDisplayKit
import ExternalDisplayTesting

/// Turns a list of random numbers into a scenario: a few displays (catalog presets and broken ones) coming
/// and going, mode changes and requests (offered or not), every lifecycle transition (legal or not), content
/// readiness, mirroring, timing and presentation events. Bad input is part of the mix on purpose.
enum RandomScenario {
    static let ids: [DisplayID] = ["a", "b", "c"]
    static let sizes = [PixelSize(width: 640, height: 480), PixelSize(width: 1280, height: 720),
                        PixelSize(width: 1920, height: 1080), PixelSize(width: 1024, height: 768),
                        PixelSize(width: 3840, height: 2160), PixelSize(width: 0, height: 0)]

    static func make(_ codes: [Int]) -> Scenario {
        let first = codes.first ?? 0
        let policies: [ModeSelection] = [.preferred, .highest, .lowest, .pixelBudget(1_000_000),
                                         .size(PixelSize(width: 1280, height: 720))]
        let configuration = DisplayConfiguration(
            modeSelection: policies[first % policies.count],
            overscanCompensation: OverscanCompensation.allCases[(first / 5) % 3],
            background: (first / 15) % 2 == 0 ? .hide : .keep,
            contentReadyAtLaunch: (first / 30) % 3 != 0)
        var t = 0.0
        var steps: [ScenarioStep] = []
        for code in codes.dropFirst() {
            t += Double(code % 3) * 0.5
            steps.append(ScenarioStep(at: t, action(code / 3)))
        }
        let policyJSON: [JSONValue] = ["preferred", "highest", "lowest", .object([("maxPixels", 1_000_000)]),
                                       .object([("size", [1280, 720])])]
        return Scenario(configuration: configuration, modeSelectionJSON: policyJSON[first % policies.count], steps: steps)
    }

    static func action(_ code: Int) -> ScenarioAction {
        let id = ids[code % ids.count]
        let size = sizes[(code / 3) % sizes.count]
        let presets = DisplayCatalog.presets
        switch (code / 18) % 24 {
        case 0, 1: return .event(.connect(DisplayCatalog.display(named: presets[(code / 7) % presets.count].name, id: id)!))
        case 2: return .event(.connect(Display(id: id, modes: code % 2 == 0 ? [] : [DisplayMode(size: size)])))
        case 3, 4: return .event(.disconnect(id))
        case 5: return .event(.modeChanged(id, DisplayMode(size: size)))
        case 6: return .event(.requestMode(id, size))
        case 7: return .event(.background)
        case 8: return .event(.foreground)
        case 9: return .event(.suspend)
        case 10: return .event(.resume)
        case 11: return .event(.launch)
        case 12: return .event(.contentReady)
        case 13: return .event(.mirror(id))
        case 14: return .event(.extend(id))
        case 15: return .event(.modelRunning(code % 2 == 0))
        case 16: return .event(.deviceViewVisible(code % 2 == 0))
        case 17: return .event(.renderContinuously(id, code % 2 == 0))
        case 18: return .event(.consumerRate(code % 2 == 0 ? .device : .display(id), [1.0, 24, 30, 60][code % 4]))
        case 19: return .renderCost(code % 2 == 0 ? .device : .display(id), Double(code % 40))
        case 20: return .event(.show(item: "item\(code % 4)", isPrivate: code % 5 == 0, display: code % 7 == 0 ? id : nil))
        case 21: return .event(.dismiss(item: "item\(code % 4)"))
        case 22: return .event(.capture(code % 2 == 0))
        default: return .event(.rotate(DeviceOrientation.allCases[code % DeviceOrientation.allCases.count]))
        }
    }
}
