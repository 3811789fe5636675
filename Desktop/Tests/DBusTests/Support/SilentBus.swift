#if os(Linux)
import Foundation
import Glibc

/// A "session bus" that accepts every connection and reads what clients send but never answers: not even the
/// authentication's `OK`. What a stuck dbus-daemon (or a wrong `DBUS_SESSION_BUS_ADDRESS` pointing at some other
/// server) looks like to a client. ``address`` is a D-Bus address for `DBUS_SESSION_BUS_ADDRESS`;
/// ``connections`` counts the clients accepted (the oracle that the client did reach it).
final class SilentBus: @unchecked Sendable {
    /// `unix:path=…` of the listening socket.
    let address: String
    private let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var stopped = false
    private let readers = DispatchGroup()

    /// Listens on a fresh socket in the temporary directory and starts accepting.
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("silent-bus-\(UUID().uuidString.prefix(8))").path
        address = "unix:path=" + path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw SilentBusError("socket: \(String(cString: strerror(errno)))") }
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: name.sun_path) else { throw SilentBusError("path too long: \(path)") }
        withUnsafeMutableBytes(of: &name.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw SilentBusError("bind/listen \(path): \(String(cString: strerror(errno)))")
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "silent bus"
        thread.start()
    }

    /// How many clients connected so far.
    var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted.count
    }

    /// Stops accepting, closes every connection and removes the socket.
    func stop() {
        lock.lock()
        stopped = true
        let open = accepted
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
        // Closed only once their readers are done: a descriptor closed early could be reused by another test.
        readers.wait()
        for descriptor in open { close(descriptor) }
        unlink(path)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            lock.lock()
            let isStopped = stopped
            if client >= 0, !isStopped { accepted.append(client) }
            lock.unlock()
            if client < 0 || isStopped {
                if client >= 0 { close(client) }
                if client < 0, errno == EINTR, !isStopped { continue }
                close(listener)
                return
            }
            // Reads (so the client's writes never block) and never writes.
            readers.enter()
            let reader = Thread { [readers] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while buffer.withUnsafeMutableBytes({ read(client, $0.baseAddress, $0.count) }) > 0 {}
                readers.leave()
            }
            reader.start()
        }
    }
}

/// The silent bus could not be set up.
struct SilentBusError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
#endif
