import CSDBus
import Foundation

/// Mutter's ScreenCast D-Bus API (`org.gnome.Mutter.ScreenCast`) for the tests: a session that records one
/// monitor (its frames go to a PipeWire stream, which `gst-launch-1.0 pipewiresrc` turns into a PNG: a
/// screenshot taken by the compositor) or records a virtual monitor, which Mutter creates for as long as the
/// stream lives (a monitor plugged in; ``stop()`` unplugs it). Mutter ends a session when the D-Bus connection
/// that made it closes, so each holds its own connection. Needs a PipeWire daemon on the compositor's runtime
/// folder. Written for the tests only, apart from the code under test.
public final class MutterScreenCast: @unchecked Sendable {
    private var bus: OpaquePointer?
    private let session: String
    /// The PipeWire node of the stream.
    public private(set) var node: UInt32 = 0
    private var matchSlot: OpaquePointer?
    private let box = NodeBox()

    private final class NodeBox: @unchecked Sendable { var node: UInt32? }

    /// What to record.
    public enum Source: Sendable {
        /// An existing monitor by connector (`Meta-1`).
        case monitor(String)
        /// A new virtual monitor, sized by what the consumer asks for.
        case virtual
        /// One window (`RecordWindow`), by Mutter's window id, or — nil — the window that has the focus when the
        /// recording starts (Mutter's own choice without a `window-id`; without GNOME Shell nothing on the bus
        /// tells a window's id: Mutter draws ids from a random base). The stream follows that window afterwards,
        /// whatever has the focus, and its frames are the window alone (as its client drew it, covered or not).
        case window(UInt64?)
    }

    /// Starts recording `source` on the compositor whose bus is `busAddress`; returns once PipeWire has the
    /// stream (throws after `timeout` seconds otherwise).
    public init(busAddress: String, _ source: Source, timeout: Double = 10) throws {
        let opened = try MutterBusCall.open(busAddress)
        bus = opened
        session = try Self.objectPath(Self.call(opened, "/org/gnome/Mutter/ScreenCast", "org.gnome.Mutter.ScreenCast",
                                                "CreateSession") { Self.emptyDictionary($0) })
        let stream: String
        switch source {
        case .monitor(let connector):
            stream = try Self.objectPath(Self.call(opened, session, "org.gnome.Mutter.ScreenCast.Session",
                                                   "RecordMonitor") { message in
                let r = connector.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
                return r < 0 ? r : Self.emptyDictionary(message)
            })
        case .virtual:
            stream = try Self.objectPath(Self.call(opened, session, "org.gnome.Mutter.ScreenCast.Session",
                                                   "RecordVirtual") { Self.emptyDictionary($0) })
        case .window(let id):
            stream = try Self.objectPath(Self.call(opened, session, "org.gnome.Mutter.ScreenCast.Session",
                                                   "RecordWindow") { message in
                guard var id else { return Self.emptyDictionary(message) }
                var r = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}")
                if r >= 0 { r = sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv") }
                if r >= 0 { r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), "window-id") }
                if r >= 0 { r = sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), "t") }
                if r >= 0 { r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &id) }
                if r >= 0 { r = sd_bus_message_close_container(message) }
                if r >= 0 { r = sd_bus_message_close_container(message) }
                return r < 0 ? r : sd_bus_message_close_container(message)
            })
        }
        let rule = "type='signal',interface='org.gnome.Mutter.ScreenCast.Stream',member='PipeWireStreamAdded',path='\(stream)'"
        var slot: OpaquePointer?
        let context = Unmanaged.passUnretained(box).toOpaque()
        let result = sd_bus_add_match(opened, &slot, rule, { message, context, _ in
            guard let message, let context else { return 0 }
            var node: UInt32 = 0
            if sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &node) > 0 {
                Unmanaged<NodeBox>.fromOpaque(context).takeUnretainedValue().node = node
            }
            return 0
        }, context)
        guard result >= 0 else { throw SupportError("cannot watch for the PipeWire stream of \(stream)") }
        matchSlot = slot
        sd_bus_message_unref(try Self.call(opened, session, "org.gnome.Mutter.ScreenCast.Session", "Start") { _ in 0 })
        let deadline = Date().addingTimeInterval(timeout)
        while box.node == nil, Date() < deadline {
            while sd_bus_process(opened, nil) > 0 {}
            if box.node == nil { _ = sd_bus_wait(opened, 100_000) }
        }
        guard let node = box.node else {
            throw SupportError("Mutter announced no PipeWire stream for \(source) within \(timeout) s (is PipeWire running?)")
        }
        self.node = node
    }

    private static func emptyDictionary(_ message: OpaquePointer) -> Int32 {
        let r = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}")
        return r < 0 ? r : sd_bus_message_close_container(message)
    }

    private static func objectPath(_ reply: OpaquePointer) throws -> String {
        defer { sd_bus_message_unref(reply) }
        var path: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "o")), &path) > 0, let path else {
            throw SupportError("Mutter's ScreenCast answered no object path")
        }
        return String(cString: path)
    }

    private static func call(_ bus: OpaquePointer, _ path: String, _ interface: String, _ member: String,
                             _ arguments: (OpaquePointer) -> Int32) throws -> OpaquePointer {
        try MutterBusCall.call(bus, service: "org.gnome.Mutter.ScreenCast", path, interface, member, timeoutMicroseconds: 10_000_000,
                               arguments)
    }

    /// Ends the stream (a virtual monitor goes away with it) and closes the connection; also at deinit.
    public func stop() {
        guard let bus else { return }
        if let reply = try? Self.call(bus, session, "org.gnome.Mutter.ScreenCast.Session", "Stop", { _ in 0 }) {
            sd_bus_message_unref(reply)
        }
        if let matchSlot { sd_bus_slot_unref(matchSlot) }
        matchSlot = nil
        sd_bus_flush_close_unref(bus)
        self.bus = nil
    }

    deinit { stop() }
}
