// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
@_exported import Foundation
@_exported import ObjectiveC

/// A range of frame rates (iOS 15).
@available(iOS 15.0, *)
public struct CAFrameRateRange: Hashable, Sendable {
    public init(minimum: Float, maximum: Float, preferred: Float? = nil) { fatalError() }
    public init() { fatalError() }
    public static var `default`: CAFrameRateRange { fatalError() }
    public var minimum: Float { get { fatalError() } set {} }
    public var maximum: Float { get { fatalError() } set {} }
    public var preferred: Float? { get { fatalError() } set {} }
}

/// A timer synchronised to a display's refresh.
// Not `open`: apps use display links, they do not subclass them.
public class CADisplayLink: NSObject {
    public init(target: Any, selector sel: Selector) { fatalError() }
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {}
    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {}
    public func invalidate() {}
    public var timestamp: CFTimeInterval { fatalError() }
    public var duration: CFTimeInterval { fatalError() }
    @available(iOS 10.0, *)
    public var targetTimestamp: CFTimeInterval { fatalError() }
    public var isPaused: Bool { get { fatalError() } set {} }
    @available(iOS, introduced: 3.1, deprecated: 10.0)
    public var frameInterval: Int { get { fatalError() } set {} }
    @available(iOS 10.0, *)
    public var preferredFramesPerSecond: Int { get { fatalError() } set {} }
    @available(iOS 15.0, *)
    public var preferredFrameRateRange: CAFrameRateRange { get { fatalError() } set {} }
}

public typealias CFTimeInterval = Double

public func CACurrentMediaTime() -> CFTimeInterval { fatalError() }
