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
        /// Arrival times (epoch ms) by frame number.
        public var arrivals: [UInt32: Double] = [:]
    }

    private let viewers: [NIOLockedValueBox<Viewer>]
    private let writers = NIOLockedValueBox<[Int: WebSocketOutboundWriter]>([:])
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])

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
        for index in 0..<count {
            let task = Task.detached { await client.run(index, socket, viewport, stalled: index < stalled) }
            client.tasks.withLockedValue { $0.append(task) }
        }
        _ = await client.wait(timeout: timeout) { $0.isOpen }
        return client
    }

    private func run(_ index: Int, _ url: String, _ viewport: String, stalled: Bool) async {
        var logger = Logger(label: "load")
        logger.logLevel = .critical
        let viewer = viewers[index]
        _ = try? await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 64 << 20), logger: logger) {
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
                    guard let number = Self.shownFrame(text) else { continue }
                    viewer.withLockedValue { $0.show(number, at: now) }
                }
            }
        }
        viewer.withLockedValue { $0.isOpen = false }
    }

    /// The frame a `{"type":"show","frame":K}` message names.
    static func shownFrame(_ text: String) -> UInt32? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              object["type"] as? String == "show", let frame = object["frame"] as? NSNumber else { return nil }
        return UInt32(exactly: frame.doubleValue)
    }

    /// A copy of every viewer's record.
    public var snapshot: [Viewer] { viewers.map { $0.withLockedValue { $0 } } }

    /// Polls until every viewer (from index `from` on) satisfies `condition`, or `timeout` seconds pass (a hang
    /// guard); returns whether they all did.
    public func wait(from: Int = 0, timeout: Double, _ condition: @escaping @Sendable (Viewer) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if viewers[from...].allSatisfy({ box in condition(box.withLockedValue { $0 }) }) { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        // Once more at the end: a caller that was not scheduled until after the deadline still sees the outcome.
        return viewers[from...].allSatisfy { box in condition(box.withLockedValue { $0 }) }
    }

    /// Closes every viewer.
    public func close() async {
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
