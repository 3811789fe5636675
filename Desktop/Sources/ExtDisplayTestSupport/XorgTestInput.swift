import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A device of Xorg's own test input driver (`inputtest`, in xserver-xorg-core), driven over its socket: the pen
/// tablet (an absolute pointer whose valuator 4 is "Abs Pressure", 0…1000) and the touch screen that
/// `scripts/xorg-dummy.sh start --pen` configures. Events go into the real server's input path, as a tablet's
/// kernel events would; ``sync()`` returns once the server has processed everything sent (the driver's own
/// readiness answer, not a sleep).
///
/// The messages are the driver's protocol (version 1.1), laid out here by hand for x86-64 and aarch64: a header of
/// two 32-bit words (length, type), then the event's fields, then 64 valuators as a mask and two arrays of doubles.
public final class XorgTestInput {
    private let socket: Int32

    /// Connects to the device whose socket is `path` and agrees on the protocol's version.
    public init(socket path: String) throws {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw XorgTestError("socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw XorgTestError("the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw XorgTestError("cannot connect to Xorg's test input device at \(path): \(reason) — start the server "
                                + "with `scripts/xorg-dummy.sh start --pen` (XorgServer.start(pen: true))")
        }
        socket = fd
        var hello = Self.header(length: 12, type: 0)
        hello += Self.u16(1) + Self.u16(1)
        try send(hello)
        let answer = try receive(12)
        guard Self.word(answer, at: 4) == 0, answer[8] >= 1 else {
            throw XorgTestError("Xorg's test input driver answered \(Array(answer)) to the version 1.1 handshake")
        }
    }

    deinit { close(socket) }

    /// Moves the pen to (x, y) in the device's units (0…65535 across the whole screen) with `pressure` (0…1000).
    public func motion(x: Double, y: Double, pressure: Double) throws {
        try send(Self.header(length: 8 + 8 + Self.valuatorBytes, type: 2) + Self.u32(1) + Self.u32(0)
                 + Self.valuators([0: x, 1: y, 4: pressure]))
    }

    /// Presses or releases `button` (1: the pen's tip) at `pressure`.
    public func button(_ button: Int32, pressed: Bool, pressure: Double) throws {
        try send(Self.header(length: 8 + 16 + Self.valuatorBytes, type: 4) + Self.u32(1) + Self.u32(UInt32(bitPattern: button))
                 + Self.u32(pressed ? 1 : 0) + Self.u32(0) + Self.valuators([4: pressure]))
    }

    /// A touch of the touch screen: `phase` is XInput 2's event type (18 begin, 19 update, 20 end), at (x, y)
    /// in the device's units (0…65535 across the screen) with `pressure` (0…65535).
    public func touch(_ id: UInt32, phase: UInt32, x: Double, y: Double, pressure: Double) throws {
        try send(Self.header(length: 8 + 8 + Self.valuatorBytes, type: 6) + Self.u32(id) + Self.u32(phase)
                 + Self.valuators([0: x, 1: y, 4: pressure]))
    }

    /// Returns once the server has processed every event sent so far (the driver answers "sync finished").
    public func sync() throws {
        try send(Self.header(length: 8, type: 1))
        let answer = try receive(8)
        guard Self.word(answer, at: 4) == 1 else {
            throw XorgTestError("Xorg's test input driver answered \(Array(answer)) to a sync")
        }
    }

    // The valuator block: has_unaccelerated (4), mask (8 bytes), 4 bytes of padding, 64 values, 64 unaccelerated.
    private static let valuatorBytes = 16 + 64 * 8 * 2

    private static func valuators(_ values: [Int: Double]) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: 8)
        var doubles = [Double](repeating: 0, count: 64)
        for (index, value) in values where (0..<64).contains(index) {
            mask[index / 8] |= 1 << UInt8(index % 8)
            doubles[index] = value
        }
        var bytes = u32(0) + mask + [0, 0, 0, 0]
        for value in doubles { bytes += withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
        bytes += [UInt8](repeating: 0, count: 64 * 8)
        return bytes
    }

    private static func header(length: Int, type: UInt32) -> [UInt8] { u32(UInt32(length)) + u32(type) }
    private static func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    private static func u16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw XorgTestError("Xorg's test input socket closed: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// Reads exactly `count` bytes (the driver answers at once; a hang guard of 20 s against a stuck server).
    private func receive(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while bytes.count < count {
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard poll(&ready, 1, wait) > 0 else { throw XorgTestError("Xorg's test input driver did not answer in 20 s") }
            var chunk = [UInt8](repeating: 0, count: count - bytes.count)
            let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw XorgTestError("Xorg's test input socket closed while waiting for an answer") }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
