#if canImport(UIKit)
import ExternalDisplayKit
import UIKit

/// Where the platform finds screens, by OS version: through the app's scenes where UIKit offers that (the
/// `UIScreen` class-wide lists and notifications are deprecated from iOS 16, `UIScreen.main` from iOS 26),
/// and through the legacy class-wide API before. Each legacy call sits in the `else` branch of an
/// `if #available` check, so it only runs on the versions that predate its replacement, and the compiler
/// reports no deprecation for it at any deployment target (measured with the iOS 26.2 SDK at iOS 26.0).
@MainActor
enum UIKitScreens {
    /// The screens to consider: on iOS 16 and later, the screens of the app's open scenes
    /// (`UIApplication.shared.openSessions`); before, every attached screen (`UIScreen.screens`).
    static var attached: [UIScreen] {
        if #available(iOS 16.0, *) {
            return sceneScreens
        } else {
            return UIScreen.screens
        }
    }

    /// The screens the app's open sessions' window scenes are on, each once.
    static var sceneScreens: [UIScreen] { sceneScreens { _ in true } }

    /// The screens of the app's open sessions that `include` accepts, each once.
    static func sceneScreens(of include: (UISceneSession) -> Bool) -> [UIScreen] {
        var result: [UIScreen] = []
        for session in UIApplication.shared.openSessions where include(session) {
            guard let screen = (session.scene as? UIWindowScene)?.screen,
                  !result.contains(where: { $0 === screen }) else { continue }
            result.append(screen)
        }
        return result
    }

    /// The external screens attached when the platform starts on the screens path: before iOS 16 every screen
    /// after the device's own (UIKit lists the device's first); from iOS 16 the screens of the app's open
    /// external-display scenes that are not the device's (the app's own scenes never bring one).
    static func externalAtStart(deviceScreen: UIScreen?) -> [UIScreen] {
        if #available(iOS 16.0, *) {
            return sceneScreens { ExternalScenePolicy.mayConfigureScreen(for: SceneRole($0.role)) }
                .filter { $0 !== deviceScreen }
        } else {
            return Array(UIScreen.screens.dropFirst())
        }
    }

    /// Whether UIKit names `screen` the device's built-in screen. Before iOS 26 that is `UIScreen.main`; from
    /// iOS 26, where it is deprecated in favour of a screen found through context, the screen an external
    /// screen mirrors (`mirrored`) — otherwise `false`, and ``ScreenAssignments/deviceScreen(among:)`` falls back
    /// to the screen showing the app's interactive scene and no external one.
    static func isBuiltIn(_ screen: UIScreen, among candidates: [UIScreen]) -> Bool {
        if #available(iOS 26.0, *) {
            return candidates.contains { $0.mirrored === screen }
        } else {
            return screen === UIScreen.main
        }
    }

    /// The window scene that shows `screen` (the window joins it), if one is attached.
    static func windowScene(showing screen: UIScreen) -> UIWindowScene? {
        UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            .first { $0.screen === screen && $0.activationState != .unattached }
    }

    /// A window for the screens path, not yet on any screen's scene: from iOS 26 created in the scene that shows
    /// the screen (`UIWindow(windowScene:)`; `init(frame:)` is deprecated there), before iOS 26 with
    /// `UIWindow(frame:)` and joined to the scene by `assignScreen`. `nil` when iOS 26 finds no scene.
    static func makeWindow(for screen: UIScreen) -> UIWindow? {
        if #available(iOS 26.0, *) {
            return windowScene(showing: screen).map { UIWindow(windowScene: $0) }
        } else {
            return UIWindow(frame: .zero)
        }
    }
}
#endif
