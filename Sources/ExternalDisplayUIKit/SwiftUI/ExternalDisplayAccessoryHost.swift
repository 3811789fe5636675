// Needs the iOS 27 SDK's scene accessories (UIKit module version 9127, as ExternalDisplayAccessory).
#if canImport(UIKit, _version: 9127) && !targetEnvironment(macCatalyst) && canImport(SwiftUI)
import ExternalDisplayKit
import SwiftUI

/// Registers the iOS 27 external-display scene accessory from inside a SwiftUI hierarchy (a zero-size child
/// view controller of the view it is attached to), so SwiftUI apps get external scenes through
/// ``ExternalDisplaySceneDelegate`` — and so through the engine's mode, overscan and lifecycle handling —
/// rather than a bare system-presented view.
///
/// ```swift
/// ContentView()
///     .background(ExternalDisplayAccessoryHost())
/// ```
///
/// `View.externalDisplay(configuration:content:placeholder:)` adds one for you.
@available(iOS 27.0, *)
public struct ExternalDisplayAccessoryHost: UIViewControllerRepresentable {
    /// Whether the app wants its content on the display (the registration's `isEnabled`); `nil` follows
    /// ``ExternalDisplayController/isExternalContentEnabled``.
    public var isEnabled: Bool?

    /// Creates the host.
    public init(isEnabled: Bool? = nil) { self.isEnabled = isEnabled }

    /// Makes the registering view controller.
    public func makeUIViewController(context: Context) -> AccessoryRegisteringViewController {
        AccessoryRegisteringViewController()
    }

    /// Keeps `isEnabled` in step.
    public func updateUIViewController(_ controller: AccessoryRegisteringViewController, context: Context) {
        if let isEnabled { controller.accessory?.isEnabled = isEnabled }
    }

    /// The view controller that holds the registration while it is in the hierarchy.
    @MainActor
    public final class AccessoryRegisteringViewController: UIViewController {
        /// The registration, once the view has loaded.
        public private(set) var accessory: ExternalDisplayAccessory?

        /// Registers the accessory.
        public override func viewDidLoad() {
            super.viewDidLoad()
            accessory = ExternalDisplayAccessory(registeringOn: self)
        }
    }
}
#endif
