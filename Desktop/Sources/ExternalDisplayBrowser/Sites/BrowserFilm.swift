import DesktopFiles
import ExternalDisplayMedia
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore

/// What the ``BrowserServer`` shows while playing (`extdisplay play FILE --serve`): browsers play the file
/// themselves, following the player's timeline.
///
/// At the server's places: `/` the page, `/remote?token=…` the same page with the controls, `/media` the one file,
/// byte for byte (never re-encoded; `Content-Type` from its first bytes, ``MediaContainer``; ranges as
/// ``ByteRangeAnswer`` decides), `/ws` the timeline: a hello (file name and type), then every ``TimelineMessage`` the
/// player publishes (its `item`, a local path, left out) and answers to clock probes. Nothing else is ever read from
/// disk, and the file is opened once (``OpenedFile``: a regular file, a link followed, a FIFO or device refused before
/// anything reads) and served from that descriptor: a file renamed, replaced or turned into a FIFO under its name
/// mid-film changes nothing for the pages. Only the remote's socket (`/remote/ws?token=…`) may send control requests,
/// at most 20 a second: each becomes a ``BrowserVideoRequest`` for ``onRequest``, for the player to hand to its
/// playback core like an MPRIS request. An audience page that sends one is closed with a reason.
///
/// Publishing never waits: each page has a queue of the newest 16 messages, and a page that stops reading loses
/// the older ones (the newest timeline message is what counts) and is dropped by the heartbeat. The file goes out
/// 64 KiB at a time as the page reads it (the writes wait while the connection cannot take more; each socket's
/// kernel send buffer is 256 KiB), so a page that reads slowly or never holds a bounded amount of memory however
/// large the file, and a connection on which nothing moves for ``BrowserServerConfiguration/idleTimeout`` is closed.
///
/// ```swift
/// let film = try BrowserFilm(file: url)
/// let server = BrowserServer(configuration: try BrowserServerConfiguration(listen: "8080"), film: film)
/// let page = try await server.listen()   // http://127.0.0.1:8080/
/// film.publish(message)                  // from the player's timeline effects
/// ```
public final class BrowserFilm: BrowserSite {
    /// The container read from the file's first bytes.
    public let container: MediaContainer
    /// The file's length in bytes when it was opened (what is served).
    public let length: Int64
    /// Called (from the server's threads) with a line when a page connects or goes away.
    public var onPageChange: (@Sendable (String) -> Void)? {
        get { state.withLockedValue { $0.onPageChange } }
        set { state.withLockedValue { $0.onPageChange = newValue } }
    }
    /// Called (from the server's threads) with each control request the remote sent, in arrival order.
    public var onRequest: (@Sendable (BrowserVideoRequest) -> Void)? {
        get { state.withLockedValue { $0.onRequest } }
        set { state.withLockedValue { $0.onRequest = newValue } }
    }
    /// Pages connected now (the remote's included).
    public var pageCount: Int { state.withLockedValue { $0.pages.count } }
    private let file: OpenedFile
    private let clock: @Sendable () -> Double
    private let state = NIOLockedValueBox(State())

    private struct Page {
        var messages: AsyncStream<String>.Continuation
        var isRemote: Bool
    }

    private struct State {
        var pages: [Int: Page] = [:]
        var nextPage = 1
        var timeline: String?
        var volume: String?
        var lastMessage: TimelineMessage?
        var latency = PresentationLatency()
        var onPageChange: (@Sendable (String) -> Void)?
        var onRequest: (@Sendable (BrowserVideoRequest) -> Void)?
    }

    /// The size of each piece of the file written to a page.
    static let chunk = 64 * 1_024
    /// Messages held for one page at most.
    static let queueLength = 16
    /// How long after a jump the player's presented frames are its landing, not its display's latency (seconds).
    public static let landingTime = 0.5
    /// Control requests acted on per second from one remote, at most.
    static let controlsPerSecond = 20

    /// The film `file`, answering clock probes with `clock` (the player's host clock: the clock its
    /// ``TimelineMessage/hostTime`` values are read on). Throws when the file is not a regular file or cannot be read.
    public convenience init(file: URL,
                            clock: @escaping @Sendable () -> Double = { MonotonicMediaClock().now() }) throws(BrowserServerError) {
        let opened: OpenedFile
        do { opened = try OpenedFile.open(file) } catch {
            throw BrowserServerError("cannot serve \(error.description)")
        }
        try self.init(opened: opened, clock: clock)
    }

