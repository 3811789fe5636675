// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
// UIKit's classes are main-actor isolated (NS_SWIFT_UI_ACTOR); so are these.
@_exported import Foundation
@_exported import ObjectiveC
@_exported import QuartzCore

// MARK: Geometry

public struct UIEdgeInsets: Hashable, Sendable {
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }
    public static var zero: UIEdgeInsets { UIEdgeInsets() }
}

// MARK: Application

@MainActor open class UIResponder: NSObject {
    public override init() { fatalError() }
}

@MainActor open class UIApplication: UIResponder {
    open class var shared: UIApplication { fatalError() }
    open var connectedScenes: Set<UIScene> { fatalError() }
    @available(iOS 13.0, *) open var openSessions: Set<UISceneSession> { fatalError() }
    @available(iOS 13.0, *) open var supportsMultipleScenes: Bool { fatalError() }
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name("UIApplicationDidEnterBackgroundNotification")
    nonisolated public static let willEnterForegroundNotification = NSNotification.Name("UIApplicationWillEnterForegroundNotification")
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name("UIApplicationDidBecomeActiveNotification")
    nonisolated public static let willResignActiveNotification = NSNotification.Name("UIApplicationWillResignActiveNotification")
    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

@MainActor public protocol UIApplicationDelegate: NSObjectProtocol {
    var window: UIWindow? { get set }
    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    @available(iOS 13.0, *)
    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                     options: UIScene.ConnectionOptions) -> UISceneConfiguration
}
extension UIApplicationDelegate {
    public var window: UIWindow? { get { nil } set {} }
    public func application(_ application: UIApplication,
                            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool { true }
    public func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                            options: UIScene.ConnectionOptions) -> UISceneConfiguration { fatalError() }
}

// MARK: Scenes

@available(iOS 13.0, *)
@MainActor open class UIScene: UIResponder {
    open var session: UISceneSession { fatalError() }
    open var delegate: (any UISceneDelegate)? { get { fatalError() } set {} }
    open var title: String! { get { fatalError() } set {} }
    open var activationState: UIScene.ActivationState { fatalError() }
    public enum ActivationState: Int, Sendable {
        case unattached = -1, foregroundActive = 0, foregroundInactive = 1, background = 2
    }
    @MainActor open class ConnectionOptions: NSObject {
        @available(iOS 27.0, *) @available(macCatalyst, unavailable) open var sceneAccessoryUserInfo: Any? { fatalError() }
    }
    nonisolated public static let willConnectNotification = NSNotification.Name("UISceneWillConnectNotification")
    nonisolated public static let didDisconnectNotification = NSNotification.Name("UISceneDidDisconnectNotification")
}

@available(iOS 13.0, *)
@MainActor open class UIWindowScene: UIScene, UITraitEnvironment {
    open var screen: UIScreen { fatalError() }
    open var windows: [UIWindow] { fatalError() }
    open var traitCollection: UITraitCollection { fatalError() }
}

@available(iOS 13.0, *)
@MainActor open class UISceneSession: NSObject {
    open var scene: UIScene? { fatalError() }
    open var role: UISceneSession.Role { fatalError() }
    open var configuration: UISceneConfiguration { fatalError() }
    open var persistentIdentifier: String { fatalError() }

    public struct Role: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
        @available(iOS, introduced: 13.0, deprecated: 16.0, message: "Use windowExternalDisplayNonInteractive")
        public static let windowExternalDisplay = Role(rawValue: "UIWindowSceneSessionRoleExternalDisplay")
        @available(iOS 16.0, *)
        public static let windowExternalDisplayNonInteractive = Role(rawValue: "UIWindowSceneSessionRoleExternalDisplayNonInteractive")
    }
}

@available(iOS 13.0, *)
@MainActor open class UISceneConfiguration: NSObject {
    public init(name: String?, sessionRole: UISceneSession.Role) { fatalError() }
    public override convenience init() { fatalError() }
    open var name: String? { fatalError() }
    open var role: UISceneSession.Role { fatalError() }
    open var sceneClass: AnyClass? { get { fatalError() } set {} }
    open var delegateClass: AnyClass? { get { fatalError() } set {} }
}

