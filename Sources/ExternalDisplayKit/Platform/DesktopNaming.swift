/// The decisions every desktop backend (X11 RandR, Wayland) shares when it turns an output the system reports
/// into a ``Display``: its connection kind, a display name fit for one line, and which output is the main one.
/// Platform layers only translate what they read; what it means is decided here, once.
///
/// ```swift
/// DesktopNaming.connection(forOutput: "HDMI-A-1")                       // .hdmi
/// DesktopNaming.displayName(description: "Dell Inc. DELL U2415 (DP-1)",
///                           model: "DELL U2415", outputName: "DP-1")    // "Dell Inc. DELL U2415"
/// ```
public enum DesktopNaming {
    /// The connection kind an output name implies: `HDMI-1`/`HDMI-A-1` → hdmi, `DP-2` → displayPort, `VGA` → vga,
    /// `DVI-I-1` → dvi, `eDP-1`/`LVDS-1`/`DSI-1` → builtIn, `DUMMY0`/`VIRTUAL1`/`HEADLESS-1`/`WL-1`/`X11-1`/
    /// `Meta-0` (Mutter's virtual monitors) → virtual, `USB…` → usbc; anything else → hdmi.
    public static func connection(forOutput name: String) -> ConnectionKind {
        let upper = name.uppercased()
        let table: [(String, ConnectionKind)] = [
            ("EDP", .builtIn), ("LVDS", .builtIn), ("DSI", .builtIn), ("HDMI", .hdmi), ("DP", .displayPort),
            ("DISPLAYPORT", .displayPort), ("VGA", .vga), ("DVI", .dvi), ("DUMMY", .virtual),
            ("VIRTUAL", .virtual), ("HEADLESS", .virtual), ("WL-", .virtual), ("X11-", .virtual), ("META-", .virtual),
            ("USB", .usbc),
        ]
        return table.first { upper.hasPrefix($0.0) }?.1 ?? .hdmi
    }

    /// A name fit for one line of output: control characters, quotes and backslashes removed, spaces collapsed.
    public static func sanitise(_ name: String) -> String {
        let kept = name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" }
        return String(String.UnicodeScalarView(kept)).split(separator: " ").joined(separator: " ")
    }

    /// The display name of a Wayland output: the compositor's description without the ` (OUTPUT)` suffix
    /// compositors append, else the monitor model, else the output name — each sanitised, the first non-empty.
    public static func displayName(description: String?, model: String?, outputName: String) -> String {
        var described = description.map(sanitise) ?? ""
        let suffix = "(\(outputName))"
        if described.hasSuffix(suffix) { described = sanitise(String(described.dropLast(suffix.count))) }
        for candidate in [described, model.map(sanitise) ?? ""] where !candidate.isEmpty {
            return candidate
        }
        return outputName
    }

    /// Which of `outputs` is the main display, the same rule on every desktop: the output the system ranks
    /// first (X11 RandR's primary output, Mutter's primary logical monitor, KWin's output priority 1) — the
    /// lowest ``MainDisplayCandidate/priority`` of 1 or more, the first of equals; where the system ranks none,
    /// the first built-in panel (eDP, LVDS, DSI), else the output at the origin of the desktop, else the first.
    /// Nil for an empty list. Every other output is an external display.
    ///
    /// ```swift
    /// DesktopNaming.mainIndex(of: [MainDisplayCandidate(connection: .hdmi, x: 0, y: 0),
    ///                              MainDisplayCandidate(connection: .hdmi, x: 1920, y: 0, priority: 1)])  // 1
    /// ```
    public static func mainIndex(of outputs: [MainDisplayCandidate]) -> Int? {
        let ranked = outputs.indices.filter { (outputs[$0].priority ?? 0) >= 1 }
        if let first = ranked.min(by: { (outputs[$0].priority ?? 0, $0) < (outputs[$1].priority ?? 0, $1) }) {
            return first
        }
        return outputs.firstIndex { $0.connection == .builtIn }
            ?? outputs.firstIndex { $0.x == 0 && $0.y == 0 }
            ?? (outputs.isEmpty ? nil : 0)
    }
}

/// One output as `DesktopNaming.mainIndex(of:)` weighs it: its connection kind, its
/// top-left corner in the desktop, and the system's own ranking where it has one.
public struct MainDisplayCandidate: Hashable, Sendable {
    /// The connection kind (a built-in panel is main when the system ranks nothing).
    public var connection: ConnectionKind
    /// The top-left corner in the desktop's coordinates.
    public var x: Int
    /// The top-left corner in the desktop's coordinates.
    public var y: Int
    /// The system's ranking of this output, 1 first: 1 for RandR's primary output and for Mutter's primary
    /// logical monitor, KWin's output priority as it reports it; nil (or anything below 1) where the system
    /// ranks nothing.
    public var priority: Int?

    /// A candidate.
    public init(connection: ConnectionKind, x: Int, y: Int, priority: Int? = nil) {
        self.connection = connection
        self.x = x
        self.y = y
        self.priority = priority
    }
}
