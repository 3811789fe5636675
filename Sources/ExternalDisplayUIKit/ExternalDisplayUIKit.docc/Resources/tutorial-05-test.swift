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
}
