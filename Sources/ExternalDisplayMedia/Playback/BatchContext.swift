import Foundation

/// What one batch has done so far, and the state before it.
struct BatchContext {
    let before: VideoPlayback
    var now: TimeInterval = 0
    var effects: [VideoPlaybackEffect] = []
    /// An item was loaded in this batch.
    var loaded = false
    /// The position jumped (seek, stop, restart after the end).
    var jumped = false
    /// The item's metadata changed (its duration was found).
    var metadataChanged = false

    init(before: VideoPlayback) { self.before = before }
}
