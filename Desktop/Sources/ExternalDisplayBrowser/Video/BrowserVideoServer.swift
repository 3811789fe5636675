import ExternalDisplayMedia
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore

/// `extdisplay play FILE --serve`: browsers play the file themselves, following the player's timeline.
///
/// Three routes, under the same guard as the presenter's server (Host and Origin checks, head size and time,
/// connection budget; see ``BrowserServerConfiguration``): `/` the page, `/media` the one file,
/// byte for byte (never re-encoded; `Content-Type` from its first bytes, ``MediaContainer``; ranges as
/// ``ByteRangeAnswer`` decides), and `/ws` the timeline: a hello (file name and type), then every
/// ``TimelineMessage`` the player publishes (its `item`, a local path, left out) and answers to clock probes.
/// Nothing else is ever read from disk.
///
/// Publishing never waits: each page has a queue of the newest 16 messages, and a page that stops reading loses
/// the older ones (the newest timeline message is what counts) and is dropped by the heartbeat. The file goes out
/// 64 KiB at a time as the page reads it (the writes wait while the connection cannot take more; each socket's
/// kernel send buffer is 256 KiB), so a page that reads slowly or never holds a bounded amount of memory however
/// large the file, and a connection on which nothing moves for ``BrowserServerConfiguration/idleTimeout`` is closed.
///
/// ```swift
/// let server = try BrowserVideoServer(file: film, configuration: try BrowserServerConfiguration(listen: "8080"))
/// let url = try await server.listen()   // http://127.0.0.1:8080/
/// server.publish(message)               // from the player's timeline effects
/// ```
public final class BrowserVideoServer: Sendable {
    /// The server's configuration.
    public let configuration: BrowserServerConfiguration
    /// The container read from the file's first bytes.
    public let container: MediaContainer
    /// The file's length in bytes when it was opened (what is served).
    public let length: Int64
    /// Called (from the server's threads) with a line when a page connects or goes away.
    public var onPageChange: (@Sendable (String) -> Void)? {
        get { state.withLockedValue { $0.onPageChange } }
        set { state.withLockedValue { $0.onPageChange = newValue } }
    }

    private let file: URL
    private let clock: @Sendable () -> Double
    private let state = NIOLockedValueBox(State())
    private let serving = NIOLockedValueBox<Task<Void, Never>?>(nil)

    private struct State {
        var pages: [Int: AsyncStream<String>.Continuation] = [:]
        var nextPage = 1
        var timeline: String?
        var lastMessage: TimelineMessage?
        var latency = PresentationLatency()
        var onPageChange: (@Sendable (String) -> Void)?
    }

    /// The size of each piece of the file written to a page.
    static let chunk = 64 * 1_024
    /// Messages held for one page at most.
    static let queueLength = 16

    /// A server for `file`, answering clock probes with `clock` (the player's host clock: the clock its
    /// ``TimelineMessage/hostTime`` values are read on). Throws when the file cannot be read.
    public init(file: URL, configuration: BrowserServerConfiguration,
                clock: @escaping @Sendable () -> Double = { MonotonicMediaClock().now() }) throws(BrowserServerError) {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch {
            throw BrowserServerError("cannot read \(file.path) to serve it: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        let end: UInt64, head: Data
        do {
            end = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            head = try handle.read(upToCount: MediaContainer.sniffLength) ?? Data()
        } catch {
            throw BrowserServerError("cannot read \(file.path) to serve it: \(error.localizedDescription)")
        }
        self.file = file
        self.configuration = configuration
        self.clock = clock
        length = Int64(clamping: end)
        container = MediaContainer.sniff(Array(head))
    }

    /// Opens the listening socket and returns the page's URL (`http://HOST:PORT/`).
    public func listen() async throws(BrowserServerError) -> URL {
        let (task, port) = try await GuardedHTTPServer.listen(configuration: configuration) { [self] onListening in
            try await GuardedHTTPServer.run(configuration: configuration, router: router(),
                                            upgrade: { [self] request, port in upgrade(request, port: port) },
                                            onListening: onListening)
        }
        serving.withLockedValue { $0 = task }
        return GuardedHTTPServer.baseURL(host: configuration.host, port: port)
    }

    /// Sends a timeline message to every page, now and to pages that connect later. Never waits. Pages get it
    /// with its anchor moved later by the player's display latency (``framePresented(mediaTime:hostTime:)``), so
    /// that they show what the player's display shows rather than what it was asked to show.
    public func publish(_ message: TimelineMessage) {
        send(state.withLockedValue { state in
            state.lastMessage = message
            return state.latency.adjusted(message)
        })
    }

    /// The player's display showed the frame of `mediaTime` at host time `hostTime`: its latency is learnt
    /// (``PresentationLatency``) and pages get the last message again when it moved by more than 10 ms.
    public func framePresented(mediaTime: Double, hostTime: Double) {
        let resend: TimelineMessage? = state.withLockedValue { state in
            guard let last = state.lastMessage,
                  state.latency.record(frameTime: mediaTime, presentedAt: hostTime, timeline: last.timeline) else { return nil }
            return state.latency.adjusted(last)
        }
        if let resend { send(resend) }
    }

    /// The player's display latency as learnt so far, in seconds.
    public var displayLatency: Double { state.withLockedValue { $0.latency.estimate } }

    private func send(_ message: TimelineMessage) {
        var sent = message
        sent.item = nil
        guard let json = try? JSONEncoder().encode(sent) else { return }
        let text = "{\"type\":\"timeline\",\"message\":" + String(decoding: json, as: UTF8.self) + "}"
        let pages = state.withLockedValue { state in
            state.timeline = text
            return Array(state.pages.values)
        }
        for page in pages { page.yield(text) }
    }

    /// Stops serving; every page is disconnected.
    public func stop() {
        serving.withLockedValue { $0?.cancel() }
        for page in state.withLockedValue({ Array($0.pages.values) }) { page.finish() }
    }

    // MARK: Routes

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in GuardedHTTPServer.page(VideoPage.html, mediaSource: "'self'") }
        router.get("/media") { [self] request, _ in media(range: request.headers[.range]) }
        return router
    }

