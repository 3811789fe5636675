import Foundation

/// A plain TCP connection to 127.0.0.1 for tests that speak bytes the way no well-behaved client would
/// (slowloris, oversized heads, unmasked frames). Blocking calls, each bounded by a timeout.
public final class RawSocket: @unchecked Sendable {
    /// The socket.
    public let fd: Int32

    /// Connects to 127.0.0.1:`port` (hang guard `timeout` seconds: a server that accepts nothing fills its
    /// backlog, and a blocking connect would then wait for minutes).
    public init(port: Int, timeout: Double = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SupportError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var failure = connected == 0 ? 0 : errno
        if failure == EINPROGRESS {
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, Int32(timeout * 1000)) == 1 {
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
            } else {
                failure = ETIMEDOUT
            }
        }
        _ = fcntl(fd, F_SETFL, flags)
        guard failure == 0 else {
            close(fd)
            throw SupportError("cannot connect to 127.0.0.1:\(port): errno \(failure)")
        }
    }

    deinit { close(fd) }

    /// Sends bytes; false when the connection is closed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Sends text.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the peer closes or `timeout` seconds pass (a hang guard) or `until` is satisfied by what was
    /// read; returns the bytes and whether the connection was closed.
    public func read(timeout: Double, until done: ([UInt8]) -> Bool = { _ in false }) -> (bytes: [UInt8], closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return (out, false) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 { return (out, true) }
            if ready == 0 { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (out, true) }
            out += buffer[0..<n]
            if done(out) { return (out, false) }
        }
    }

    /// Whether the peer has closed the connection (reads what is there without waiting).
    public var isClosedByPeer: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if n == 0 { return true }
        if n < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        // Data waiting: read it away and look again.
        _ = read(timeout: 0.05)
        return false
    }

    /// The status code of an HTTP response's first line (0 when there is none).
    public static func status(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 ") else { return 0 }
        return Int(text.dropFirst(9).prefix(3)) ?? 0
    }
}

/// A WebSocket upgrade request for `target` (Host 127.0.0.1:`port` unless `host` is given).
public func upgradeRequest(_ target: String, port: Int, host: String? = nil, origin: String? = nil) -> String {
    var text = "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    if let origin { text += "Origin: \(origin)\r\n" }
    return text + "\r\n"
}

/// One WebSocket frame from a client: text, masked unless `masked` is false.
public func clientFrame(_ text: String, masked: Bool = true, opcode: UInt8 = 0x1) -> [UInt8] {
    let payload = Array(text.utf8)
    var frame: [UInt8] = [0x80 | opcode]
    let maskBit: UInt8 = masked ? 0x80 : 0
    if payload.count < 126 {
        frame.append(maskBit | UInt8(payload.count))
    } else {
        frame.append(maskBit | 126)
        frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    }
    guard masked else { return frame + payload }
    let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    return frame + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
}

/// The close frame's code in what a server sent after its 101 response (nil when there is none).
public func closeCode(in bytes: [UInt8]) -> UInt16? {
    guard let end = ConnectionGuardHeadEnd.find(bytes) else { return nil }
    var index = end
    while index + 1 < bytes.count {
        let opcode = bytes[index] & 0x0F
        var length = Int(bytes[index + 1] & 0x7F)
        var start = index + 2
        if length == 126, start + 1 < bytes.count {
            length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
            start += 2
        } else if length == 127 {
            return nil
        }
        if opcode == 0x8 {
            guard start + 1 < bytes.count else { return nil }
            return UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1])
        }
        index = start + length
    }
    return nil
}

/// The end of an HTTP head in bytes (after the blank line).
public enum ConnectionGuardHeadEnd {
    public static func find(_ bytes: [UInt8]) -> Int? {
        let marker: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where Array(bytes[index..<(index + 4)]) == marker { return index + 4 }
        return nil
    }
}

/// Runs blocking socket work on a thread of its own, never on Swift's cooperative threads (two on a 2-core
/// machine): a test holding one in `poll` for seconds would starve every other suite's tasks in the process.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
