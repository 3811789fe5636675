#if !os(Linux)
import ExternalDisplayMedia
import Foundation

/// A Now Playing session served as an MPRIS player on the D-Bus session bus — on Linux.
///
/// On other platforms this type keeps the same interface so that code embedding it compiles everywhere, but
/// ``start(name:identity:capabilities:clock:busAddress:onCommand:)`` always throws
/// ``MPRISError/unsupportedPlatform``. Use the platform's own Now Playing binding there.
public final class MPRISPlayer: NowPlayingPublisher, @unchecked Sendable {
    /// The bus name the player would own, `org.mpris.MediaPlayer2.<name>`.
    public let busName: String
    /// The clock used for positions.
    public let clock: any MediaClock
    /// Remote commands; never yields on this platform.
    public let commands: AsyncStream<ReceivedRemoteCommand>

    private init() {
        busName = ""
        clock = MonotonicMediaClock()
        commands = AsyncStream { $0.finish() }
    }

    /// Always throws ``MPRISError/unsupportedPlatform``: MPRIS exists only on Linux.
    public static func start(name: String, identity: String,
                             capabilities: PlaybackCapabilities = PlaybackCapabilities(),
                             clock: any MediaClock = MonotonicMediaClock(),
                             busAddress: String? = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
                             onCommand: (@Sendable (ReceivedRemoteCommand) -> Void)? = nil) throws(MPRISError) -> MPRISPlayer {
        throw .unsupportedPlatform
    }

    /// What the player shows; always empty on this platform.
    public var model: MPRISPlayerModel { MPRISPlayerModel(identity: "") }

    /// Why the player stopped; always ``MPRISError/unsupportedPlatform`` on this platform.
    public var failure: MPRISError? { .unsupportedPlatform }

    /// Does nothing on this platform.
    public func publish(_ publication: NowPlayingPublication) {}

    /// Does nothing on this platform.
    public func update(capabilities: PlaybackCapabilities) {}

    /// Does nothing on this platform.
    public func update(identity: String) {}

    /// Does nothing on this platform.
    public func update(volume: Double) {}

    /// Does nothing on this platform.
    public func onVolumeSet(_ handler: @escaping @Sendable (Double) -> Void) {}

    /// Does nothing on this platform.
    public func onQuit(_ handler: @escaping @Sendable () -> Void) {}

    /// Does nothing on this platform.
    public func stop() {}
}
#endif
