import CSDBus
import Foundation

/// Why a D-Bus call failed: the bus could not be reached, the service is not there, or it answered with an error.
struct DBusFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name (`org.freedesktop.DBus.Error.ServiceUnknown`), or empty for a local failure.
    var name: String
    /// What went wrong.
    var message: String

    var description: String { name.isEmpty ? message : "\(message) (\(name))" }

    /// Whether the service is simply not on the bus (a compositor other than the one asked for).
    var isServiceMissing: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }
}

/// One connection to the session bus through sd-bus (libsystemd), for calling a compositor's D-Bus interfaces.
/// `DBUS_SESSION_BUS_ADDRESS` names the bus (else `$XDG_RUNTIME_DIR/bus`). Used from one thread at a time.
final class DBusConnection {
    private var bus: OpaquePointer?

    /// How long the connection's handshake (authentication, then Hello) may take, in seconds.
    static let handshakeTimeout = 5.0

    /// Connects to the session bus (`address` when given, a D-Bus address such as `unix:path=/run/user/1000/bus`);
    /// throws when there is none, or when it does not finish the handshake within `handshakeTimeout` seconds (a bus
    /// that accepts and never answers: sd-bus alone would wait for its 90 s authentication timeout at the first
    /// call).
    init(address: String? = nil, handshakeTimeout: Double = DBusConnection.handshakeTimeout) throws(DBusFailure) {
        var opened: OpaquePointer?
        var result: Int32
        if let address, !address.isEmpty {
            result = sd_bus_new(&opened)
            if result >= 0, let opened {
                result = sd_bus_set_address(opened, address)
                if result >= 0 { result = sd_bus_set_bus_client(opened, 1) }
                if result >= 0 { result = sd_bus_start(opened) }
                if result < 0 { sd_bus_unref(opened) }
            }
        } else {
            result = sd_bus_open_user(&opened)
        }
        guard result >= 0, let opened else {
            throw DBusFailure(name: "", message: "no D-Bus session bus\(address.map { " at \($0)" } ?? ""): "
                              + String(cString: strerror(-result)))
        }
        let seconds = handshakeTimeout.isFinite && handshakeTimeout > 0 ? min(handshakeTimeout, 3600) : Self.handshakeTimeout
        let waited = edk_sd_bus_wait_ready(opened, UInt64(seconds * 1e6))
        guard waited == 0 else {
            // Nothing was sent on it that could be flushed: closed at once.
            sd_bus_close(opened)
            sd_bus_unref(opened)
            let which = address.map { " at \($0)" } ?? ""
            if waited == -ETIMEDOUT {
                throw DBusFailure(name: "", message: "the D-Bus session bus\(which) did not answer within "
                                  + "\(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s (authentication and Hello); "
                                  + "check DBUS_SESSION_BUS_ADDRESS")
            }
            throw DBusFailure(name: "", message: "no D-Bus session bus\(which): " + String(cString: strerror(-waited)))
        }
        bus = opened
    }

    deinit { close() }

    /// Closes the connection (safe to call twice).
    func close() {
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }

    /// Calls `member` and returns the reply's values; never starts a service that is not running.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [DBusValue] = [], timeout: Double = 5) throws(DBusFailure) -> [DBusValue] {
        guard let bus else { throw DBusFailure(name: "", message: "the D-Bus connection is closed") }
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard result >= 0, let message else { throw local("cannot make a call to \(member)", result) }
        defer { sd_bus_message_unref(message) }
        _ = sd_bus_message_set_auto_start(message, 0)
        for argument in arguments where result >= 0 { result = DBusMarshal.append(argument, to: message) }
        guard result >= 0 else { throw local("cannot write the arguments of \(member)", result) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, message, UInt64(timeout * 1_000_000), &error, &reply)
        guard result >= 0, let reply else {
            if sd_bus_error_is_set(&error) != 0 {
                throw DBusFailure(name: error.name.map { String(cString: $0) } ?? "",
                                  message: error.message.map { String(cString: $0) } ?? "\(member) failed")
            }
            throw local("\(member) got no answer", result)
        }
        defer { sd_bus_message_unref(reply) }
        return try DBusMarshal.readAll(reply)
    }

    private func local(_ what: String, _ result: Int32) -> DBusFailure {
        DBusFailure(name: "", message: "\(what): \(String(cString: strerror(-result)))")
    }
}

/// Reading and writing ``DBusValue``s in sd-bus messages.
enum DBusMarshal {
    private static func code(_ character: Character) -> CChar { CChar(bitPattern: character.asciiValue ?? 0) }

