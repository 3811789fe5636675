import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Testing

/// The normative layout arithmetic, checked against numbers worked out by hand and, for every catalog preset
/// under every compensation, against the formula written out independently here.
struct LayoutTests {
    @Test func compositeModesAreCorrectedToSquarePoints() {
        #expect(DisplayMode(width: 720, height: 480, pixelAspectRatio: 8.0 / 9.0).boundsInPoints
                == PixelSize(width: 640, height: 480))
        #expect(DisplayMode(width: 720, height: 576, pixelAspectRatio: 16.0 / 15.0).boundsInPoints
                == PixelSize(width: 768, height: 576))
    }

    @Test func hdTVWorkedByHand() {
        let mode = DisplayMode(width: 1280, height: 720)
        // f = 0.025: h = round(32) = 32, v = round(18) = 18.
        let scale = DisplayLayout(mode: mode, overscan: 0.025, compensation: .scale)
        #expect(scale.frame == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(scale.safeFrame == scale.frame)
        let inset = DisplayLayout(mode: mode, overscan: 0.025, compensation: .insetBounds)
        #expect(inset.frame == Rect(x: 0, y: 0, width: 1216, height: 684))
        #expect(inset.safeFrame == inset.frame)
        let none = DisplayLayout(mode: mode, overscan: 0.025, compensation: .none)
        #expect(none.frame == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(none.safeFrame == Rect(x: 32, y: 18, width: 1216, height: 684))
    }

    @Test func palWorkedByHand() {
        // 768 × 576 points; h = round(38.4) = 38, v = round(28.8) = 29.
        let mode = DisplayMode(width: 720, height: 576, pixelAspectRatio: 16.0 / 15.0, refreshRate: 50)
        let none = DisplayLayout(mode: mode, overscan: 0.05, compensation: .none)
        #expect(none.safeFrame == Rect(x: 38, y: 29, width: 692, height: 518))
        let inset = DisplayLayout(mode: mode, overscan: 0.05, compensation: .insetBounds)
        #expect(inset.frame == Rect(x: 0, y: 0, width: 692, height: 518))
    }

    @Test func noOverscanMeansFullBoundsUnderEveryCompensation() {
        let mode = DisplayMode(width: 1024, height: 768)
        for compensation in OverscanCompensation.allCases {
            let layout = DisplayLayout(mode: mode, overscan: 0, compensation: compensation)
            #expect(layout.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
            #expect(layout.safeFrame == layout.frame)
        }
    }

    @Test(arguments: DisplayCatalog.presets.map(\.name), OverscanCompensation.allCases)
    func everyPresetModeUnderEveryCompensation(preset: String, compensation: OverscanCompensation) throws {
        let display = try #require(DisplayCatalog.display(named: preset))
        for mode in display.modes {
            let w = (Double(mode.size.width) * mode.pixelAspectRatio).rounded()
            let h = Double(mode.size.height)
            let dx = (display.overscan * w).rounded(), dy = (display.overscan * h).rounded()
            let layout = DisplayLayout(mode: mode, overscan: display.overscan, compensation: compensation)
            let expectedFrame: [Double] = compensation == .insetBounds ? [0, 0, w - 2 * dx, h - 2 * dy] : [0, 0, w, h]
            let expectedSafe: [Double] = switch compensation {
            case .scale: [0, 0, w, h]
            case .insetBounds: [0, 0, w - 2 * dx, h - 2 * dy]
            case .none: [dx, dy, w - 2 * dx, h - 2 * dy]
            }
            #expect(layout.frame.components.map(Double.init) == expectedFrame, "\(preset) \(mode)")
            #expect(layout.safeFrame.components.map(Double.init) == expectedSafe, "\(preset) \(mode)")
        }
    }

    @Test func sizeClassesFollowTheWindowBounds() {
        let vga = DisplayTraits(layout: DisplayLayout(mode: DisplayMode(width: 640, height: 480), overscan: 0,
                                                      compensation: .scale))
        #expect(vga.horizontalSizeClass == .compact)
        #expect(vga.verticalSizeClass == .regular)
        let sd = DisplayTraits(layout: DisplayLayout(mode: DisplayMode(width: 720, height: 480), overscan: 0,
                                                     compensation: .scale))
        #expect(sd.horizontalSizeClass == .regular)
        let insetNTSC = DisplayTraits(layout: DisplayLayout(
            mode: DisplayMode(width: 720, height: 480, pixelAspectRatio: 8.0 / 9.0), overscan: 0.05,
            compensation: .insetBounds))
        #expect(insetNTSC.horizontalSizeClass == .compact)
        #expect(insetNTSC.verticalSizeClass == .compact) // 432 points high
        #expect(insetNTSC.displayScale == 1 && !insetNTSC.showsStatusBar)
    }
}
