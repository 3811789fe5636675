import DesktopFiles
import DesktopModeState
import SDLWindows
import DesktopImages
import ExternalDisplayKit

/// Names and kinds from what X reports: EDID monitor names, sanitised display names, connection kinds.
public enum DisplayNaming {
    /// The connection kind an output name implies (the core's ``ExternalDisplayKit/DesktopNaming`` decides):
    /// `HDMI-1` → hdmi, `DP-2` → displayPort, `VGA` → vga, `DVI-I-1` → dvi, `eDP-1`/`LVDS-1` → builtIn,
    /// `DUMMY0`/`VIRTUAL1` → virtual; anything else → hdmi.
    public static func connection(forOutput name: String) -> ConnectionKind {
        DesktopNaming.connection(forOutput: name)
    }

    /// A name fit for one line of output: control characters and quotes removed, spaces collapsed
    /// (``ExternalDisplayKit/DesktopNaming/sanitise(_:)``).
    public static func sanitise(_ name: String) -> String { DesktopNaming.sanitise(name) }

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
