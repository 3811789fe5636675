import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The first handler on every connection, before any HTTP parsing: it holds each request head until it is
/// complete and checks it (size, timeout, `Host`, `Origin`, no body), admits connections within the server's
/// budget, and after a WebSocket upgrade checks that every frame from the client is masked (RFC 6455 §5.1: the
/// server closes with 1002 otherwise; neither NIO nor swift-websocket checks it).
///
/// Nothing a client sends reaches Hummingbird before its whole head has arrived and passed, so a connection
/// that sends nothing, stops inside the request line or trickles headers holds one file descriptor and a few
/// kilobytes until ``BrowserServerConfiguration/headerTimeout``, and never a task.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum Phase {
        /// Reading a request head (held until complete).
        case head
        /// An upgrade head went on; bytes are held until the answer (101 or not).
        case upgrading
        /// A WebSocket: frames are checked for masks and passed on.
        case webSocket
        /// Refused or timed out: everything is dropped.
        case closing
    }

    private let limits: ConnectionLimits
    private let policy: RequestGuard.Policy
    private let budget: ConnectionBudget
    private var phase = Phase.head
    /// The head read so far (or bytes held while upgrading).
    private var held: [UInt8] = []
    private var deadline: Scheduled<Void>?
    private var admitted = false
    private var frames = FrameMaskChecker()

    /// A guard for one connection; `policy`'s port is taken from the connection's own local address.
    init(limits: ConnectionLimits, policy: RequestGuard.Policy, budget: ConnectionBudget) {
        self.limits = limits
        self.policy = policy
        self.budget = budget
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        budget.remove(ObjectIdentifier(context.channel))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        budget.remove(ObjectIdentifier(context.channel))
    }

    private func admit(context: ChannelHandlerContext) {
        guard !admitted else { return }
        admitted = true
        let address = context.channel.remoteAddress?.ipAddress ?? "?"
        let channel = context.channel
        switch budget.admit(ObjectIdentifier(channel), address: address, close: { channel.close(promise: nil) }) {
        case .admitted(let evicted):
            for connection in evicted { connection.close() }
            arm(context: context, limits.headerTimeout)
        case .refused:
            phase = .closing
            context.close(promise: nil)
        }
    }

    private func arm(context: ChannelHandlerContext, _ timeout: Duration) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) { channel.close(promise: nil) }
    }

    /// The idle timer after a request: it closes the connection once neither side has sent anything for
    /// ``ConnectionLimits/idleTimeout``. A response still being written (a video streamed to a page that reads
    /// as it plays) is not silence; a client that stops reading stops the writes (backpressure), and is closed.
    private func armIdle(context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        let timeout = TimeAmount(limits.idleTimeout)
        let wait = max(.milliseconds(1), timeout - (NIODeadline.now() - lastResponseWrite))
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: wait) { [self] in
            if phase == .head, idleBetweenRequests, NIODeadline.now() - lastResponseWrite < timeout {
                armIdle(context: context)
            } else {
                channel.close(promise: nil)
            }
        }
    }

    /// When a response's bytes were last written (while the idle timer runs).
    private var lastResponseWrite = NIODeadline.now()

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        switch phase {
        case .closing:
            return
        case .webSocket:
            if let violation = frames.consume(buffer.readableBytesView) {
                closeWebSocket(context: context, reason: violation)
            } else {
                context.fireChannelRead(data)
            }
        case .upgrading:
            held += buffer.readableBytesView
            if held.count > limits.maximumHeadBytes { refuse(context: context, status: 431, "request head too large") }
        case .head:
            if held.isEmpty && buffer.readableBytes > 0 && deadline != nil && idleBetweenRequests {
                idleBetweenRequests = false
                arm(context: context, limits.headerTimeout)
            }
            held += buffer.readableBytesView
            processHeads(context: context)
        }
    }

    /// Whether the timer running is the one between requests (a new head's first byte starts the head timer).
    private var idleBetweenRequests = false

    private func processHeads(context: ChannelHandlerContext) {
        while phase == .head, !held.isEmpty {
            guard let end = Self.headEnd(held) else {
                if held.count > limits.maximumHeadBytes { refuse(context: context, status: 431, "request head too large") }
                return
            }
            guard end <= limits.maximumHeadBytes else {
                refuse(context: context, status: 431, "request head too large")
                return
            }
            let headBytes = Array(held[..<end])
            held.removeFirst(end)
            let head: RequestGuard.Head
            switch RequestGuard.parseHead(headBytes) {
            case .failure(let refusal):
                refuse(context: context, status: refusal.status, refusal.message)
                return
            case .success(let parsed):
                head = parsed
            }
            var policy = self.policy
            policy.port = context.channel.localAddress?.port ?? policy.port
            if let refusal = RequestGuard.check(head, policy: policy) {
                refuse(context: context, status: refusal.status, refusal.message)
                return
            }
            // An audience page's upgrade takes its place in the budget now, before it is answered: upgrades that
            // arrive together on other threads each see the places the others took.
            if head.upgrade, !budget.upgrading(ObjectIdentifier(context.channel), viewer: !head.target.hasPrefix("/remote")) {
                refuse(context: context, status: 503, "too many pages connected")
                return
            }
            var out = context.channel.allocator.buffer(capacity: headBytes.count)
            out.writeBytes(headBytes)
            idleBetweenRequests = true
            lastResponseWrite = .now()
            armIdle(context: context)
            if head.upgrade { phase = .upgrading }
            context.fireChannelRead(wrapInboundOut(out))
        }
        if phase == .upgrading, held.count > limits.maximumHeadBytes {
            refuse(context: context, status: 431, "request head too large")
        }
    }

    /// The index just past the blank line that ends a head (`\r\n\r\n`, or `\n\n`), if it has arrived.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // After the guard's own answer (a refusal, or a close frame): nothing from behind it follows (a frame
        // after a close frame makes a browser fail the socket, 1006, instead of reading the close).
        guard phase != .closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        if phase == .head { lastResponseWrite = .now() }
        if phase == .upgrading, case .byteBuffer(let buffer) = unwrapOutboundIn(data) {
            let start = buffer.getBytes(at: buffer.readerIndex, length: min(12, buffer.readableBytes)) ?? []
            if start.count == 12 {
                if start.elementsEqual(Array("HTTP/1.1 101".utf8)) {
                    switchToWebSocket(context: context)
                } else {
                    // Not upgraded (refused): what was held is read as the next request, and the place is free.
                    phase = .head
                    budget.notUpgraded(ObjectIdentifier(context.channel))
                    let loop = context.eventLoop
                    loop.assumeIsolated().execute { [self] in
                        processHeads(context: context)
                        context.fireChannelReadComplete()
                    }
                }
            }
        }
        context.write(data, promise: promise)
    }

    private func switchToWebSocket(context: ChannelHandlerContext) {
        phase = .webSocket
        deadline?.cancel()
        deadline = nil
        budget.upgraded(ObjectIdentifier(context.channel))
        let pending = held
        held = []
        guard !pending.isEmpty else { return }
        // After the upgrade's own steps (they replay what arrives meanwhile in order).
        context.eventLoop.assumeIsolated().execute { [self] in
            guard phase == .webSocket else { return }
            if let violation = frames.consume(pending[...]) {
                closeWebSocket(context: context, reason: violation)
                return
            }
            var out = context.channel.allocator.buffer(capacity: pending.count)
            out.writeBytes(pending)
            context.fireChannelRead(wrapInboundOut(out))
            context.fireChannelReadComplete()
        }
    }

    // MARK: Refusals

    private func refuse(context: ChannelHandlerContext, status: Int, _ message: String) {
        guard phase != .closing else { return }
        phase = .closing
        held = []
        deadline?.cancel()
        let body = message + "\n"
        let response = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        var buffer = context.channel.allocator.buffer(capacity: response.utf8.count)
        buffer.writeString(response)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(buffer))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// A close frame (1002, protocol error) written straight to the socket, then the connection closed.
    private func closeWebSocket(context: ChannelHandlerContext, reason: String) {
        phase = .closing
        let payload = [UInt8(0x03), UInt8(0xEA)] + Array(CloseReason.fitting(reason).utf8)
        var buffer = context.channel.allocator.buffer(capacity: payload.count + 2)
        buffer.writeBytes([0x88, UInt8(payload.count)] + payload)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(buffer))).whenComplete { _ in channel.close(promise: nil) }
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 413: "Content Too Large"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}

