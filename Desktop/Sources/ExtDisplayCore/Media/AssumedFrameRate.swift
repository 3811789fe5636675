/// What the application assumes where a video file does not say its frame rate (a container without a rate, a
/// variable-rate stream): one value for every player, every slide clip and the decoder's last-frame seek.
public enum AssumedFrameRate {
    /// Frames per second assumed when a file does not say (the most common rate of screen recordings and web
    /// video; the scheduler repeats or drops frames on a display's refresh either way).
    public static let framesPerSecond: Double = 30

    /// The file's rate when it says one that is finite and positive, else ``framesPerSecond``.
    public static func rate(_ reported: Double?) -> Double {
        guard let reported, reported.isFinite, reported > 0 else { return framesPerSecond }
        return reported
    }
}
