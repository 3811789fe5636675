/// What a ``VideoFrameScheduler`` has done so far: the numbers a benchmark or an on-screen statistics line
/// reports.
///
/// For continuous forward playback, `presented + dropped` equals the number of frames the position passed
/// through, counted from the first frame presented after each seek, load or return to visibility.
public struct FrameCounters: Sendable, Hashable {
    /// Vsyncs that showed a new frame.
    public var presented = 0
    /// Vsyncs that kept the frame already on screen.
    public var held = 0
    /// Frames passed over without being shown: late frames (a vsync was missed) and, when the stream's rate is
    /// above the display's refresh, the frames the refresh has no room for.
    public var dropped = 0
    /// Vsyncs that showed nothing new because playback was paused, hidden or not loaded.
    public var idle = 0
    /// Vsync timestamps refused as non-finite, out of range, repeated or out of order.
    public var rejectedTimestamps = 0

    /// Creates counters at zero.
    public init() {}
}
