import ExternalDisplayKit
import ExternalDisplaySimulator
import Testing

@MainActor
struct ExternalDisplayTests {
    @Test func aTVPluggedInGetsTheAppsWindow() {
        let platform = SimulatedPlatform()                      // an iPad
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.start()
        coordinator.send(.contentReady)

        platform.connect(preset: "hdmi-tv-1080p", as: "tv")

        let tv = coordinator.attachments.first
        #expect(tv?.display.id == "tv")
        #expect(tv?.display.currentMode.size == PixelSize(width: 1920, height: 1080))
        #expect(platform.surface(for: "tv")?.isVisible == true)
    }

    @Test func unpluggingAndTheBackgroundLeaveNothingOnScreen() {
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.start()
        platform.connect(preset: "hdmi-tv-1080p", as: "tv")
        platform.connect(preset: "vga-projector-xga", as: "projector")

        platform.disconnect("tv")
        platform.moveToBackground()
        platform.advance(by: 10)                                // virtual seconds

        #expect(coordinator.attachments.map(\.display.id) == ["projector"])
        #expect(platform.surface(for: "projector")?.isVisible == false)
    }
}