    /// Every value left in `message`.
    static func readAll(_ message: OpaquePointer) throws(DBusFailure) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try read(message) { values.append(value) }
        return values
    }

    /// The next value of the current container, or nil at its end.
    static func read(_ message: OpaquePointer) throws(DBusFailure) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        if peeked == 0 { return nil }
        guard peeked > 0 else { throw DBusFailure(name: "", message: "unreadable D-Bus message") }
        let kind = Character(Unicode.Scalar(UInt8(bitPattern: type)))
        switch kind {
        case "a", "r", "e", "v":
            let inner = contents.map { String(cString: $0) } ?? ""
            guard sd_bus_message_enter_container(message, type, contents) > 0 else {
                throw DBusFailure(name: "", message: "unreadable D-Bus container \(kind)\(inner)")
            }
            let members = try readAll(message)
            guard sd_bus_message_exit_container(message) > 0 else {
                throw DBusFailure(name: "", message: "unreadable D-Bus container \(kind)\(inner)")
            }
            switch kind {
            case "a": return .array(element: inner, members)
            case "r": return .structure(members)
            case "e":
                guard members.count == 2 else { throw DBusFailure(name: "", message: "a dictionary entry without 2 members") }
                return .dictEntry(members[0], members[1])
            default:
                guard members.count == 1 else { throw DBusFailure(name: "", message: "a variant without 1 value") }
                return .variant(members[0])
            }
        case "s", "o", "g":
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &text) > 0, let text else { throw unreadable(kind) }
            let string = String(cString: text)
            return kind == "s" ? .string(string) : kind == "o" ? .objectPath(string) : .signature(string)
        case "b":
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &flag) > 0 else { throw unreadable(kind) }
            return .boolean(flag != 0)
        case "y": return .byte(try basic(message, type, UInt8(0)))
        case "n": return .int16(try basic(message, type, Int16(0)))
        case "q": return .uint16(try basic(message, type, UInt16(0)))
        case "i", "h": return .int32(try basic(message, type, Int32(0)))
        case "u": return .uint32(try basic(message, type, UInt32(0)))
        case "x": return .int64(try basic(message, type, Int64(0)))
        case "t": return .uint64(try basic(message, type, UInt64(0)))
        case "d": return .double(try basic(message, type, Double(0)))
        default: throw unreadable(kind)
        }
    }

    private static func basic<T: BitwiseCopyable>(_ message: OpaquePointer, _ type: CChar,
                                                  _ initial: T) throws(DBusFailure) -> T {
        var value = initial
        guard sd_bus_message_read_basic(message, type, &value) > 0 else {
            throw unreadable(Character(Unicode.Scalar(UInt8(bitPattern: type))))
        }
        return value
    }

    private static func unreadable(_ kind: Character) -> DBusFailure {
        DBusFailure(name: "", message: "unreadable D-Bus value of type \(kind)")
    }

    /// Appends `value`; a negative errno on failure.
    static func append(_ value: DBusValue, to message: OpaquePointer) -> Int32 {
        switch value {
        case .string(let s), .objectPath(let s), .signature(let s):
            return s.withCString { sd_bus_message_append_basic(message, code(Character(value.signature)), $0) }
        case .boolean(let flag):
            var number: Int32 = flag ? 1 : 0
            return sd_bus_message_append_basic(message, code("b"), &number)
        case .byte(var v): return sd_bus_message_append_basic(message, code("y"), &v)
        case .int16(var v): return sd_bus_message_append_basic(message, code("n"), &v)
        case .uint16(var v): return sd_bus_message_append_basic(message, code("q"), &v)
        case .int32(var v): return sd_bus_message_append_basic(message, code("i"), &v)
        case .uint32(var v): return sd_bus_message_append_basic(message, code("u"), &v)
        case .int64(var v): return sd_bus_message_append_basic(message, code("x"), &v)
        case .uint64(var v): return sd_bus_message_append_basic(message, code("t"), &v)
        case .double(var v): return sd_bus_message_append_basic(message, code("d"), &v)
        case .array(let element, let items):
            return container(message, "a", element, items)
        case .structure(let members):
            return container(message, "r", members.map(\.signature).joined(), members)
        case .dictEntry(let key, let item):
            return container(message, "e", key.signature + item.signature, [key, item])
        case .variant(let inner):
            return container(message, "v", inner.signature, [inner])
        }
    }

    private static func container(_ message: OpaquePointer, _ kind: Character, _ contents: String,
                                  _ members: [DBusValue]) -> Int32 {
        var result = sd_bus_message_open_container(message, code(kind), contents)
        for member in members where result >= 0 { result = append(member, to: message) }
        return result < 0 ? result : sd_bus_message_close_container(message)
    }
}
