/// Why a ``VideoFrameScheduler`` cannot be made for a stream and a display.
public enum FrameSchedulingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stream's frame rate is not a finite number in ``VideoFrameScheduler/framesPerSecondRange``.
    case invalidFrameRate(Double)
    /// The display's refresh rate is not a finite number in ``VideoFrameScheduler/refreshRateRange``.
    case invalidRefreshRate(Double)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .invalidFrameRate(let value):
            "the video's frame rate \(value) is not usable: give a finite rate between "
                + "\(VideoFrameScheduler.framesPerSecondRange.lowerBound) and "
                + "\(VideoFrameScheduler.framesPerSecondRange.upperBound) frames per second "
                + "(24000/1001 for 23.976 fps; for a variable-rate stream, its average)"
        case .invalidRefreshRate(let value):
            "the display's refresh rate \(value) is not usable: give a finite rate between "
                + "\(VideoFrameScheduler.refreshRateRange.lowerBound) and "
                + "\(VideoFrameScheduler.refreshRateRange.upperBound) Hz (the mode's rate; 60 when unknown)"
        }
    }
}
