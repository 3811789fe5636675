#if canImport(CGStreamer)
import Foundation

/// What passes between ``VideoDecoder`` and its decoder process (`extdisplay-decoder`, ``DecoderWorker``).
///
/// - The process gets a `SOCK_SEQPACKET` Unix socket as file descriptor 3 and the frame memory as descriptor 4;
///   standard input and output are `/dev/null`, standard error a stream socket whose writing end does not block
///   (what does not fit is lost; the last line is quoted when the process dies). Its arguments: the parent's pid, and `main`
///   when it was started from the parent's main thread (see ``DecoderWorker``). A file named by its descriptor
///   (`/proc/self/fd/N`, as `play` names a file whose name is not UTF-8) is handed on as descriptor N, so the same
///   path opens it there and messages name it as here.
/// - One request, one reply, in order; each a JSON message of at most ``maximumMessage`` bytes (one datagram of
///   the socket, so messages never run together). A reply that is longer, not JSON of the expected shape, or that
///   comes when nothing was asked is a protocol violation: the process is stopped.
/// - Pixels never go through the socket: a reply that carries a frame (``DecoderFrameHeader``) has written its
///   `width × height × 4` bytes at the start of the frame memory, a memfd the parent made, sized for the largest
///   picture the player accepts (8192 × 8192) and sealed so it can neither shrink nor grow (a mapping of it cannot
///   fault, whatever the process does). The parent copies the pixels out before its next request: one slot is
///   enough because nothing is written while no request is open.
enum DecoderProtocol {
    /// The largest message either side sends or accepts, in bytes.
    static let maximumMessage = 64 * 1024
    /// The bytes of the frame memory: the largest picture accepted (8192 × 8192, 4 bytes a pixel).
    static let frameMemoryBytes = 8192 * 8192 * 4
    /// The decoder process's socket descriptor.
    static let socketDescriptor: Int32 = 3
    /// The decoder process's frame memory descriptor.
    static let memoryDescriptor: Int32 = 4

    static func encode<T: Encodable>(_ value: T) -> Data? {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf",
                                                                      nan: "nan")
        return try? encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf",
                                                                        nan: "nan")
        return try? decoder.decode(type, from: data)
    }

    /// Sends one message (never raises SIGPIPE); false when the peer is gone or the message is too long.
    static func send(_ data: Data, on socket: Int32) -> Bool {
        guard data.count <= maximumMessage else { return false }
        while true {
            let sent = data.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent == data.count { return true }
            if sent < 0, errno == EINTR { continue }
            return false
        }
    }

    /// Receives one message. `.closed` at the end of the stream, `.tooLong` for a message over the limit.
    static func receive(on socket: Int32, flags: Int32 = 0) -> Received {
        var buffer = [UInt8](repeating: 0, count: maximumMessage + 1)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, flags) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return .nothing }
            if count < 0 { return .failed(errno) }
            if count == 0 { return .closed }
            if count > maximumMessage { return .tooLong }
            return .message(Data(buffer[0..<count]))
        }
    }

    /// What a receive gave.
    enum Received {
        case message(Data)
        case closed
        case tooLong
        case nothing
        case failed(Int32)
    }
}

/// A request to the decoder process: one per ``VideoDecoder`` call that needs the pipeline.
enum DecoderRequest: Codable, Sendable {
    case open(path: String, timeout: Double, playsSound: Bool, layout: VideoFrame.Layout)
    case frame(at: Double)
    case startStreaming(from: Double, rate: Double)
    case pauseStreaming
    case streamFrame(upTo: Double)
    case requestFrame(at: Double)
    case prerolledFrame
    case soundPosition
    case setVolume(Double)
    case playsSound
}

/// A frame written at the start of the frame memory.
struct DecoderFrameHeader: Codable, Sendable, Hashable {
    var width: Int
    var height: Int
    var time: Double
}

/// The decoder process's answer to one request.
enum DecoderReply: Codable, Sendable {
    /// The file opened; its first frame is in the frame memory.
    case opened(info: VideoStreamInfo, first: DecoderFrameHeader?)
    /// A frame in the frame memory, or none.
    case frame(DecoderFrameHeader?)
    /// Done, nothing to say.
    case done
    /// A position in seconds, or none.
    case position(Double?)
    /// Yes or no.
    case flag(Bool)
    /// The pipeline's error, as it would have been thrown in this process.
    case failed(VideoDecodingError)
}

extension VideoFrame.Layout: Codable {}
#endif
