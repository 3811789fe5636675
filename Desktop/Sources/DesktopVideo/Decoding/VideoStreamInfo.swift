/// What the decoder found out about a video when it opened it (Codable: the decoder process sends it).
public struct VideoStreamInfo: Sendable, Hashable, Codable {
    /// Picture width in pixels.
    public var width: Int
    /// Picture height in pixels.
    public var height: Int
    /// Frames per second from the stream's caps; `nil` when the stream says it is variable or does not say.
    public var framesPerSecond: Double?
    /// The length in seconds; `nil` when the container does not say (a live or damaged file).
    public var duration: Double?
    /// The GStreamer element that decodes the pictures (`vp8dec`, `vp9dec`, `openh264dec` …), if known.
    public var decoder: String?
    /// Whether ``decoder`` is a hardware decoder (VA-API, V4L2 …).
    public var decoderIsHardware: Bool

    /// Creates the description.
    public init(width: Int, height: Int, framesPerSecond: Double?, duration: Double?, decoder: String? = nil,
                decoderIsHardware: Bool = false) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.duration = duration
        self.decoder = decoder
        self.decoderIsHardware = decoderIsHardware
    }

    /// Width divided by height (1 for a degenerate size).
    public var aspectRatio: Double { height > 0 && width > 0 ? Double(width) / Double(height) : 1 }
}