    /// The film of a file already opened and checked: every request is answered from `opened`'s descriptor, never
    /// by opening the name again. Throws when its first bytes cannot be read.
    public init(opened: OpenedFile,
                clock: @escaping @Sendable () -> Double = { MonotonicMediaClock().now() }) throws(BrowserServerError) {
        let head: [UInt8]
        do { head = try opened.read(at: 0, count: MediaContainer.sniffLength) } catch {
            throw BrowserServerError("cannot serve \(error.description)")
        }
        self.file = opened
        self.clock = clock
        length = opened.size
        container = MediaContainer.sniff(head)
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
    /// (``PresentationLatency``) and pages get the last message again when it moved by more than 10 ms. Frames
    /// presented within ``landingTime`` of a jump (a seek, a new item) are its landing, not the display's steady
    /// latency, and are left out: counted, they moved the pages' anchor back and forth while they settled.
    public func framePresented(mediaTime: Double, hostTime: Double) {
        let resend: TimelineMessage? = state.withLockedValue { state in
            guard let last = state.lastMessage, !(last.discontinuity && hostTime < last.hostTime + Self.landingTime),
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
        for page in pages { page.messages.yield(text) }
    }

    /// Sends the player's volume (0…1, as its core decided it) to every page when it changed, now and to pages that
    /// connect later:
    /// pages play at that volume once their sound is on, and the remote's slider shows it.
    public func publish(volume: Double) {
        guard volume.isFinite else { return }
        let text = "{\"type\":\"volume\",\"level\":\(volume)}"
        let pages: [Page] = state.withLockedValue { state in
            guard state.volume != text else { return [] }
            state.volume = text
            return Array(state.pages.values)
        }
        for page in pages { page.messages.yield(text) }
    }

    /// Tells the remotes (never the audience pages) what the player answered to a request, e.g. `changeRate(to: 3.0)
    /// → noSuchContent`: the remote shows it.
    public func publishAnswer(_ answer: String) {
        let text = "{\"type\":\"answer\",\"text\":" + Self.jsonString(NetworkText.printable(answer)) + "}"
        for page in state.withLockedValue({ $0.pages.values.filter(\.isRemote) }) { page.messages.yield(text) }
    }

    /// Ends every page's socket (the server stops).
    func finish() {
        for page in state.withLockedValue({ Array($0.pages.values) }) { page.messages.finish() }
    }

    // MARK: Routes

    func audiencePage() -> Response { GuardedHTTPServer.page(VideoPage.html, mediaSource: "'self'") }

    func remotePage() -> Response { GuardedHTTPServer.page(VideoPage.html, mediaSource: "'self'") }

    func media(range: String?) -> Response? {
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
            var next = offset
            let end = offset + count
            while next < end {
                // From the descriptor opened at start (pread: no shared offset between pages).
                let piece = try file.read(at: next, count: Int(min(end - next, Int64(Self.chunk))))
                // The file shrank under the server: the connection ends short rather than with made-up bytes.
                guard !piece.isEmpty else { throw BrowserServerError("the file ended early") }
                next += Int64(piece.count)
                try await writer.write(ByteBuffer(bytes: piece))
            }
            try await writer.finish(nil)
        }
    }

    // MARK: The timeline sockets

    func serveAudience(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        await servePage(inbound, outbound, isRemote: false)
    }

    func serveRemote(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        await servePage(inbound, outbound, isRemote: true)
    }

    private func servePage(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, isRemote: Bool) async {
        let (messages, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.queueLength))
        let hello = "{\"type\":\"hello\",\"name\":" + Self.jsonString(file.shownName)
            + ",\"contentType\":\"\(container.contentType)\",\"bytes\":\(length)}"
        continuation.yield(hello)
        let (number, timeline, volume, report) = state.withLockedValue { state in
            defer { state.nextPage += 1 }
            state.pages[state.nextPage] = Page(messages: continuation, isRemote: isRemote)
            return (state.nextPage, state.timeline, state.volume, state.onPageChange)
        }
        if let timeline { continuation.yield(timeline) }
        if let volume { continuation.yield(volume) }
        let name = isRemote ? "remote-\(number)" : "page-\(number)"
        report?("\(name) connected")
        var answers = ClockProbeLimit()
        var controls = ClockProbeLimit(perSecond: Self.controlsPerSecond)
        let writer: @Sendable () async -> Void = {
            for await text in messages {
                do { try await outbound.write(.text(text)) } catch { return }
            }
        }
        let reason = await GuardedHTTPServer.serveSocket(
            inbound, outbound, maxSize: VideoPageMessage.maximumSize, textOnly: "pages send text messages only",
            writer: writer, stop: { continuation.finish() }) { text in
            switch try VideoPageMessage.parse(text) {
            case .clock(let page):
                let now = clock()
                guard answers.allows(at: now) else { return }
                continuation.yield("{\"type\":\"clock\",\"page\":\(page),\"host\":\(now)}")
            case .control(let request):
                guard isRemote else {
                    throw BrowserProtocolError("audience pages cannot control the player; the remote's URL "
                                               + "(/remote?token=…, printed by the player) can")
                }
                guard controls.allows(at: clock()) else {
                    continuation.yield("{\"type\":\"error\",\"text\":\"too many controls: at most "
                                       + "\(Self.controlsPerSecond) a second; this one was not carried out\"}")
                    return
                }
                state.withLockedValue { $0.onRequest }?(request)
            }
        }
        state.withLockedValue { _ = $0.pages.removeValue(forKey: number) }
        report?("\(name) gone: \(reason)")
    }

    private static func jsonString(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"video\""
    }
}
