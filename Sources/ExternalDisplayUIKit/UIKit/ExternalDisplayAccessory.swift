// Compiled only with an SDK that has scene accessories: UIKit's module version 9127 is the iOS 27 SDK's
// (Xcode 27). `@available(iOS 27, *)` alone cannot hide symbols an older SDK lacks; see
// ExternalDisplayUIKit.docc/HowTheAppleLayerIsVerified.md. Not on Mac Catalyst: UIKit's headers mark scene
// accessories unavailable there (`API_UNAVAILABLE(macCatalyst, …)`), and Apple's pages list iOS and iPadOS only.
#if canImport(UIKit, _version: 9127) && !targetEnvironment(macCatalyst)
import ExternalDisplayKit
import UIKit

/// iOS 27 and later connect an external-display scene only while a view controller has registered an
/// external, non-interactive scene accessory. This registers one whose scenes go to
/// ``ExternalDisplaySceneDelegate`` (and so to the running platform), and reflects the registration's
/// `isAvailable` and `isEnabled`.
///
/// Register from the view controller whose content the external display supplements; the topmost, most
/// recently presented registering view controller wins.
///
/// ```swift
/// final class DeckViewController: UIViewController {
///     private var externalDisplay: AnyObject? // an ExternalDisplayAccessory on iOS 27
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         #if canImport(UIKit, _version: 9127) && !targetEnvironment(macCatalyst)
///         if #available(iOS 27.0, *) { externalDisplay = ExternalDisplayAccessory(registeringOn: self) }
///         #endif
///     }
/// }
/// ```
@available(iOS 27.0, *)
@MainActor
public final class ExternalDisplayAccessory {
    private weak var viewController: UIViewController?
    private var registration: UISceneAccessoryRegistration?

    /// Registers the accessory on `viewController`.
    public init(registeringOn viewController: UIViewController) {
        self.viewController = viewController
        let configuration = UISceneConfiguration(name: "External Display",
                                                 sessionRole: .windowExternalDisplayNonInteractive)
        configuration.delegateClass = ExternalDisplaySceneDelegate.self
        registration = viewController.registerSceneAccessory(
            .externalNonInteractive(sceneConfiguration: configuration))
        ExternalDisplayController.shared.track(self)
    }

    /// Whether the system can present the accessory now (a display is attached). Observable by UIKit's
    /// observation tracking in `updateProperties()` and `layoutSubviews()`.
    public var isAvailable: Bool { registration?.isAvailable ?? false }

    /// Whether the app wants its content on the display. Setting `false` stops presenting without giving up
    /// the registration — the app's run-time "external display off" switch on iOS 27.
    public var isEnabled: Bool {
        get { registration?.isEnabled ?? false }
        set { registration?.isEnabled = newValue }
    }

    /// Unregisters (the system dismisses the scene if it is presented). Idempotent.
    public func unregister() {
        if let registration, let viewController { viewController.unregisterSceneAccessory(registration) }
        registration = nil
    }
}
#endif
