import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator
import Testing

/// What an app developer writes: drive the coordinator with the simulated platform and assert on what the app
/// did. (The DocC article "Testing with the simulator" walks through this file.)
@MainActor
struct CoordinatorWithSimulatorTests {
    /// A tiny app: shows the current photo on the external display when there is one, else pushes it on the device.
    final class PhotoApp: DisplayCoordinatorDelegate {
        var externalPhotoViews: [DisplayID: String] = [:]
        var deviceStack: [String] = ["grid"]
        var selected = "photo-1"

        func externalDisplayDidAttach(_ attachment: DisplayAttachment) {
            externalPhotoViews[attachment.display.id] = selected
            if deviceStack.last == selected { deviceStack.removeLast() }
        }

        func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) {
            externalPhotoViews[display] = nil
            if externalPhotoViews.isEmpty, deviceStack.last != selected { deviceStack.append(selected) }
        }
    }

    @Test func photoFollowsTheTVAndComesBackWhenItIsUnplugged() async {
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        let app = PhotoApp()
        coordinator.delegate = app
        coordinator.start()

        platform.connect(preset: "hdmi-tv-1080p", as: "tv")
        #expect(app.externalPhotoViews == ["tv": "photo-1"])
        let surface = platform.surface(for: "tv")
        #expect(surface?.isVisible == true && surface?.content == .app && surface?.tookFocus == false)
        #expect(surface?.layout.frame == Rect(x: 0, y: 0, width: 1920, height: 1080))

        platform.disconnect("tv")
        #expect(app.deviceStack == ["grid", "photo-1"])
        #expect(platform.surface(for: "tv") == nil)
    }

    @Test func externalContentIsHiddenInTheBackgroundAndQueuedEventsArriveAtResume() {
        let platform = SimulatedPlatform(device: DisplayCatalog.device(named: "iphone")!)
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.start()
        platform.connect(preset: "airplay-appletv-1080p", as: "atv")
        platform.moveToBackground()
        #expect(platform.surface(for: "atv")?.isVisible == false)
        platform.suspend()
        platform.connect(preset: "hdmi-tv-720p", as: "tv")
        #expect(platform.surface(for: "tv") == nil) // suspended: nothing happens yet
        platform.resume()
        #expect(platform.surface(for: "tv")?.isVisible == false) // created, hidden in the background
        platform.moveToForeground()
        #expect(coordinator.attachments.map(\.display.id) == ["atv", "tv"])
        #expect(platform.surface(for: "tv")?.isVisible == true)
    }

    @Test func displaysPresentAtLaunchGetWindowsLikeLaterOnes() {
        let platform = SimulatedPlatform()
        platform.connect(preset: "vga-projector-xga", as: "projector")
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.start()
        #expect(platform.surface(for: "projector")?.isVisible == true)
    }

    @Test func notificationsStreamAndFrameClocksRunOnVirtualTime() async {
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        let stream = coordinator.notifications()
        coordinator.start()
        platform.connect(preset: "composite-ntsc", as: "ntsc")
        coordinator.send(.renderContinuously("ntsc", true))
        platform.advance(by: 10)
        #expect(platform.surface(for: "ntsc")?.framesDrawn == 599) // 59.94 Hz: 599 frames in 10 s
        coordinator.send(.renderContinuously("ntsc", false))
        platform.advance(by: 10)
        #expect(platform.surface(for: "ntsc")?.framesDrawn == 599)
        coordinator.stop()
        var names: [String] = []
        for await notification in stream { names.append(notification.name) }
        #expect(names == ["didAttach"])
    }

    @Test func sharedRefreshRunsOnlyWhileSomethingVisibleNeedsIt() {
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        let refresh = RefreshCoordinator(source: platform.makeRefreshSource())
        var tvTicks = 0
        refresh.setHandler(for: .display("tv")) { _ in tvTicks += 1 }
        coordinator.refresh = refresh
        coordinator.start()
        coordinator.send(.modelRunning(true))
        coordinator.send(.deviceViewVisible(false))
        #expect(!refresh.isRunning)
        platform.connect(preset: "hdmi-tv-720p", as: "tv")
        #expect(refresh.isRunning)
        platform.advance(by: 1)
        #expect(tvTicks == 60)
        platform.disconnect("tv")
        #expect(!refresh.isRunning)
    }

    @Test func badRequestsAreReportedAndChangeNothing() {
        let platform = SimulatedPlatform()
        let coordinator = DisplayCoordinator(platform: platform)
        coordinator.start()
        platform.connect(preset: "hdmi-tv-720p", as: "tv")
        coordinator.send(.requestMode("tv", PixelSize(width: 3840, height: 2160)))
        #expect(coordinator.diagnostics.count == 1)
        #expect(coordinator.diagnostics.first?.message.contains("not a mode it offers") == true)
        #expect(platform.surface(for: "tv")?.layout.frame.width == 1280)
    }
}
