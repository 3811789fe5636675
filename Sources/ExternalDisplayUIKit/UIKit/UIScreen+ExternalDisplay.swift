#if canImport(UIKit)
import ExternalDisplayKit
import UIKit

extension UIScreen {
    /// The screen's attributes as plain values, ready for ``ScreenDescription/display(id:name:connection:)``.
    ///
    /// ```swift
    /// let display = windowScene.screen.externalDisplayDescription.display(id: "screen-1", name: "TV")
    /// ```
    public var externalDisplayDescription: ScreenDescription {
        func describe(_ mode: UIScreenMode) -> ScreenDescription.Mode {
            ScreenDescription.Mode(width: Double(mode.size.width), height: Double(mode.size.height),
                                   pixelAspectRatio: Double(mode.pixelAspectRatio))
        }
        let insets = overscanCompensationInsets
        return ScreenDescription(
            modes: availableModes.map(describe),
            preferredMode: preferredMode.map(describe),
            currentMode: currentMode.map(describe),
            boundsWidth: Double(bounds.width), boundsHeight: Double(bounds.height),
            overscanInsets: .init(top: Double(insets.top), left: Double(insets.left),
                                  bottom: Double(insets.bottom), right: Double(insets.right)),
            maximumFramesPerSecond: maximumFramesPerSecond,
            scale: Double(scale))
    }

    /// The screen's own mode object for an engine mode, found by size and pixel aspect ratio (UIKit only
    /// accepts one of `availableModes` as `currentMode`).
    public func screenMode(matching mode: DisplayMode) -> UIScreenMode? {
        externalDisplayDescription.indexOfMode(matching: mode).map { availableModes[$0] }
    }
}

@available(iOS 13.0, *)
extension SceneRole {
    /// The package's name for a UIKit session role.
    ///
    /// ```swift
    /// SceneRole(session.role).isExternal // true for both external-display roles
    /// ```
    public init(_ role: UISceneSession.Role) { self.init(rawValue: role.rawValue) }
}

@available(iOS 13.0, *)
extension UIScene {
    /// Whether this scene shows the app's content on an external display (either external-display role).
    ///
    /// Use it wherever code looks for "the" window — HUDs, toasts, alerts — so it never lands on the TV:
    ///
    /// ```swift
    /// let appScenes = UIApplication.shared.connectedScenes.filter { !$0.isExternalDisplayScene }
    /// ```
    public var isExternalDisplayScene: Bool { SceneRole(session.role).isExternal }
}
#endif
