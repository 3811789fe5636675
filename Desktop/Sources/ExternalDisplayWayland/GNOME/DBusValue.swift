/// A D-Bus value of any type, as the compositors' D-Bus interfaces (Mutter's `org.gnome.Mutter.DisplayConfig`)
/// send and take it: read from a message whole, written back with its own signature.
indirect enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array; `element` is the signature of its items (needed when it is empty).
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case variant(DBusValue)

    /// The value's D-Bus signature (`s`, `a{sv}`, `(iiduba(ssa{sv}))`).
    var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        }
    }

    /// A dictionary `a{sv}` from names and values (each wrapped in a variant).
    static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    // MARK: Reading without trusting the shape

    /// The text of a string, object path or signature; nil otherwise.
    var text: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let inner): inner.text
        default: nil
        }
    }

    /// Any integer as `Int`; nil for other types (a variant is looked through).
    var integer: Int? {
        switch self {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        case .variant(let inner): inner.integer
        default: nil
        }
    }

    /// A double (or an integer as a double); nil otherwise.
    var number: Double? {
        if case .double(let v) = self { return v }
        if case .variant(let inner) = self { return inner.number }
        return integer.map(Double.init)
    }

    /// A boolean; nil otherwise.
    var flag: Bool? {
        if case .boolean(let v) = self { return v }
        if case .variant(let inner) = self { return inner.flag }
        return nil
    }

    /// The items of an array, or the members of a structure; nil otherwise.
    var items: [DBusValue]? {
        switch self {
        case .array(_, let items): items
        case .structure(let members): members
        case .variant(let inner): inner.items
        default: nil
        }
    }

    /// An `a{s…}` dictionary by key (values unwrapped from their variants); nil when it is not one.
    var dictionary: [String: DBusValue]? {
        guard case .array(_, let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, let name = key.text else { return nil }
            if case .variant(let inner) = value { result[name] = inner } else { result[name] = value }
        }
        return result
    }
}
