/// An external display a video can play on, as the platform names it.
public struct VideoDisplay: Sendable, Hashable, Codable {
    /// The platform's stable identifier (an output name, a browser page's id).
    public var id: String
    /// The name shown to the user ("Living Room TV", "HDMI-1").
    public var name: String

    /// Creates a display.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
