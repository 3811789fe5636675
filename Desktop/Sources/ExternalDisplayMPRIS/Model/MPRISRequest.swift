/// A D-Bus error to answer a call with: a well-known error name and a message saying what was wrong.
public struct MPRISCallError: Error, Sendable, Hashable {
    /// The D-Bus error name, such as `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// What was wrong and what the caller should send instead.
    public var message: String

    /// Creates an error.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The arguments do not have the types the method takes.
    public static func invalidArguments(_ message: String) -> MPRISCallError {
        MPRISCallError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// The object has no such method.
    public static func unknownMethod(_ interface: String?, _ member: String) -> MPRISCallError {
        MPRISCallError(name: "org.freedesktop.DBus.Error.UnknownMethod",
                       message: "no method \(member) on interface \(interface ?? "(none)"); see Introspect")
    }

    /// The object has no such interface.
    public static func unknownInterface(_ interface: String) -> MPRISCallError {
        MPRISCallError(name: "org.freedesktop.DBus.Error.UnknownInterface",
                       message: "no interface \(interface); this player has \(MPRISNames.rootInterface) and \(MPRISNames.playerInterface)")
    }

    /// The interface has no such property.
    public static func unknownProperty(_ interface: String, _ name: String) -> MPRISCallError {
        MPRISCallError(name: "org.freedesktop.DBus.Error.UnknownProperty",
                       message: "no property \(name) on \(interface); use GetAll to list them")
    }

    /// The property cannot be written.
    public static func readOnly(_ name: String) -> MPRISCallError {
        MPRISCallError(name: "org.freedesktop.DBus.Error.PropertyReadOnly",
                       message: "property \(name) is read-only; only Rate and Volume can be set")
    }

    /// The method exists but this player does not support it.
    public static func notSupported(_ message: String) -> MPRISCallError {
        MPRISCallError(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
    }
}

/// A call an MPRIS player understands, parsed and type-checked from a D-Bus method call.
public enum MPRISRequest: Sendable, Hashable {
    /// `Introspectable.Introspect`.
    case introspect
    /// `Properties.Get(interface, name)`.
    case getProperty(interface: String, name: String)
    /// `Properties.GetAll(interface)`.
    case getAllProperties(interface: String)
    /// `Properties.Set(interface, name, value)`; the value is the variant's content.
    case setProperty(interface: String, name: String, value: MPRISValue)
    /// `MediaPlayer2.Raise`.
    case raise
    /// `MediaPlayer2.Quit`.
    case quit
    /// `Player.Next`.
    case next
    /// `Player.Previous`.
    case previous
    /// `Player.Pause`.
    case pause
    /// `Player.PlayPause`.
    case playPause
    /// `Player.Stop`.
    case stop
    /// `Player.Play`.
    case play
    /// `Player.Seek(offset)`, in microseconds.
    case seek(offset: Int64)
    /// `Player.SetPosition(trackId, position)`, position in microseconds.
    case setPosition(trackID: String, position: Int64)
    /// `Player.OpenUri(uri)`.
    case openURI(String)

    /// Parses a method call. `interface` may be `nil` (D-Bus allows calls without one); then the member
    /// name alone decides.
    ///
    /// - Throws: ``MPRISCallError`` naming the problem: an unknown method or interface, or arguments of the
    ///   wrong number or types.
    public static func parse(interface: String?, member: String,
                             arguments: [MPRISValue]) throws(MPRISCallError) -> MPRISRequest {
        let signature = arguments.map(\.signature).joined()
        func expect(_ wanted: String, _ usage: String) throws(MPRISCallError) {
            guard signature == wanted else {
                throw .invalidArguments("\(member) takes (\(wanted)) — \(usage) — but got (\(signature))")
            }
        }
        switch (interface, member) {
        case (MPRISNames.introspectableInterface, "Introspect"), (nil, "Introspect"):
            try expect("", "no arguments")
            return .introspect
        case (MPRISNames.propertiesInterface, "Get"), (nil, "Get"):
            try expect("ss", "interface name, property name")
            return .getProperty(interface: arguments[0].stringValue!, name: arguments[1].stringValue!)
        case (MPRISNames.propertiesInterface, "GetAll"), (nil, "GetAll"):
            try expect("s", "interface name")
            return .getAllProperties(interface: arguments[0].stringValue!)
        case (MPRISNames.propertiesInterface, "Set"), (nil, "Set"):
            try expect("ssv", "interface name, property name, variant value")
            guard case .variant(let value) = arguments[2] else { throw .invalidArguments("Set needs a variant") }
            return .setProperty(interface: arguments[0].stringValue!, name: arguments[1].stringValue!, value: value)
        case (MPRISNames.rootInterface, "Raise"), (nil, "Raise"): try expect("", "no arguments"); return .raise
        case (MPRISNames.rootInterface, "Quit"), (nil, "Quit"): try expect("", "no arguments"); return .quit
        case (MPRISNames.playerInterface, let name), (nil, let name):
            return try parsePlayerMethod(name, arguments: arguments, expect: expect)
        case (let other?, _) where ![MPRISNames.introspectableInterface, MPRISNames.propertiesInterface,
                                     MPRISNames.rootInterface].contains(other):
            throw .unknownInterface(other)
        default:
            throw .unknownMethod(interface, member)
        }
    }

    private static func parsePlayerMethod(
        _ member: String, arguments: [MPRISValue],
        expect: (String, String) throws(MPRISCallError) -> Void
    ) throws(MPRISCallError) -> MPRISRequest {
        switch member {
        case "Next": try expect("", "no arguments"); return .next
        case "Previous": try expect("", "no arguments"); return .previous
        case "Pause": try expect("", "no arguments"); return .pause
        case "PlayPause": try expect("", "no arguments"); return .playPause
        case "Stop": try expect("", "no arguments"); return .stop
        case "Play": try expect("", "no arguments"); return .play
        case "Seek":
            try expect("x", "offset in microseconds as int64")
            guard case .int64(let offset) = arguments[0] else { throw .invalidArguments("Seek takes an int64") }
            return .seek(offset: offset)
        case "SetPosition":
            try expect("ox", "track id object path, position in microseconds as int64")
            guard case .objectPath(let track) = arguments[0], case .int64(let position) = arguments[1] else {
                throw .invalidArguments("SetPosition takes (ox)")
            }
            return .setPosition(trackID: track, position: position)
        case "OpenUri":
            try expect("s", "a URI")
            return .openURI(arguments[0].stringValue!)
        default:
            throw .unknownMethod(MPRISNames.playerInterface, member)
        }
    }
}
