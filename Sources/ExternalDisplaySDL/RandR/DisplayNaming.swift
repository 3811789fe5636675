import ExternalDisplayKit

/// Names and kinds from what X reports: EDID monitor names, sanitised display names, connection kinds.
public enum DisplayNaming {
    /// The connection kind an output name implies: `HDMI-1` → hdmi, `DP-2` → displayPort, `VGA` → vga,
    /// `DVI-I-1` → dvi, `eDP-1`/`LVDS-1` → builtIn, `DUMMY0`/`VIRTUAL1` → virtual; anything else → hdmi.
    public static func connection(forOutput name: String) -> ConnectionKind {
        let upper = name.uppercased()
        let table: [(String, ConnectionKind)] = [
            ("EDP", .builtIn), ("LVDS", .builtIn), ("DSI", .builtIn), ("HDMI", .hdmi), ("DP", .displayPort),
            ("DISPLAYPORT", .displayPort), ("VGA", .vga), ("DVI", .dvi), ("DUMMY", .virtual),
            ("VIRTUAL", .virtual), ("USB", .usbc),
        ]
        return table.first { upper.hasPrefix($0.0) }?.1 ?? .hdmi
    }

    /// A name fit for one line of output: control characters and quotes removed, spaces collapsed.
    public static func sanitise(_ name: String) -> String {
        let kept = name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" }
        return String(String.UnicodeScalarView(kept)).split(separator: " ").joined(separator: " ")
    }

    /// The monitor name descriptor (tag 0xFC) of a 128-byte EDID base block, if present.
    public static func edidMonitorName(_ edid: [UInt8]) -> String? {
        guard edid.count >= 128 else { return nil }
        for offset in stride(from: 54, through: 108, by: 18) {
            let block = edid[offset..<offset + 18]
            guard block[offset] == 0, block[offset + 1] == 0, block[offset + 3] == 0xFC else { continue }
            let text = block[(offset + 5)...].prefix { $0 != 0x0A && $0 != 0 }
            let name = String(decoding: text, as: UTF8.self).trimmingCharacters(in: " ")
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// Modes without duplicates (the same size and refresh rate listed twice), in the given order.
    static func unique(_ modes: [DisplayMode]) -> [DisplayMode] {
        var seen = Set<DisplayMode>()
        return modes.filter { seen.insert($0).inserted }
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s.removeFirst() }
        while s.last == character { s.removeLast() }
        return String(s)
    }
}