/// Follows the frames a client sends after the upgrade, reading only their headers: every frame from a client
/// must be masked (RFC 6455 §5.1), and the server must close the connection (1002) when one is not.
struct FrameMaskChecker: Sendable {
    private var header: [UInt8] = []
    private var payloadLeft: UInt64 = 0

    /// Reads more bytes; returns what is wrong when a frame is not masked (the connection is to be closed).
    mutating func consume<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if payloadLeft > 0 {
                let available = UInt64(bytes.distance(from: index, to: bytes.endIndex))
                let skip = min(payloadLeft, available)
                index = bytes.index(index, offsetBy: Int(skip))
                payloadLeft -= skip
                continue
            }
            header.append(bytes[index])
            index = bytes.index(after: index)
            guard header.count >= 2 else { continue }
            guard header[1] & 0x80 != 0 else { return "client frames must be masked (RFC 6455 5.1)" }
            let code = header[1] & 0x7F
            let lengthBytes = code == 126 ? 2 : code == 127 ? 8 : 0
            guard header.count == 2 + lengthBytes + 4 else { continue }
            var length = UInt64(code)
            if lengthBytes > 0 {
                length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            }
            header = []
            payloadLeft = length
        }
        return nil
    }
}

/// What the guard needs to know about limits (from ``BrowserServerConfiguration``).
struct ConnectionLimits: Sendable {
    var headerTimeout: Duration
    var idleTimeout: Duration
    var maximumHeadBytes: Int
}

