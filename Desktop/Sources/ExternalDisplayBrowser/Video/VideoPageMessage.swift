import Foundation

/// What a video page may send on `/ws`: only clock probes. Anything else closes the connection with a
/// message (``BrowserProtocolError``).
enum VideoPageMessage: Sendable, Hashable {
    /// `{"type":"clock","page":T}`: the page's clock reading T, in seconds, to be echoed with the player's.
    case clock(page: Double)

    /// The largest message a page sends, in bytes.
    static let maximumSize = 256

    /// Parses one text message.
    static func parse(_ text: String) throws(BrowserProtocolError) -> VideoPageMessage {
        struct Probe: Decodable {
            var type: String
            var page: Double?
        }
        guard let probe = try? JSONDecoder().decode(Probe.self, from: Data(text.utf8)), probe.type == "clock" else {
            throw BrowserProtocolError("video pages send {\"type\":\"clock\",\"page\":SECONDS} only")
        }
        guard let page = probe.page, page.isFinite, abs(page) < 1e12 else {
            throw BrowserProtocolError("a clock probe's page time must be a finite number of seconds")
        }
        return .clock(page: page)
    }
}
