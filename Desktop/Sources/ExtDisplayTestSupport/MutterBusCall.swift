import CSDBus
import Foundation

/// One method call to one of a compositor's D-Bus services (Mutter's `org.gnome.Mutter.RemoteDesktop`,
/// `…ScreenCast`, KWin's `org.kde.KWin.ScreenShot2`) on an open sd-bus connection, for the tests' remote keyboard,
/// screen casts and screenshots: the caller writes the arguments and owns the reply (`sd_bus_message_unref`). A failure names the service's short name, the member and D-Bus's error.
enum MutterBusCall {
    /// A client connection of its own to the bus at `busAddress` (Mutter ends a session when the connection that
    /// made it closes).
    static func open(_ busAddress: String) throws -> OpaquePointer {
        var opened: OpaquePointer?
        var result = sd_bus_new(&opened)
        if result >= 0, let opened {
            result = sd_bus_set_address(opened, busAddress)
            if result >= 0 { result = sd_bus_set_bus_client(opened, 1) }
            if result >= 0 { result = sd_bus_start(opened) }
        }
        guard result >= 0, let opened else {
            throw SupportError("cannot connect to the compositor's bus \(busAddress): \(String(cString: strerror(-result)))")
        }
        return opened
    }

    static func call(_ bus: OpaquePointer, service: String, _ path: String, _ interface: String, _ member: String,
                     timeoutMicroseconds: UInt64,
                     _ arguments: (OpaquePointer) -> Int32) throws -> OpaquePointer {
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &message, service, path, interface, member)
        guard result >= 0, let message else { throw SupportError("cannot make the call \(member)") }
        defer { sd_bus_message_unref(message) }
        result = arguments(message)
        guard result >= 0 else { throw SupportError("cannot write the arguments of \(member)") }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, message, timeoutMicroseconds, &error, &reply)
        guard result >= 0, let reply else {
            let name = error.name.map { String(cString: $0) } ?? ""
            let text = error.message.map { String(cString: $0) } ?? String(cString: strerror(-result))
            let shortName = service.split(separator: ".").last.map(String.init) ?? service
            throw SupportError("\(shortName) \(member) failed: \(text) \(name)")
        }
        return reply
    }
}