/// The connections open now, by address and by kind, within the server's budget: at most `maximum` in all (kept
/// below the process's file limit), at most `pendingPerAddress` from one other machine that are not WebSockets yet,
/// and at most `maximum - reserved` audience WebSockets, so that a new request (the speaker's remote among them)
/// always finds a place: when one more would go over, the oldest connection that is not a WebSocket is closed.
final class ConnectionBudget: Sendable {
    /// A connection closed to make room: its id and how to close it.
    struct Evicted: Sendable {
        var id: ObjectIdentifier
        var close: @Sendable () -> Void
    }

    /// What becomes of a new connection.
    enum Admission: Sendable {
        /// Let in; the connections to close to make room.
        case admitted(evicted: [Evicted])
        /// Over the budget with nothing to close: the new connection is closed.
        case refused
    }

    private struct Entry {
        var address: String
        var close: @Sendable () -> Void
        var order: UInt64
        var webSocket = false
        var viewer = false
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var next: UInt64 = 0
    }

    let maximum: Int
    let pendingPerAddress: Int
    let reserved: Int
    private let state = NIOLockedValueBox(State())

    init(maximum: Int, pendingPerAddress: Int, reserved: Int) {
        self.maximum = max(2, maximum)
        self.pendingPerAddress = max(1, pendingPerAddress)
        self.reserved = min(max(1, reserved), self.maximum - 1)
    }

    /// Admits a new connection from `address`, closing the oldest pending ones (of that address first) to make room.
    func admit(_ id: ObjectIdentifier, address: String, close: @escaping @Sendable () -> Void) -> Admission {
        state.withLockedValue { state in
            var evicted: [ObjectIdentifier] = []
            func oldestPending(from address: String?) -> ObjectIdentifier? {
                state.entries.filter { !$0.value.webSocket && (address == nil || $0.value.address == address)
                                       && !evicted.contains($0.key) }
                    .min { $0.value.order < $1.value.order }?.key
            }
            // Per address only for other machines: behind a reverse proxy every connection is from loopback.
            if !Self.isLoopback(address) {
                let pendingHere = state.entries.values.filter { !$0.webSocket && $0.address == address }.count
                if pendingHere >= pendingPerAddress, let oldest = oldestPending(from: address) { evicted.append(oldest) }
            }
            if state.entries.count - evicted.count >= maximum {
                guard let oldest = oldestPending(from: nil) else { return .refused }
                evicted.append(oldest)
            }
            let closed = evicted.compactMap { id in state.entries.removeValue(forKey: id).map { Evicted(id: id, close: $0.close) } }
            state.entries[id] = Entry(address: address, close: close, order: state.next)
            state.next += 1
            return .admitted(evicted: closed)
        }
    }

    /// Whether an address is this machine's loopback.
    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }

    /// An upgrade was asked for (`viewer`: an audience page's, not the remote's). An audience page's takes a place
    /// among the pages at once; false (nothing taken) when every place a page may have is taken, counting the
    /// upgrades not yet answered.
    func upgrading(_ id: ObjectIdentifier, viewer: Bool) -> Bool {
        state.withLockedValue { state in
            guard viewer else { return true }
            guard state.entries.values.filter(\.viewer).count < maximum - reserved else { return false }
            state.entries[id]?.viewer = true
            return true
        }
    }

    /// An upgrade was answered with anything but 101: the connection is no page.
    func notUpgraded(_ id: ObjectIdentifier) {
        state.withLockedValue { $0.entries[id]?.viewer = false }
    }

    /// The connection is a WebSocket now: it is never closed to make room.
    func upgraded(_ id: ObjectIdentifier) {
        state.withLockedValue { $0.entries[id]?.webSocket = true }
    }


    /// The connection closed.
    func remove(_ id: ObjectIdentifier) {
        _ = state.withLockedValue { $0.entries.removeValue(forKey: id) }
    }

    /// Connections open now.
    var count: Int { state.withLockedValue { $0.entries.count } }
}

/// Puts a ``ConnectionGuardHandler`` first on every connection, then sets it up as `inner` does.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let limits: ConnectionLimits
    let policy: RequestGuard.Policy
    let budget: ConnectionBudget

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            // A fixed send buffer instead of the kernel's autotuning (up to 4 MiB): what a page that stops reading
            // leaves in flight stays small (ample for a LAN: 256 KiB a round trip).
            try channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 262_144)
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuardHandler(limits: limits, policy: policy, budget: budget), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
