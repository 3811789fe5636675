import ExternalDisplayMedia
import Foundation

/// What a video page may send on `/ws`: clock probes, and — from the remote only (`/remote/ws?token=…`) — control
/// requests. Anything else closes the connection with a message (``BrowserProtocolError``).
enum VideoPageMessage: Sendable, Hashable {
    /// `{"type":"clock","page":T}`: the page's clock reading T, in seconds, to be echoed with the player's.
    case clock(page: Double)
    /// `{"type":"control","action":A[,"value":N]}`: A is `play`, `pause`, `toggle`, `seekBy` (N seconds, signed),
    /// `seekTo` (N seconds), `rate` (N) or `volume` (N).
    case control(BrowserVideoRequest)

    /// The largest message a page sends, in bytes.
    static let maximumSize = 256
    /// The largest magnitude a control value may have (seconds, rate or volume): beyond it the message is refused
    /// as malformed rather than handed to the core.
    static let largestValue = 1e9

    /// Parses one text message.
    static func parse(_ text: String) throws(BrowserProtocolError) -> VideoPageMessage {
        struct Envelope: Decodable {
            var type: String
            var page: Double?
            var action: String?
            var value: Double?
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(text.utf8)) else {
            // At most 123 bytes: it is the close reason.
            throw BrowserProtocolError("malformed message: send {\"type\":\"clock\",\"page\":S} or, from the remote, "
                                       + "{\"type\":\"control\",\"action\":A,\"value\":NUMBER}")
        }
        switch envelope.type {
        case "clock":
            guard let page = envelope.page, page.isFinite, abs(page) < 1e12 else {
                throw BrowserProtocolError("a clock probe's page time must be a finite number of seconds")
            }
            return .clock(page: page)
        case "control":
            return .control(try control(envelope.action ?? "", envelope.value))
        default:
            throw BrowserProtocolError("unknown message type; video pages send clock probes and, from the remote, controls")
        }
    }

    private static func control(_ action: String, _ value: Double?) throws(BrowserProtocolError) -> BrowserVideoRequest {
        func number() throws(BrowserProtocolError) -> Double {
            guard let value else { throw BrowserProtocolError("control \(NetworkText.printable(action)): needs a number as value") }
            guard value.isFinite, abs(value) <= largestValue else {
                throw BrowserProtocolError("control \(action): the value must be a finite number of at most 1e9")
            }
            return value
        }
        switch action {
        case "play": return .command(.play)
        case "pause": return .command(.pause)
        case "toggle": return .command(.togglePlayPause)
        case "seekBy": return .command(.seek(by: try number()))
        case "seekTo": return .command(.changePosition(to: try number()))
        case "rate": return .command(.changeRate(to: try number()))
        case "volume": return .volume(try number())
        default:
            throw BrowserProtocolError("unknown control action; use play, pause, toggle, seekBy, seekTo, rate or volume")
        }
    }
}
