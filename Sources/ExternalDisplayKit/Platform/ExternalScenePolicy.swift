/// The decisions a scene-based platform (UIKit) needs about external-display scenes, made here so they are
/// tested on every platform and the UIKit layer only translates.
///
/// ```swift
/// ExternalScenePolicy.externalRole(forSystemMajorVersion: 15)  // .externalDisplay
/// ExternalScenePolicy.externalRole(forSystemMajorVersion: 17)  // .externalDisplayNonInteractive
/// ExternalScenePolicy.decision(for: .application, presentsExternalContent: true) // .leaveToApp
/// ```
public enum ExternalScenePolicy {
    /// The external-display role a system version connects (and an app therefore declares): the
    /// interactive-named `windowExternalDisplay` before iOS 16, `windowExternalDisplayNonInteractive` from 16.
    public static func externalRole(forSystemMajorVersion major: Int) -> SceneRole {
        major >= 16 ? .externalDisplayNonInteractive : .externalDisplay
    }

    /// What to do with a connecting scene session.
    ///
    /// - `application` scenes are the app's own windows, including the interactive ones Stage Manager puts on
    ///   an external monitor: they are never taken over (and their screen's mode is never changed).
    /// - External roles get the package's scene delegate unless the app does not present external content at
    ///   all, in which case the scene is declined and the system keeps mirroring.
    /// - Anything else (CarPlay, future roles) is left to the app.
    public static func decision(for role: SceneRole, presentsExternalContent: Bool) -> SceneDecision {
        switch role {
        case .externalDisplay, .externalDisplayNonInteractive:
            presentsExternalContent ? .present : .decline
        case .application, .other:
            .leaveToApp
        }
    }

    /// Whether the package may change the mode and overscan compensation of a scene's screen: only for the
    /// external roles, never for an application scene (Stage Manager's interactive windows on a monitor).
    public static func mayConfigureScreen(for role: SceneRole) -> Bool {
        role.isExternal
    }

    /// Which observation path a UIKit app needs. An app with a scene manifest (or SwiftUI) must use scenes:
    /// UIScreen connect notifications inside a scene-based app give a window that never shows (a blank
    /// external screen). Only apps without scenes use the UIScreen path.
    public static func lifecyclePath(requested: LifecyclePathRequest, appUsesScenes: Bool) -> LifecyclePath {
        switch requested {
        case .automatic: appUsesScenes ? .scenes : .screens
        case .scenes: .scenes
        case .screens: appUsesScenes ? .scenes : .screens
        }
    }
}

/// The role of a scene session, in platform-neutral words (`UISceneSession.Role` on iOS).
public enum SceneRole: Hashable, Sendable {
    /// An interactive app window (`windowApplication`), on the device or — with Stage Manager — on a monitor.
    case application
    /// The external-display role of iOS 13–15 (`windowExternalDisplay`, deprecated in iOS 16).
    case externalDisplay
    /// The external-display role of iOS 16 and later (`windowExternalDisplayNonInteractive`).
    case externalDisplayNonInteractive
    /// Any other role, by its raw name.
    case other(String)

    /// The raw value UIKit uses for the role (the Info.plist scene-manifest key).
    public var rawValue: String {
        switch self {
        case .application: "UIWindowSceneSessionRoleApplication"
        case .externalDisplay: "UIWindowSceneSessionRoleExternalDisplay"
        case .externalDisplayNonInteractive: "UIWindowSceneSessionRoleExternalDisplayNonInteractive"
        case .other(let raw): raw
        }
    }

    /// Creates a role from UIKit's raw value.
    public init(rawValue: String) {
        switch rawValue {
        case SceneRole.application.rawValue: self = .application
        case SceneRole.externalDisplay.rawValue: self = .externalDisplay
        case SceneRole.externalDisplayNonInteractive.rawValue: self = .externalDisplayNonInteractive
        default: self = .other(rawValue)
        }
    }

    /// Whether this is one of the two external-display roles (sessions on iOS 16+ report the new one; older
    /// systems the old one, so code must accept both).
    public var isExternal: Bool {
        self == .externalDisplay || self == .externalDisplayNonInteractive
    }
}

/// What a platform does with a connecting scene session.
public enum SceneDecision: Hashable, Sendable {
    /// Give it the package's external-display scene delegate.
    case present
    /// Return a configuration without a delegate: the scene gets no window and the system keeps mirroring.
    case decline
    /// Not an external-display scene: the app's own configuration applies.
    case leaveToApp
}

/// Which path the app asks for.
public enum LifecyclePathRequest: Hashable, Sendable {
    /// Scenes if the app uses scenes, else UIScreen notifications.
    case automatic
    /// Scene sessions with the external-display role.
    case scenes
    /// UIScreen connect/disconnect notifications (apps without scenes only).
    case screens
}

/// How a UIKit platform learns about external displays.
public enum LifecyclePath: Hashable, Sendable {
    /// Scene sessions with the external-display role.
    case scenes
    /// UIScreen connect/disconnect notifications plus the screens present at launch.
    case screens
}