@available(iOS 13.0, *)
@MainActor public protocol UISceneDelegate: NSObjectProtocol {
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    func sceneDidDisconnect(_ scene: UIScene)
    func sceneDidBecomeActive(_ scene: UIScene)
    func sceneWillResignActive(_ scene: UIScene)
    func sceneWillEnterForeground(_ scene: UIScene)
    func sceneDidEnterBackground(_ scene: UIScene)
}
extension UISceneDelegate {
    public func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {}
    public func sceneDidDisconnect(_ scene: UIScene) {}
    public func sceneDidBecomeActive(_ scene: UIScene) {}
    public func sceneWillResignActive(_ scene: UIScene) {}
    public func sceneWillEnterForeground(_ scene: UIScene) {}
    public func sceneDidEnterBackground(_ scene: UIScene) {}
}

@available(iOS 13.0, *)
@MainActor public protocol UIWindowSceneDelegate: UISceneDelegate {
    var window: UIWindow? { get set }
    /// Called when the scene's coordinate space, orientation or traits change — always when it moves to
    /// another screen.
    func windowScene(_ windowScene: UIWindowScene, didUpdate previousCoordinateSpace: any UICoordinateSpace,
                     interfaceOrientation previousInterfaceOrientation: UIInterfaceOrientation,
                     traitCollection previousTraitCollection: UITraitCollection)
}
extension UIWindowSceneDelegate {
    public var window: UIWindow? { get { nil } set {} }
    public func windowScene(_ windowScene: UIWindowScene, didUpdate previousCoordinateSpace: any UICoordinateSpace,
                            interfaceOrientation previousInterfaceOrientation: UIInterfaceOrientation,
                            traitCollection previousTraitCollection: UITraitCollection) {}
}

@MainActor public protocol UICoordinateSpace: NSObjectProtocol {
    var bounds: CGRect { get }
}

public enum UIInterfaceOrientation: Int, Sendable {
    case unknown = 0, portrait = 1, portraitUpsideDown = 2, landscapeLeft = 4, landscapeRight = 3
}

// iOS 27 scene accessories. Every declaration compared with Apple's documentation (README: "iOS 27 symbols");
// unavailable on Mac Catalyst as UIKit's headers say (API_UNAVAILABLE(macCatalyst, tvos, visionos, watchos)).
@available(iOS 27.0, *) @available(macCatalyst, unavailable)
@MainActor open class UISceneAccessory: NSObject {
    @available(*, unavailable) public override init() { fatalError() }
    open class func externalNonInteractive(sceneConfiguration: UISceneConfiguration) -> Self { fatalError() }
    open class func externalNonInteractive(sceneConfiguration: UISceneConfiguration, userInfo: Any) -> Self { fatalError() }
}

@available(iOS 27.0, *) @available(macCatalyst, unavailable)
@MainActor open class UISceneAccessoryRegistration: NSObject {
    @available(*, unavailable) public override init() { fatalError() }
    open var isEnabled: Bool { get { fatalError() } set {} }
    open var isAvailable: Bool { fatalError() }
}

// MARK: Screens

@MainActor open class UIScreen: NSObject, UITraitEnvironment {
    @available(iOS, introduced: 3.2, deprecated: 16.0, message: "Use UIApplication.shared.openSessions")
    open class var screens: [UIScreen] { fatalError() }
    // "The device's internal screen"; deprecation announced (API_TO_BE_DEPRECATED), deprecated in iOS 26.
    @available(iOS, introduced: 2.0, deprecated: 26.0, message: "Use a window scene's screen")
    open class var main: UIScreen { fatalError() }
    open var bounds: CGRect { fatalError() }
    open var nativeBounds: CGRect { fatalError() }
    open var scale: CGFloat { fatalError() }
    open var nativeScale: CGFloat { fatalError() }
    open var availableModes: [UIScreenMode] { fatalError() }
    open var preferredMode: UIScreenMode? { fatalError() }
    open var currentMode: UIScreenMode? { get { fatalError() } set {} }
    open var overscanCompensation: UIScreen.OverscanCompensation { get { fatalError() } set {} }
    open var overscanCompensationInsets: UIEdgeInsets { fatalError() }
    open var mirrored: UIScreen? { fatalError() }
    // Deprecation announced (API_TO_BE_DEPRECATED) in favour of the sceneCaptureState trait.
    @available(iOS, introduced: 11.0, deprecated: 100000, message: "Use the sceneCaptureState trait")
    open var isCaptured: Bool { fatalError() }
    @available(iOS 10.3, *) open var maximumFramesPerSecond: Int { fatalError() }
    open var traitCollection: UITraitCollection { fatalError() }
    open func displayLink(withTarget target: Any, selector sel: Selector) -> CADisplayLink? { fatalError() }

