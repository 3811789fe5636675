// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
@_exported import Foundation
@_exported import ObjectiveC

// MARK: Key-value observing (Foundation's Objective-C-only part, absent from Foundation on Linux)

public protocol _KeyValueCodingAndObserving {}
extension NSObject: _KeyValueCodingAndObserving {}

public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 4)
}

public struct NSKeyValueObservedChange<Value> {
    public let newValue: Value?
    public let oldValue: Value?
}

open class NSKeyValueObservation: NSObject, @unchecked Sendable {
    open func invalidate() {}
}

extension _KeyValueCodingAndObserving {
    public func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation { fatalError() }
}

// MARK: AVPlayer

open class AVPlayerItem: NSObject {
    public convenience init(url URL: URL) { fatalError() }
}

// Apple's current documentation: `@MainActor class AVPlayer`, with the external-playback properties
// `nonisolated` (SDKs before iOS 18 declare no isolation; this is the stricter of the two).
@MainActor open class AVPlayer: NSObject {
    public override init() { fatalError() }
    public init(url URL: URL) { fatalError() }
    public init(playerItem item: AVPlayerItem?) { fatalError() }
    open var rate: Float { get { fatalError() } set {} }
    open func play() {}
    open func pause() {}
    @available(iOS 6.0, *) nonisolated open var allowsExternalPlayback: Bool { get { fatalError() } set {} }
    @available(iOS 6.0, *) nonisolated open var isExternalPlaybackActive: Bool { fatalError() }
    @available(iOS 6.0, *) nonisolated open var usesExternalPlaybackWhileExternalScreenIsActive: Bool { get { fatalError() } set {} }
    @available(iOS 6.0, *) nonisolated open var externalPlaybackVideoGravity: AVLayerVideoGravity { get { fatalError() } set {} }
}

public struct AVLayerVideoGravity: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
    public static let resizeAspectFill = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspectFill")
    public static let resize = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResize")
}

// MARK: AVAudioSession

open class AVAudioSession: NSObject {
    open class func sharedInstance() -> AVAudioSession { fatalError() }

    public struct Category: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
    }
    public struct Mode: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
    }
    public enum RouteSharingPolicy: UInt, Sendable {
        case `default` = 0, longFormAudio = 1, independent = 2, longFormVideo = 3
    }
    public struct CategoryOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mixWithOthers = CategoryOptions(rawValue: 1)
    }
    public struct Port: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let airPlay = Port(rawValue: "AirPlay")
        public static let HDMI = Port(rawValue: "HDMI")
    }

    @available(iOS 10.0, *)
    open func setCategory(_ category: AVAudioSession.Category, mode: AVAudioSession.Mode,
                          options: AVAudioSession.CategoryOptions = []) throws {}
    @available(iOS 11.0, *)
    open func setCategory(_ category: AVAudioSession.Category, mode: AVAudioSession.Mode,
                          policy: AVAudioSession.RouteSharingPolicy,
                          options: AVAudioSession.CategoryOptions = []) throws {}
    open func setActive(_ active: Bool, options: AVAudioSession.SetActiveOptions = []) throws {}
    public struct SetActiveOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }
    open var category: AVAudioSession.Category { fatalError() }
    open var currentRoute: AVAudioSessionRouteDescription { fatalError() }
}

open class AVAudioSessionRouteDescription: NSObject {
    open var outputs: [AVAudioSessionPortDescription] { fatalError() }
}

open class AVAudioSessionPortDescription: NSObject {
    open var portType: AVAudioSession.Port { fatalError() }
    open var portName: String { fatalError() }
}
