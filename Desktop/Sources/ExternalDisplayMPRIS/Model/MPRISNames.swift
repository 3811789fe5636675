/// The fixed names of the MPRIS D-Bus interface (specification version 2.2).
public enum MPRISNames {
    /// The object path every MPRIS player serves.
    public static let objectPath = "/org/mpris/MediaPlayer2"
    /// The prefix of a player's bus name; the player's own name follows it.
    public static let busNamePrefix = "org.mpris.MediaPlayer2."
    /// The root interface: identity and application-level capabilities.
    public static let rootInterface = "org.mpris.MediaPlayer2"
    /// The player interface: status, metadata, position and transport.
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// The standard properties interface (Get, GetAll, Set, PropertiesChanged).
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// The standard introspection interface.
    public static let introspectableInterface = "org.freedesktop.DBus.Introspectable"
    /// The track id MPRIS reserves for "no track".
    public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// Where this package puts track ids (MPRIS forbids its own namespace for them).
    public static let trackPathPrefix = "/org/externaldisplaykit/track/"

    /// The bus name for a player called `name` (for example `org.mpris.MediaPlayer2.extdisplay`).
    public static func busName(for name: String) -> String { busNamePrefix + name }

    /// Whether `name` can follow ``busNamePrefix``: dot-separated elements of ASCII letters, digits, `_` and
    /// `-`, none empty and none starting with a digit, 255 bytes in all at most.
    public static func isValidPlayerName(_ name: String) -> Bool {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, busName(for: name).utf8.count <= 255 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                return false
            }
            return element.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "-")
            }
        }
    }

    /// The object path used as `mpris:trackid` for an item identifier: letters and digits are kept, every
    /// other byte becomes `_` and two hex digits, so different identifiers give different paths.
    public static func trackID(for identifier: String) -> String {
        var element = ""
        for byte in identifier.utf8 {
            let isAlphanumeric = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if isAlphanumeric {
                element.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                element += "_" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return trackPathPrefix + (element.isEmpty ? "_" : element)
    }
}
