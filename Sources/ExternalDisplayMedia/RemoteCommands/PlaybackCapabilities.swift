import Foundation

/// What the app can do beyond the current item: the part of remote-command routing the session cannot know.
///
/// ```swift
/// var capabilities = PlaybackCapabilities(hasNextItem: queue.hasNext, hasPreviousItem: queue.hasPrevious)
/// capabilities.skipIntervals = [15]
/// ```
public struct PlaybackCapabilities: Sendable, Hashable, Codable {
    /// Whether the app takes remote commands at all. False while it only plays incidental media (an intro
    /// movie, a video inside an article): then remote controls belong to the user's music app.
    public var receivesRemoteCommands: Bool
    /// Whether there is an item after the current one.
    public var hasNextItem: Bool
    /// Whether there is an item before the current one.
    public var hasPreviousItem: Bool
    /// Whether the player can move the position (also requires a seekable item).
    public var canSeek: Bool
    /// The speeds the player supports; a single value means the speed cannot be changed.
    public var supportedRates: ClosedRange<Double>
    /// The intervals offered for skip forward and skip backward, in seconds; empty disables skipping.
    public var skipIntervals: [TimeInterval]

    /// Creates capabilities; the defaults describe a single seekable item at normal speed only.
    public init(receivesRemoteCommands: Bool = true, hasNextItem: Bool = false, hasPreviousItem: Bool = false,
                canSeek: Bool = true, supportedRates: ClosedRange<Double> = 1...1,
                skipIntervals: [TimeInterval] = [15]) {
        self.receivesRemoteCommands = receivesRemoteCommands
        self.hasNextItem = hasNextItem
        self.hasPreviousItem = hasPreviousItem
        self.canSeek = canSeek
        self.supportedRates = supportedRates
        self.skipIntervals = skipIntervals.filter { $0.isFinite && $0 > 0 }
    }
}
