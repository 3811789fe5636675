import ExternalDisplayKit
import Testing

@Suite("External scene decisions")
struct ScenePolicyTests {
    @Test("iOS 13–15 declare windowExternalDisplay, iOS 16+ windowExternalDisplayNonInteractive",
          arguments: [(13, SceneRole.externalDisplay), (14, .externalDisplay), (15, .externalDisplay),
                      (16, .externalDisplayNonInteractive), (17, .externalDisplayNonInteractive),
                      (26, .externalDisplayNonInteractive), (27, .externalDisplayNonInteractive)])
    func roleByVersion(major: Int, role: SceneRole) {
        #expect(ExternalScenePolicy.externalRole(forSystemMajorVersion: major) == role)
    }

    @Test("Both external roles get the package's delegate; switched off they are declined")
    func externalRolesPresentedOrDeclined() {
        for role in [SceneRole.externalDisplay, .externalDisplayNonInteractive] {
            #expect(ExternalScenePolicy.decision(for: role, presentsExternalContent: true) == .present)
            #expect(ExternalScenePolicy.decision(for: role, presentsExternalContent: false) == .decline)
        }
    }

    @Test("Stage Manager's application scenes on a monitor are left to the app, never configured")
    func applicationScenesLeftAlone() {
        #expect(ExternalScenePolicy.decision(for: .application, presentsExternalContent: true) == .leaveToApp)
        #expect(ExternalScenePolicy.decision(for: .other("CPTemplateApplicationSceneSessionRoleApplication"),
                                             presentsExternalContent: true) == .leaveToApp)
        #expect(!ExternalScenePolicy.mayConfigureScreen(for: .application))
        #expect(ExternalScenePolicy.mayConfigureScreen(for: .externalDisplayNonInteractive))
        #expect(ExternalScenePolicy.mayConfigureScreen(for: .externalDisplay))
    }

    @Test("Role raw values round-trip and match UIKit's plist keys")
    func rawValues() {
        for role in [SceneRole.application, .externalDisplay, .externalDisplayNonInteractive, .other("X")] {
            #expect(SceneRole(rawValue: role.rawValue) == role)
        }
        #expect(SceneRole.externalDisplayNonInteractive.rawValue
                == "UIWindowSceneSessionRoleExternalDisplayNonInteractive")
        #expect(SceneRole.externalDisplay.isExternal && !SceneRole.application.isExternal)
    }

    @Test("A scene-based app never uses the UIScreen notification path")
    func lifecyclePath() {
        #expect(ExternalScenePolicy.lifecyclePath(requested: .automatic, appUsesScenes: true) == .scenes)
        #expect(ExternalScenePolicy.lifecyclePath(requested: .automatic, appUsesScenes: false) == .screens)
        #expect(ExternalScenePolicy.lifecyclePath(requested: .screens, appUsesScenes: true) == .scenes)
        #expect(ExternalScenePolicy.lifecyclePath(requested: .scenes, appUsesScenes: false) == .scenes)
    }
}

@Suite("Platform signals")
struct PlatformSignalTests {
    @Test("Foreground is keyed on willEnterForeground, never on activation")
    func lifecycle() {
        #expect(PlatformSignals.event(for: .didEnterBackground).map(\.name) == "background")
        #expect(PlatformSignals.event(for: .willEnterForeground).map(\.name) == "foreground")
        #expect(PlatformSignals.event(for: .didBecomeActive) == nil)
        #expect(PlatformSignals.event(for: .willResignActive) == nil)
    }

    @Test("Scene capture state wins when it says; unspecified falls back to UIScreen.isCaptured")
    func capture() {
        #expect(PlatformSignals.isCaptured(sceneCaptureState: .active, screenIsCaptured: false))
        #expect(!PlatformSignals.isCaptured(sceneCaptureState: .inactive, screenIsCaptured: true))
        #expect(PlatformSignals.isCaptured(sceneCaptureState: .unspecified, screenIsCaptured: true))
        #expect(PlatformSignals.isCaptured(sceneCaptureState: nil, screenIsCaptured: true))
        #expect(!PlatformSignals.isCaptured(sceneCaptureState: nil, screenIsCaptured: false))
    }

    @Test("Display-link rate: a range on iOS 15+, whole frames per second before; never above the display")
    func frameRate() {
        #expect(PlatformSignals.frameRateRequest(fps: 30, maximum: 60, supportsRanges: true)
                == .range(minimum: 15, maximum: 30, preferred: 30))
        #expect(PlatformSignals.frameRateRequest(fps: 120, maximum: 60, supportsRanges: true)
                == .range(minimum: 30, maximum: 60, preferred: 60))
        #expect(PlatformSignals.frameRateRequest(fps: 0, maximum: 50, supportsRanges: false) == .framesPerSecond(50))
        #expect(PlatformSignals.frameRateRequest(fps: 29.97, maximum: 60, supportsRanges: false)
                == .framesPerSecond(30))
    }
}