    @available(iOS, introduced: 3.2, deprecated: 16.0)
    nonisolated public static let didConnectNotification = NSNotification.Name("UIScreenDidConnectNotification")
    @available(iOS, introduced: 3.2, deprecated: 16.0)
    nonisolated public static let didDisconnectNotification = NSNotification.Name("UIScreenDidDisconnectNotification")
    nonisolated public static let modeDidChangeNotification = NSNotification.Name("UIScreenModeDidChangeNotification")
    @available(iOS 11.0, *)
    nonisolated public static let capturedDidChangeNotification = NSNotification.Name("UIScreenCapturedDidChangeNotification")

    public enum OverscanCompensation: Int, Sendable {
        case scale = 0
        case insetBounds = 1
        @available(iOS 9.0, *) case none = 2
        @available(iOS, introduced: 5.0, deprecated: 9.0, message: "Use .none")
        public static var insetApplicationFrame: OverscanCompensation { .none }
    }
}

@MainActor open class UIScreenMode: NSObject {
    open var size: CGSize { fatalError() }
    open var pixelAspectRatio: CGFloat { fatalError() }
}

// MARK: Traits

@MainActor public protocol UITraitEnvironment: NSObjectProtocol {
    var traitCollection: UITraitCollection { get }
}

public enum UIUserInterfaceSizeClass: Int, Sendable {
    case unspecified = 0, compact = 1, regular = 2
}

@available(iOS 17.0, *)
public enum UISceneCaptureState: Int, Sendable {
    case unspecified = -1, inactive = 0, active = 1
}

open class UITraitCollection: NSObject, @unchecked Sendable {
    open var horizontalSizeClass: UIUserInterfaceSizeClass { fatalError() }
    open var verticalSizeClass: UIUserInterfaceSizeClass { fatalError() }
    open var displayScale: CGFloat { fatalError() }
    @available(iOS 17.0, *) open var sceneCaptureState: UISceneCaptureState { fatalError() }
}

// MARK: Views and windows

@MainActor open class UIView: UIResponder {
    public init(frame: CGRect) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open var frame: CGRect { get { fatalError() } set {} }
    open var bounds: CGRect { get { fatalError() } set {} }
    open var backgroundColor: UIColor? { get { fatalError() } set {} }
    open var isHidden: Bool { get { fatalError() } set {} }
    open var contentScaleFactor: CGFloat { get { fatalError() } set {} }
    open var autoresizingMask: UIView.AutoresizingMask { get { fatalError() } set {} }
    open var tintColor: UIColor! { get { fatalError() } set {} }
    open var window: UIWindow? { fatalError() }
    open var safeAreaInsets: UIEdgeInsets { fatalError() }
    open var subviews: [UIView] { fatalError() }
    open func addSubview(_ view: UIView) {}
    open func removeFromSuperview() {}
    open func layoutSubviews() {}
    open func setNeedsLayout() {}

    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    }
}

@MainActor open class UIWindow: UIView {
    public override init(frame: CGRect) { fatalError() }
    @available(iOS 13.0, *) public init(windowScene: UIWindowScene) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    // The setter is deprecated since iOS 13 (use windowScene); left out so no use of it compiles.
    open var screen: UIScreen { fatalError() }
    @available(iOS 13.0, *) open var windowScene: UIWindowScene? { get { fatalError() } set {} }
    open var rootViewController: UIViewController? { get { fatalError() } set {} }
    open var isKeyWindow: Bool { fatalError() }
    open func makeKeyAndVisible() {}
    open func makeKey() {}
}

