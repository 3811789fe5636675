/// A D-Bus value of one of the types MPRIS uses, independent of any D-Bus library so the mapping from Now
/// Playing to MPRIS can be tested anywhere.
public indirect enum MPRISValue: Sendable, Hashable {
    /// A UTF-8 string (`s`).
    case string(String)
    /// An object path (`o`), such as a track id.
    case objectPath(String)
    /// A boolean (`b`).
    case boolean(Bool)
    /// A double (`d`).
    case double(Double)
    /// A signed 64-bit integer (`x`), used for times in microseconds.
    case int64(Int64)
    /// An array of strings (`as`).
    case strings([String])
    /// A dictionary of variants (`a{sv}`), such as MPRIS metadata; entries keep their order.
    case dictionary([MPRISEntry])
    /// A variant (`v`) holding one value, as `Properties.Set` receives it.
    case variant(MPRISValue)

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .boolean: "b"
        case .double: "d"
        case .int64: "x"
        case .strings: "as"
        case .dictionary: "a{sv}"
        case .variant: "v"
        }
    }

    /// The string inside a `.string` or `.objectPath`, otherwise `nil`.
    public var stringValue: String? {
        switch self {
        case .string(let text), .objectPath(let text): text
        default: nil
        }
    }
}

/// One named value: a property, or an entry of an `a{sv}` dictionary.
public struct MPRISEntry: Sendable, Hashable {
    /// The property or key name.
    public var name: String
    /// The value.
    public var value: MPRISValue

    /// Creates an entry.
    public init(_ name: String, _ value: MPRISValue) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == MPRISEntry {
    /// The value of the entry called `name`, if there is one.
    public subscript(named name: String) -> MPRISValue? {
        first { $0.name == name }?.value
    }
}
