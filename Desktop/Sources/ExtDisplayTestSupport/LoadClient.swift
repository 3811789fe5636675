import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Many emulated audience pages on loopback, for the load test and the scale benchmark: each connects to the
/// server's `/ws`, reports a viewport, holds the pictures it is sent (binary: frame number + PNG) and records every
/// frame it is told to show (`{"type":"show","frame":K}`: number, time, the PNG shown). A stalled
/// viewer never reads what it is sent (its socket fills up), like a frozen tab on a bad network. Bounded: at
/// most 2,000 viewers.
public final class LoadClient: Sendable {
    /// What one viewer has seen.
    public struct Viewer: Sendable {
        /// The last frame number the page was told to show.
        public var lastFrame: UInt32?
        /// Frames shown.
        public var frames = 0
        /// Pictures received (shown or held ahead).
        public var pictures = 0
        /// When the last frame to show arrived (epoch ms).
        public var lastArrival: Double = 0
        /// Bytes of the last PNG shown.
        public var lastPNG: Data?
        /// Pictures held, by frame number (the newest few).
        var held: [UInt32: Data] = [:]
        var heldOrder: [UInt32] = []
        /// Whether the connection is open.
        public var isOpen = false
        /// Why the connection ended, or never opened (refused, closed by the server with a code and reason, lost);
        /// nil while it is connecting or open, and after ``LoadClient/close()``.
        public var ended: String?
        /// Arrival times (epoch ms) by frame number.
        public var arrivals: [UInt32: Double] = [:]
        /// The ink messages received and decoded, in order (the newest ``LoadClient/inkLimit``).
        public var inks: [InkArrival] = []
    }

    /// One ink message (`{"type":"ink",…,"strokes":[{"c":…,"p":[[x,y,w],…]},…]}`) as a viewer decoded it.
    public struct InkArrival: Sendable {
        /// When it was received and decoded (epoch ms): its JSON parsed and every point read as numbers.
        public var at: Double
        /// Its length in bytes (the WebSocket text frame's payload).
        public var bytes: Int
        /// Strokes in it.
        public var strokes: Int
        /// Points in all its strokes.
        public var points: Int
        /// The last point of its last stroke (x, y as fractions of the slide), nil when it has none.
        public var lastX: Double?
        /// See ``lastX``.
        public var lastY: Double?
    }

    /// The most ink messages a viewer keeps.
    public static let inkLimit = 50_000

