import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// A minimal client of Chromium's DevTools protocol over its WebSocket: numbered calls, one answer each.
/// Used by the browser tests and the latency benchmark to drive real pages.
public final class CDPClient: Sendable {
    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
        var outbound: WebSocketOutboundWriter?
        var closed = false
    }
    private let state = NIOLockedValueBox(State())

    private init() {}

    /// Connects to a DevTools WebSocket URL (`ws://127.0.0.1:PORT/devtools/browser/…`).
    public static func connect(_ url: String) async throws -> CDPClient {
        let client = CDPClient()
        let (ready, readyContinuation) = AsyncStream<Bool>.makeStream()
        Task.detached {
            var logger = Logger(label: "cdp")
            logger.logLevel = .critical
            do { _ = try await WebSocketClient.connect(
                url: url, configuration: .init(maxFrameSize: 256 << 20), logger: logger
            ) { inbound, outbound, _ in
                client.state.withLockedValue { $0.outbound = outbound }
                readyContinuation.yield(true)
                for try await message in inbound.messages(maxSize: 256 << 20) {
                    guard case .text(let text) = message else { continue }
                    client.receive(Data(text.utf8))
                }
            } } catch { FileHandle.standardError.write(Data("CDP: \(error)\n".utf8)) }
            readyContinuation.yield(false)
            client.closeAll()
        }
        for await ok in ready {
            guard ok else { break }
            return client
        }
        throw SupportError("cannot connect to Chromium's DevTools at \(url)")
    }

    /// Calls a method and returns its `result` object; throws on a protocol error.
    @discardableResult
    public func call(_ method: String, _ params: [String: Any] = [:], session: String? = nil) async throws -> [String: Any] {
        var message: [String: Any] = ["method": method, "params": params]
        if let session { message["sessionId"] = session }
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            let (id, outbound) = state.withLockedValue { state -> (Int, WebSocketOutboundWriter?) in
                if state.closed { return (0, nil) }
                let id = state.nextID
                state.nextID += 1
                state.waiting[id] = continuation
                return (id, state.outbound)
            }
            guard let outbound else {
                continuation.resume(throwing: SupportError("DevTools connection closed"))
                return
            }
            message["id"] = id
            let text = String(decoding: try! JSONSerialization.data(withJSONObject: message), as: UTF8.self)
            Task { try? await outbound.write(.text(text)) }
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SupportError("\(method): answer is not an object")
        }
        if let error = object["error"] { throw SupportError("\(method): \(error)") }
        return object["result"] as? [String: Any] ?? [:]
    }

    /// Closes the connection.
    public func close() async {
        let outbound = state.withLockedValue { $0.outbound }
        try? await outbound?.close(.normalClosure, reason: nil)
    }

    private func receive(_ data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let id = object["id"] as? Int else { return }
        let continuation = state.withLockedValue { $0.waiting.removeValue(forKey: id) }
        continuation?.resume(returning: data)
    }

    private func closeAll() {
        let waiting = state.withLockedValue { state -> [CheckedContinuation<Data, any Error>] in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(throwing: SupportError("DevTools connection closed")) }
    }
}

/// A failure of the test harness, with a message saying what to do.
public struct SupportError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String

    /// An error.
    public init(_ description: String) { self.description = description }
}
