import ExternalDisplayKit

/// Real-world displays from the reference material, by name: the projector in a meeting room, a composite
/// TV, HD TVs that overscan, 4K monitors, an Apple TV over AirPlay.
///
/// The names are part of the package's interface (scenarios use them). The values are facts about those
/// displays and live in this one table.
///
/// ```swift
/// let tv = DisplayCatalog.display(named: "hdmi-tv-720p", id: "tv")!
/// tv.overscan // 0.025
/// ```
public enum DisplayCatalog {
    /// One catalog entry.
    public struct Preset: Sendable {
        /// The preset's name.
        public var name: String
        /// A human name for the display.
        public var displayName: String
        /// Connection kind.
        public var connection: ConnectionKind
        /// Modes, ascending.
        public var modes: [DisplayMode]
        /// Preferred mode.
        public var preferred: DisplayMode
        /// Fraction of each edge cropped.
        public var overscan: Double
    }

    private static func modes(_ sizes: [(Int, Int)], refresh: Double = 60, aspect: Double = 1) -> [DisplayMode] {
        sizes.map { DisplayMode(width: $0.0, height: $0.1, pixelAspectRatio: aspect, refreshRate: refresh) }
    }

    private static func preset(_ name: String, _ displayName: String, _ connection: ConnectionKind,
                               _ modes: [DisplayMode], preferred: (Int, Int), overscan: Double) -> Preset {
        let preferredMode = modes.last { $0.size == PixelSize(width: preferred.0, height: preferred.1) }!
        return Preset(name: name, displayName: displayName, connection: connection, modes: modes,
                      preferred: preferredMode, overscan: overscan)
    }

    /// Every external-display preset, in a fixed order.
    public static let presets: [Preset] = [
        preset("vga-projector-xga", "VGA projector (XGA)", .vga,
               modes([(640, 480), (800, 600), (1024, 768)]), preferred: (1024, 768), overscan: 0),
        preset("composite-ntsc", "Composite TV (NTSC)", .composite,
               modes([(720, 480)], refresh: 59.94, aspect: 8.0 / 9.0), preferred: (720, 480), overscan: 0.05),
        preset("composite-pal", "Composite TV (PAL)", .composite,
               modes([(720, 576)], refresh: 50, aspect: 16.0 / 15.0), preferred: (720, 576), overscan: 0.05),
        preset("hdmi-tv-720p", "HD TV (720p)", .hdmi,
               modes([(640, 480), (720, 480), (1280, 720)]), preferred: (1280, 720), overscan: 0.025),
        preset("hdmi-tv-1080p", "Full HD TV (1080p)", .hdmi,
               modes([(640, 480), (720, 480), (1280, 720), (1920, 1080)]), preferred: (1920, 1080),
               overscan: 0.025),
        preset("hdmi-monitor-1080p", "Full HD monitor", .hdmi,
               modes([(640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 1024), (1920, 1080)]),
               preferred: (1920, 1080), overscan: 0),
        preset("usbc-monitor-4k", "4K monitor (USB-C)", .usbc,
               modes([(1280, 720), (1920, 1080), (2560, 1440), (3840, 2160)]), preferred: (3840, 2160),
               overscan: 0),
        preset("hdmi-tv-4k-30hz", "4K TV (30 Hz at 4K)", .hdmi,
               modes([(1280, 720), (1920, 1080)]) + modes([(3840, 2160)], refresh: 30),
               preferred: (1920, 1080), overscan: 0.025),
        preset("airplay-appletv-1080p", "Apple TV (AirPlay)", .airplay,
               modes([(1280, 720), (1920, 1080)]), preferred: (1920, 1080), overscan: 0),
        preset("ultrawide-monitor", "Ultrawide monitor", .displayPort,
               modes([(1920, 1080), (2560, 1080), (3440, 1440)]), preferred: (3440, 1440), overscan: 0),
    ]

    /// The preset with this name.
    public static func preset(named name: String) -> Preset? { presets.first { $0.name == name } }

    /// A display built from a preset, in its preferred mode unless `current` says otherwise.
    public static func display(named name: String, id: DisplayID? = nil, current: PixelSize? = nil) -> Display? {
        guard let p = preset(named: name) else { return nil }
        let currentMode = current.flatMap { size in p.modes.first { $0.size == size } } ?? p.preferred
        return Display(id: id ?? DisplayID(name), name: p.displayName, connection: p.connection, modes: p.modes,
                       preferredMode: p.preferred, currentMode: currentMode, overscan: p.overscan)
    }

    /// The device (main display) the app runs on.
    public struct Device: Sendable, Hashable {
        /// Preset name.
        public var name: String
        /// Size in points.
        public var points: PixelSize
        /// Pixels per point.
        public var scale: Double
    }

    /// Device presets: `ipad` (820×1180 points at 2×), `iphone` (393×852 at 3×), `laptop` (1920×1080 at 1×).
    public static let devices: [Device] = [
        Device(name: "ipad", points: PixelSize(width: 820, height: 1180), scale: 2),
        Device(name: "iphone", points: PixelSize(width: 393, height: 852), scale: 3),
        Device(name: "laptop", points: PixelSize(width: 1920, height: 1080), scale: 1),
    ]

    /// The device preset with this name.
    public static func device(named name: String) -> Device? { devices.first { $0.name == name } }
}
