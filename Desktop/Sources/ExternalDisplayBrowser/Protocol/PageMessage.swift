import Foundation

/// A text message from an audience page, parsed and checked. Pages send JSON objects with a `type`:
/// `{"type":"viewport","width":1280,"height":720,"dpr":1}` (first, and after every resize) and
/// `{"type":"painted","frame":7,"at":1732370000123.4}` (a frame is on screen; `at` is the page's clock in ms).
public enum PageMessage: Hashable, Sendable {
    /// The page's viewport (first message; later ones are mode changes).
    case viewport(BrowserViewport)
    /// The page painted frame `frame` at `at` (milliseconds since the Unix epoch, the page's clock).
    case painted(frame: UInt32, at: Double)

    /// The largest text message a page may send, in bytes.
    public static let maximumSize = 1_024

    /// Parses one message; throws a ``BrowserProtocolError`` saying what is wrong.
    public static func parse(_ text: String) throws(BrowserProtocolError) -> PageMessage {
        let object = try JSONObject(text, limit: maximumSize)
        switch try object.string("type") {
        case "viewport":
            return .viewport(try BrowserViewport(cssWidth: try object.number("width"),
                                                 cssHeight: try object.number("height"),
                                                 devicePixelRatio: try object.number("dpr")))
        case "painted":
            let frame = try object.number("frame"), at = try object.number("at")
            guard frame.isFinite, frame >= 0, frame <= Double(UInt32.max), frame == frame.rounded() else {
                throw BrowserProtocolError("painted frame \(frame) is not a frame number")
            }
            guard at.isFinite else { throw BrowserProtocolError("painted at \(at) is not a finite time") }
            return .painted(frame: UInt32(frame), at: at)
        case let other:
            throw BrowserProtocolError("unknown message type \(NetworkText.quote(other)); pages send viewport or painted")
        }
    }
}

/// A command from the remote page: `{"type":"command","name":"next"}`.
public enum BrowserRemoteCommand: String, Hashable, Sendable, CaseIterable {
    /// The next slide.
    case next
    /// The previous slide.
    case previous
    /// Blank the audience displays (again: unblank).
    case blank
    /// Pause or resume the timer.
    case pauseTimer = "pause"
    /// Freeze the audience on the current slide (again: follow the speaker).
    case freeze

    /// The largest text message a remote may send, in bytes.
    public static let maximumSize = 256

    /// Parses one message; throws a ``BrowserProtocolError`` saying what is wrong.
    public static func parse(_ text: String) throws(BrowserProtocolError) -> BrowserRemoteCommand {
        let object = try JSONObject(text, limit: maximumSize)
        guard try object.string("type") == "command" else {
            throw BrowserProtocolError("the remote sends only {\"type\":\"command\",\"name\":…}")
        }
        let name = try object.string("name")
        guard let command = BrowserRemoteCommand(rawValue: name) else {
            throw BrowserProtocolError("unknown command \(NetworkText.quote(name)); known: "
                                       + allCases.map(\.rawValue).joined(separator: ", "))
        }
        return command
    }
}

/// A parsed JSON object with typed, checked field access.
struct JSONObject {
    let fields: [String: Any]

    init(_ text: String, limit: Int) throws(BrowserProtocolError) {
        guard text.utf8.count <= limit else {
            throw BrowserProtocolError("message of \(text.utf8.count) bytes; the limit is \(limit)")
        }
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
            throw BrowserProtocolError("message is not JSON")
        }
        guard let fields = parsed as? [String: Any] else { throw BrowserProtocolError("message is not a JSON object") }
        self.fields = fields
    }

    func string(_ key: String) throws(BrowserProtocolError) -> String {
        guard let value = fields[key] as? String else { throw BrowserProtocolError("field '\(key)' must be a string") }
        return value
    }

    func number(_ key: String) throws(BrowserProtocolError) -> Double {
        guard let value = fields[key] as? NSNumber else { throw BrowserProtocolError("field '\(key)' must be a number") }
        return value.doubleValue
    }
}
