/// How a display is attached: the cable or wireless link, or built in.
///
/// The raw values are the names scenarios and traces use.
public enum ConnectionKind: String, Sendable, CaseIterable, Codable {
    /// The device's own panel (a laptop's eDP/LVDS, an iPad's screen).
    case builtIn = "builtin"
    /// HDMI, including Lightning and USB-C digital AV adapters.
    case hdmi
    /// Analog VGA, typical of projectors.
    case vga
    /// DVI.
    case dvi
    /// Composite video (NTSC/PAL), non-square pixels and heavy overscan.
    case composite
    /// Component video.
    case component
    /// DisplayPort.
    case displayPort = "displayport"
    /// USB-C with DisplayPort alternate mode.
    case usbc
    /// AirPlay to an Apple TV or a compatible receiver.
    case airplay
    /// A virtual or dummy output (tests, headless servers).
    case virtual
    /// A display reached over the network that is not AirPlay: a browser page showing the app's external
    /// content (its viewport is its mode; closing the page or losing the connection is a disconnect).
    case network
}