    private let viewers: [NIOLockedValueBox<Viewer>]
    private let writers = NIOLockedValueBox<[Int: WebSocketOutboundWriter]>([:])
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])
    /// Set by ``close()``: connections that end from then on ended as asked.
    private let closing = NIOLockedValueBox(false)

    /// The most viewers one client opens.
    public static let maximumViewers = 2_000

    private init(count: Int) {
        viewers = (0..<count).map { _ in NIOLockedValueBox(Viewer()) }
    }

    /// Opens `count` viewers on `url` (`http://127.0.0.1:PORT/`) with a viewport of `width`×`height` at `dpr`;
    /// the first `stalled` of them never read. Returns when every viewer is connected (or after `timeout` s).
    public static func connect(count: Int, to url: String, width: Int = 1280, height: Int = 720, dpr: Double = 1,
                               stalled: Int = 0, timeout: Double = 60) async throws -> LoadClient {
        guard (1...maximumViewers).contains(count) else {
            throw SupportError("a load client opens 1…\(maximumViewers) viewers, not \(count)")
        }
        guard url.hasPrefix("http://127.0.0.1:") || url.hasPrefix("http://[::1]:") else {
            throw SupportError("the load client runs on loopback only, not \(url)")
        }
        let client = LoadClient(count: count)
        let socket = "ws://" + url.dropFirst("http://".count) + "ws"
        let viewport = "{\"type\":\"viewport\",\"width\":\(width),\"height\":\(height),\"dpr\":\(dpr)}"
        try raiseFileLimit(toHold: count)
        for index in 0..<count {
            let task = Task.detached { await client.run(index, socket, viewport, stalled: index < stalled) }
            client.tasks.withLockedValue { $0.append(task) }
        }
        // Every viewer open, or some refused or closed: then waiting longer changes nothing.
        _ = await client.wait(timeout: timeout) { $0.isOpen || $0.ended != nil }
        return client
    }

    /// What keeps viewers from being open, counted by reason (`"4 of 500 viewers not open: 4 refused: …"`), or nil
    /// when every viewer is open.
    public var problems: String? {
        let viewers = snapshot
        let closed = viewers.filter { !$0.isOpen }
        guard !closed.isEmpty else { return nil }
        var reasons: [String: Int] = [:]
        for viewer in closed { reasons[viewer.ended ?? "still connecting", default: 0] += 1 }
        let listed = reasons.sorted { $0.value > $1.value }.prefix(4).map { "\($0.value) \($0.key)" }
        return "\(closed.count) of \(viewers.count) viewers not open: " + listed.joined(separator: "; ")
    }

    /// Raises this process's soft limit on open files (to at most its hard limit) so that `count` sockets and a
    /// margin fit; throws, saying both limits, when they cannot.
    static func raiseFileLimit(toHold count: Int) throws {
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        // The sockets of this client, of every client open beside it, and the process's own files.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 64
        let needed = rlim_t(open + count + 64)
        guard limit.rlim_cur < needed else { return }
        var raised = limit
        raised.rlim_cur = max(needed, min(limit.rlim_max, 65_536))
        if raised.rlim_cur <= limit.rlim_max, setrlimit(resource, &raised) == 0 { return }
        throw SupportError("\(count) viewers need about \(needed) open files; this process may open \(limit.rlim_cur) "
                           + "(hard limit \(limit.rlim_max)): raise it with ulimit -n")
    }

    private func run(_ index: Int, _ url: String, _ viewport: String, stalled: Bool) async {
        var logger = Logger(label: "load")
        logger.logLevel = .critical
        let viewer = viewers[index]
        let ended: String
        do {
            let close = try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 64 << 20), logger: logger) {
                inbound, outbound, _ in
                self.writers.withLockedValue { $0[index] = outbound }
                try await outbound.write(.text(viewport))
                viewer.withLockedValue { $0.isOpen = true }
                if stalled {
                    // Never read: the socket's buffers fill and the server's writes to it stall.
                    while !Task.isCancelled { try await Task.sleep(nanoseconds: 50_000_000) }
                    return
                }
                for try await message in inbound.messages(maxSize: 64 << 20) {
                    let now = Date().timeIntervalSince1970 * 1000
                    switch message {
                    case .binary(var buffer):
                        guard let number = buffer.readInteger(endianness: .big, as: UInt32.self) else { continue }
                        let png = Data(buffer.readableBytesView)
                        viewer.withLockedValue { $0.hold(number, png) }
                    case .text(let text):
                        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
                        if let number = Self.shownFrame(object) {
                            viewer.withLockedValue { $0.show(number, at: now) }
                        } else if object["type"] as? String == "ink" {
                            var arrival = Self.decodeInk(object, bytes: text.utf8.count)
                            arrival.at = Date().timeIntervalSince1970 * 1000
                            viewer.withLockedValue {
                                if $0.inks.count >= Self.inkLimit { $0.inks.removeFirst($0.inks.count / 2) }
                                $0.inks.append(arrival)
                            }
                        }
                    }
                }
            }
            if let close {
                ended = "closed by the server: \(close.closeCode) \(close.reason ?? "")"
            } else {
                ended = "closed without a close frame"
            }
        } catch {
            // An upgrade answered with anything but 101 (the server's budget answers 503) ends here.
            ended = viewer.withLockedValue { $0.isOpen } ? "connection lost: \(error)" : "refused: \(error)"
        }
        let closing = self.closing.withLockedValue { $0 }
        viewer.withLockedValue {
            $0.isOpen = false
            if !closing { $0.ended = ended }
        }
    }

    /// The frame a parsed `{"type":"show","frame":K}` message names.
    static func shownFrame(_ object: [String: Any]) -> UInt32? {
        guard object["type"] as? String == "show", let frame = object["frame"] as? NSNumber else { return nil }
        return UInt32(exactly: frame.doubleValue)
    }

    /// Reads every point of a parsed ink message as numbers, as a page does before drawing it (time not set).
    static func decodeInk(_ object: [String: Any], bytes: Int) -> InkArrival {
        var arrival = InkArrival(at: 0, bytes: bytes, strokes: 0, points: 0)
        for stroke in object["strokes"] as? [[String: Any]] ?? [] {
            arrival.strokes += 1
            for point in stroke["p"] as? [[Any]] ?? [] {
                let numbers = point.compactMap { ($0 as? NSNumber)?.doubleValue }
                guard numbers.count == 3 else { continue }
                arrival.points += 1
                arrival.lastX = numbers[0]
                arrival.lastY = numbers[1]
            }
        }
        return arrival
    }

    /// A copy of every viewer's record.
    public var snapshot: [Viewer] { viewers.map { $0.withLockedValue { $0 } } }

    /// Each viewer's last frame shown and whether it is open: what a benchmark polls, without copying records.
    public var progress: [(frame: UInt32?, isOpen: Bool)] { viewers.map { $0.withLockedValue { ($0.lastFrame, $0.isOpen) } } }

    /// Each viewer's newest ink message (nil: none yet): what a benchmark polls, without copying records.
    public var lastInks: [InkArrival?] { viewers.map { $0.withLockedValue { $0.inks.last } } }

    /// Polls until every viewer (from index `from` on) satisfies `condition`, or `timeout` seconds pass (a hang
    /// guard); returns whether they all did.
    public func wait(from: Int = 0, timeout: Double, _ condition: @escaping @Sendable (Viewer) -> Bool) async -> Bool {
        await eventually(timeout, every: 0.02) { viewers[from...].allSatisfy { box in condition(box.withLockedValue { $0 }) } }
    }

    /// Closes every viewer.
    public func close() async {
        closing.withLockedValue { $0 = true }
        let writers = self.writers.withLockedValue { $0 }
        for writer in writers.values { try? await writer.close(.normalClosure, reason: nil) }
        for task in tasks.withLockedValue({ $0 }) { task.cancel() }
        _ = await wait(timeout: 10) { !$0.isOpen }
    }
}

extension LoadClient.Viewer {
    /// Holds a picture (the newest eight are kept, more than a page holds).
    mutating func hold(_ number: UInt32, _ png: Data) {
        pictures += 1
        held[number] = png
        heldOrder.removeAll { $0 == number }
        heldOrder.append(number)
        while heldOrder.count > 8 { held[heldOrder.removeFirst()] = nil }
    }

    /// Shows a held picture; a frame the page was never sent shows nothing (recorded as shown without bytes).
    mutating func show(_ number: UInt32, at now: Double) {
        lastFrame = number
        frames += 1
        lastArrival = now
        lastPNG = held[number]
        arrivals[number] = now
    }
}
