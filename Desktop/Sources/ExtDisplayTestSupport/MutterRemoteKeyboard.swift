import CSDBus
import Foundation

/// Keys typed into a headless Mutter through its RemoteDesktop D-Bus API (`org.gnome.Mutter.RemoteDesktop`:
/// `CreateSession`, `Start`, `NotifyKeyboardKeycode`) — the way GNOME's remote desktop and screen-sharing tools
/// type; the compositor delivers them to the focused window like a real keyboard. Mutter ends a remote session
/// when the D-Bus connection that made it closes, so this holds its own connection (sd-bus) for its lifetime.
/// Written for the tests only, apart from the code under test.
public final class MutterRemoteKeyboard: @unchecked Sendable {
    private var bus: OpaquePointer?
    private let session: String

    /// The keys the tests type.
    public typealias Key = EvdevKey

    /// Opens a remote-desktop session on the compositor whose bus is `busAddress`.
    public init(busAddress: String) throws {
        let opened = try MutterBusCall.open(busAddress)
        bus = opened
        let reply = try Self.call(opened, "/org/gnome/Mutter/RemoteDesktop", "org.gnome.Mutter.RemoteDesktop",
                                  "CreateSession") { _ in 0 }
        defer { sd_bus_message_unref(reply) }
        var path: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "o")), &path) > 0, let path else {
            throw SupportError("RemoteDesktop.CreateSession answered no object path")
        }
        session = String(cString: path)
        sd_bus_message_unref(try Self.call(opened, session, "org.gnome.Mutter.RemoteDesktop.Session", "Start") { _ in 0 })
        // Measured with Mutter 43: the second key of a new remote session never reaches the client (the first
        // and every later one do), so two Shift taps, which mean nothing to the presenter, go first.
        for _ in 0..<2 {
            try type(.shiftLeft)
            usleep(100_000)
        }
    }

    private static func call(_ bus: OpaquePointer, _ path: String, _ interface: String, _ member: String,
                             _ arguments: (OpaquePointer) -> Int32) throws -> OpaquePointer {
        try MutterBusCall.call(bus, service: "org.gnome.Mutter.RemoteDesktop", path, interface, member, timeoutMicroseconds: 5_000_000,
                               arguments)
    }

    /// Presses (`down`) or releases one key (`NotifyKeyboardKeycode`: an evdev code, as a real keyboard sends).
    public func send(_ keycode: UInt32, down: Bool) throws {
        guard let bus else { throw SupportError("the remote keyboard is closed") }
        sd_bus_message_unref(try Self.call(bus, session, "org.gnome.Mutter.RemoteDesktop.Session",
                                           "NotifyKeyboardKeycode") { message in
            var key = keycode
            var state: Int32 = down ? 1 : 0
            let first = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &key)
            return first < 0 ? first : sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &state)
        })
    }

    /// Types one key, with `modifier` held around it when given.
    public func type(_ key: Key, holding modifier: Key? = nil) throws {
        try type(key, holdingAll: [modifier].compactMap { $0 })
    }

    /// Types one key with every one of `modifiers` held around it (pressed in order, released in reverse): a
    /// compositor shortcut such as Super+Shift+Page Down.
    public func type(_ key: Key, holdingAll modifiers: [Key]) throws {
        for modifier in modifiers { try send(modifier.rawValue, down: true) }
        try send(key.rawValue, down: true)
        usleep(20_000)
        try send(key.rawValue, down: false)
        for modifier in modifiers.reversed() { try send(modifier.rawValue, down: false) }
    }

    /// Moves the pointer one pixel right and back (`NotifyPointerMotionRelative`): the cursor's move makes Mutter
    /// paint the monitor again, with nothing else changing (a recording of a monitor leaves the cursor out by
    /// default).
    public func wigglePointer() throws {
        guard let bus else { throw SupportError("the remote session is closed") }
        for dx in [1.0, -1.0] {
            sd_bus_message_unref(try Self.call(bus, session, "org.gnome.Mutter.RemoteDesktop.Session",
                                               "NotifyPointerMotionRelative") { message in
                var x = dx, y = 0.0
                let first = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &x)
                return first < 0 ? first : sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &y)
            })
        }
    }

    /// Ends the session and closes the connection (also at deinit).
    public func close() {
        guard let bus else { return }
        if let reply = try? Self.call(bus, session, "org.gnome.Mutter.RemoteDesktop.Session", "Stop", { _ in 0 }) {
            sd_bus_message_unref(reply)
        }
        sd_bus_flush_close_unref(bus)
        self.bus = nil
    }

    deinit { close() }
}