    private func media(range: String?) -> Response {
        var headers = HTTPFields()
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "no-store"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        switch ByteRangeAnswer.answer(to: range, length: length) {
        case .malformed(let problem):
            return GuardedHTTPServer.text(.badRequest, "Range: \(problem)", headers: headers)
        case .unsatisfiable(let length, let reason):
            headers[.contentRange] = "bytes */\(length)"
            return GuardedHTTPServer.text(.rangeNotSatisfiable, reason, headers: headers)
        case .whole(let length):
            headers[.contentType] = container.contentType
            return Response(status: .ok, headers: headers, body: body(from: 0, count: length))
        case .partial(let first, let last, let length):
            headers[.contentType] = container.contentType
            headers[.contentRange] = "bytes \(first)-\(last)/\(length)"
            return Response(status: .partialContent, headers: headers, body: body(from: first, count: last - first + 1))
        }
    }

    /// `count` bytes of the file from `offset`, read and written one chunk at a time as the page takes them.
    private func body(from offset: Int64, count: Int64) -> ResponseBody {
        let file = self.file
        return ResponseBody(contentLength: Int(count)) { writer in
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            var left = count
            while left > 0 {
                let piece = try handle.read(upToCount: Int(min(left, Int64(Self.chunk)))) ?? Data()
                // The file shrank under the server: the connection ends short rather than with made-up bytes.
                guard !piece.isEmpty else { throw BrowserServerError("the file ended early") }
                left -= Int64(piece.count)
                try await writer.write(ByteBuffer(bytes: piece))
            }
            try await writer.finish(nil)
        }
    }

    // MARK: The timeline socket

    private func upgrade(_ request: HTTPRequest, port: Int) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let (path, _) = GuardedHTTPServer.admitted(request, port: port, configuration: configuration), path == "/ws" else {
            return .dontUpgrade
        }
        return .upgrade([:]) { [self] inbound, outbound, _ in await servePage(inbound, outbound) }
    }

    private func servePage(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        let (messages, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.queueLength))
        let hello = "{\"type\":\"hello\",\"name\":" + Self.jsonString(file.lastPathComponent)
            + ",\"contentType\":\"\(container.contentType)\",\"bytes\":\(length)}"
        continuation.yield(hello)
        let (number, timeline, report) = state.withLockedValue { state in
            defer { state.nextPage += 1 }
            state.pages[state.nextPage] = continuation
            return (state.nextPage, state.timeline, state.onPageChange)
        }
        if let timeline { continuation.yield(timeline) }
        report?("page-\(number) connected")
        var reason = ""
        var answers = ClockProbeLimit()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in messages {
                    do { try await outbound.write(.text(text)) } catch { return }
                }
            }
            reason = await GuardedHTTPServer.readText(inbound, outbound, maxSize: VideoPageMessage.maximumSize,
                                                      textOnly: "pages send text messages only") { text in
                switch try VideoPageMessage.parse(text) {
                case .clock(let page):
                    let now = clock()
                    guard answers.allows(at: now) else { return }
                    continuation.yield("{\"type\":\"clock\",\"page\":\(page),\"host\":\(now)}")
                }
            }
            continuation.finish()
            group.cancelAll()
        }
        state.withLockedValue { _ = $0.pages.removeValue(forKey: number) }
        report?("page-\(number) gone: \(reason)")
    }

    private static func jsonString(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"video\""
    }
}