@MainActor open class UIViewController: UIResponder {
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    public convenience override init() { fatalError() }
    open var view: UIView! { get { fatalError() } set {} }
    open var additionalSafeAreaInsets: UIEdgeInsets { get { fatalError() } set {} }
    open var traitCollection: UITraitCollection { fatalError() }
    open var children: [UIViewController] { fatalError() }
    open func loadView() {}
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func addChild(_ childController: UIViewController) {}
    open func removeFromParent() {}
    open func didMove(toParent parent: UIViewController?) {}
    open func willMove(toParent parent: UIViewController?) {}
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {}
    @available(iOS 27.0, *) @available(macCatalyst, unavailable)
    open func registerSceneAccessory(_ accessory: UISceneAccessory) -> UISceneAccessoryRegistration { fatalError() }
    @available(iOS 27.0, *) @available(macCatalyst, unavailable)
    open func unregisterSceneAccessory(_ registration: UISceneAccessoryRegistration) {}
}

@MainActor open class UINavigationController: UIViewController {
    public init(rootViewController: UIViewController) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {}
}

@MainActor open class UILabel: UIView {
    open var text: String? { get { fatalError() } set {} }
    open var textColor: UIColor! { get { fatalError() } set {} }
    open var font: UIFont! { get { fatalError() } set {} }
    open var textAlignment: NSTextAlignment { get { fatalError() } set {} }
    open var numberOfLines: Int { get { fatalError() } set {} }
    open var adjustsFontSizeToFitWidth: Bool { get { fatalError() } set {} }
}

@MainActor open class UIImageView: UIView {
    public init(image: UIImage?) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open var image: UIImage? { get { fatalError() } set {} }
    open var contentMode: UIView.ContentMode { get { fatalError() } set {} }
}

extension UIView {
    public enum ContentMode: Int, Sendable { case scaleToFill = 0, scaleAspectFit = 1, scaleAspectFill = 2 }
}

public enum NSTextAlignment: Int, Sendable { case left = 0, center = 1, right = 2, justified = 3, natural = 4 }

open class UIColor: NSObject, @unchecked Sendable {
    public init(white: CGFloat, alpha: CGFloat) { fatalError() }
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { fatalError() }
    open class var black: UIColor { fatalError() }
    open class var white: UIColor { fatalError() }
    open class var darkGray: UIColor { fatalError() }
    open class var lightGray: UIColor { fatalError() }
}

open class UIFont: NSObject, @unchecked Sendable {
    open class func systemFont(ofSize fontSize: CGFloat, weight: UIFont.Weight) -> UIFont { fatalError() }
    open class func systemFont(ofSize fontSize: CGFloat) -> UIFont { fatalError() }
    public struct Weight: Hashable, Sendable, RawRepresentable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public static let regular = Weight(rawValue: 0)
        public static let semibold = Weight(rawValue: 0.3)
        public static let bold = Weight(rawValue: 0.4)
    }
}

open class UIImage: NSObject, @unchecked Sendable {
    public init?(named name: String) { fatalError() }
    public init?(contentsOfFile path: String) { fatalError() }
    open var size: CGSize { fatalError() }
}

// MARK: Device (UIDevice.h)

public enum UIUserInterfaceIdiom: Int, @unchecked Sendable {
    case unspecified = -1
    case phone = 0
    case pad = 1
    case tv = 2
    case carPlay = 3
    case mac = 5
    case vision = 6
}

@MainActor open class UIDevice: NSObject {
    open class var current: UIDevice { fatalError() }
    open var name: String { fatalError() }
    open var model: String { fatalError() }
    open var systemName: String { fatalError() }
    open var systemVersion: String { fatalError() }
    open var userInterfaceIdiom: UIUserInterfaceIdiom { fatalError() }
}

// MARK: Sharing (UIActivityViewController.h, UIActivity.h)

@MainActor open class UIActivity: NSObject {}

@MainActor open class UIActivityViewController: UIViewController {
    public init(activityItems: [Any], applicationActivities: [UIActivity]?) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
}
