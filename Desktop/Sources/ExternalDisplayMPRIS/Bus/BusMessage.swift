#if os(Linux)
import CSDBus
import Glibc

/// Marshalling between ``MPRISValue`` and sd-bus messages. Used on the bus thread only.
enum BusMessage {
    static func code(_ scalar: Unicode.Scalar) -> CChar { CChar(bitPattern: UInt8(scalar.value)) }

    /// Reads every argument of `message`. Stops at the first argument of a type no MPRIS method takes and
    /// returns its type code as `unreadable`.
    static func readArguments(_ message: OpaquePointer) -> (values: [MPRISValue], unreadable: String?) {
        var values: [MPRISValue] = []
        while true {
            switch readValue(message) {
            case .end: return (values, nil)
            case .value(let value): values.append(value)
            case .unreadable(let type): return (values, type)
            }
        }
    }

    private enum ReadResult {
        case end
        case value(MPRISValue)
        case unreadable(String)
    }

    private static func readValue(_ message: OpaquePointer) -> ReadResult {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        guard peeked > 0 else { return peeked == 0 ? .end : .unreadable("?") }
        let typeName = String(UnicodeScalar(UInt8(bitPattern: type)))
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &text) > 0, let text else { return .unreadable(typeName) }
            let string = String(cString: text)
            return .value(type == code("s") ? .string(string) : .objectPath(string))
        case UInt8(ascii: "x"):
            var number: Int64 = 0
            guard sd_bus_message_read_basic(message, type, &number) > 0 else { return .unreadable(typeName) }
            return .value(.int64(number))
        case UInt8(ascii: "d"):
            var number: Double = 0
            guard sd_bus_message_read_basic(message, type, &number) > 0 else { return .unreadable(typeName) }
            return .value(.double(number))
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &flag) > 0 else { return .unreadable(typeName) }
            return .value(.boolean(flag != 0))
        case UInt8(ascii: "v"):
            let inner = contents.map { String(cString: $0) } ?? "?"
            guard sd_bus_message_enter_container(message, type, contents) > 0 else { return .unreadable("v") }
            guard case .value(let value) = readValue(message) else { return .unreadable("v(\(inner))") }
            guard sd_bus_message_exit_container(message) > 0 else { return .unreadable("v") }
            return .value(.variant(value))
        default:
            return .unreadable(contents.map { typeName + String(cString: $0) } ?? typeName)
        }
    }

    /// Appends `value` to `message`; returns a negative errno on failure.
    @discardableResult
    static func append(_ value: MPRISValue, to message: OpaquePointer) -> Int32 {
        switch value {
        case .string(let text):
            return text.withCString { sd_bus_message_append_basic(message, code("s"), $0) }
        case .objectPath(let path):
            return path.withCString { sd_bus_message_append_basic(message, code("o"), $0) }
        case .boolean(let flag):
            var number: Int32 = flag ? 1 : 0
            return sd_bus_message_append_basic(message, code("b"), &number)
        case .double(var number):
            return sd_bus_message_append_basic(message, code("d"), &number)
        case .int64(var number):
            return sd_bus_message_append_basic(message, code("x"), &number)
        case .strings(let texts):
            var result = sd_bus_message_open_container(message, code("a"), "s")
            for text in texts where result >= 0 { result = append(.string(text), to: message) }
            return result < 0 ? result : sd_bus_message_close_container(message)
        case .dictionary(let entries):
            var result = sd_bus_message_open_container(message, code("a"), "{sv}")
            for entry in entries where result >= 0 {
                result = sd_bus_message_open_container(message, code("e"), "sv")
                if result >= 0 { result = append(.string(entry.name), to: message) }
                if result >= 0 { result = append(.variant(entry.value), to: message) }
                if result >= 0 { result = sd_bus_message_close_container(message) }
            }
            return result < 0 ? result : sd_bus_message_close_container(message)
        case .variant(let inner):
            var result = sd_bus_message_open_container(message, code("v"), inner.signature)
            if result >= 0 { result = append(inner, to: message) }
            return result < 0 ? result : sd_bus_message_close_container(message)
        }
    }

    /// Sends a method return carrying `values` in reply to `call`.
    @discardableResult
    static func reply(to call: OpaquePointer, with values: [MPRISValue]) -> Int32 {
        var reply: OpaquePointer?
        var result = sd_bus_message_new_method_return(call, &reply)
        guard result >= 0, let reply else { return result }
        defer { sd_bus_message_unref(reply) }
        for value in values where result >= 0 { result = append(value, to: reply) }
        return result < 0 ? result : sd_bus_send(nil, reply, nil)
    }

    /// Sends an error reply to `call`.
    @discardableResult
    static func reply(to call: OpaquePointer, with error: MPRISCallError) -> Int32 {
        var busError = sd_bus_error()
        sd_bus_error_set(&busError, error.name, error.message)
        defer { sd_bus_error_free(&busError) }
        return sd_bus_reply_method_error(call, &busError)
    }

    /// Emits a signal from `path` carrying `values`.
    @discardableResult
    static func emit(on bus: OpaquePointer, path: String, interface: String, member: String,
                     values: [MPRISValue]) -> Int32 {
        var signal: OpaquePointer?
        var result = sd_bus_message_new_signal(bus, &signal, path, interface, member)
        guard result >= 0, let signal else { return result }
        defer { sd_bus_message_unref(signal) }
        for value in values where result >= 0 { result = append(value, to: signal) }
        return result < 0 ? result : sd_bus_send(bus, signal, nil)
    }

    /// A readable form of a negative errno result.
    static func describe(_ result: Int32) -> String {
        String(cString: strerror(-result))
    }
}
#endif
