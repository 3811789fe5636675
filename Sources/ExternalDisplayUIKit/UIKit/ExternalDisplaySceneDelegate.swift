#if canImport(UIKit)
import ExternalDisplayKit
import UIKit

/// The scene delegate for external-display scenes, provided so an app never reuses its main scene delegate
/// for the external role (which crashes with a view-controller hierarchy inconsistency) and never types its
/// module-qualified class name into a plist.
///
/// It hands each external scene to the running ``UIKitDisplayPlatform`` (scenes that connect before the
/// platform starts wait for it and count as present at launch). The window itself is created by the
/// platform when the engine says so — after the screen's mode and overscan compensation are set.
///
/// Return it from the app delegate with one line (see
/// `UISceneConfiguration.externalDisplay(for:presentsExternalContent:)`):
///
/// ```swift
/// func application(_ application: UIApplication, configurationForConnecting session: UISceneSession,
///                  options: UIScene.ConnectionOptions) -> UISceneConfiguration {
///     .externalDisplay(for: session) ?? UISceneConfiguration(name: "Default Configuration", sessionRole: session.role)
/// }
/// ```
///
/// Or in the Info.plist scene manifest, under the role `UIWindowSceneSessionRoleExternalDisplayNonInteractive`
/// (and `UIWindowSceneSessionRoleExternalDisplay` for iOS 13–15), with `UISceneDelegateClassName` set to
/// `ExternalDisplayUIKit.ExternalDisplaySceneDelegate` — module prefix included.
@available(iOS 13.0, *)
@MainActor
public final class ExternalDisplaySceneDelegate: UIResponder, UIWindowSceneDelegate {
    /// Unused: the platform owns the external window (UIKit reads this optional property).
    public var window: UIWindow?

    /// Hands the external scene to the platform.
    public func scene(_ scene: UIScene, willConnectTo session: UISceneSession,
                      options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = scene as? UIWindowScene else { return }
        ExternalSceneHub.connect(windowScene)
    }

    /// Tells the platform the display went away.
    public func sceneDidDisconnect(_ scene: UIScene) {
        ExternalSceneHub.disconnect(scene)
    }

    /// The scene's screen, orientation or traits changed: the platform moves the display to the scene's
    /// new screen if it changed (identity, window, clock, mode).
    public func windowScene(_ windowScene: UIWindowScene,
                            didUpdate previousCoordinateSpace: any UICoordinateSpace,
                            interfaceOrientation previousInterfaceOrientation: UIInterfaceOrientation,
                            traitCollection previousTraitCollection: UITraitCollection) {
        ExternalSceneHub.platform?.sceneDidUpdate(windowScene)
    }
}

/// Where external scenes meet the platform: UIKit creates scene delegates itself, so they find the running
/// platform here; scenes that connect before it starts wait here.
@MainActor
enum ExternalSceneHub {
    static weak var platform: UIKitDisplayPlatform?
    private static var waiting: [UIWindowScene] = []

    static func connect(_ scene: UIWindowScene) {
        if let platform { platform.sceneDidConnect(scene) } else { waiting.append(scene) }
    }

    static func disconnect(_ scene: UIScene) {
        waiting.removeAll { $0 === scene }
        platform?.sceneDidDisconnect(scene)
    }

    static func takeWaitingScenes() -> [UIWindowScene] {
        defer { waiting = [] }
        return waiting
    }
}

@available(iOS 13.0, *)
extension UISceneConfiguration {
    /// The configuration for a connecting external-display session, or `nil` for any other session (so the
    /// app's own configuration applies — including `.windowApplication` scenes that Stage Manager puts on an
    /// external monitor, which stay the app's).
    ///
    /// Covers both external roles: `.windowExternalDisplay` (iOS 13–15) and
    /// `.windowExternalDisplayNonInteractive` (iOS 16+). With `presentsExternalContent: false` the scene is
    /// declined — a configuration without a delegate — and the system keeps mirroring the device.
    ///
    /// ```swift
    /// .externalDisplay(for: connectingSceneSession)
    ///     ?? UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    /// ```
    public static func externalDisplay(for session: UISceneSession,
                                       presentsExternalContent: Bool = true) -> UISceneConfiguration? {
        switch ExternalScenePolicy.decision(for: SceneRole(session.role),
                                            presentsExternalContent: presentsExternalContent) {
        case .present:
            let configuration = UISceneConfiguration(name: "External Display", sessionRole: session.role)
            configuration.delegateClass = ExternalDisplaySceneDelegate.self
            return configuration
        case .decline:
            return UISceneConfiguration(name: "External Display (declined)", sessionRole: session.role)
        case .leaveToApp:
            return nil
        }
    }
}
#endif
