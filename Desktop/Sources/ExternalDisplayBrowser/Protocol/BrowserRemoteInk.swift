import Foundation

/// What the remote page may send: a command (the slide and talk buttons), a tool key (the drawing tools), or
/// pen input drawn with a finger on the current slide's picture.
///
/// ```json
/// {"type":"command","name":"next"}
/// {"type":"key","name":"highlighter"}
/// {"type":"ink","stroke":7,"down":true,"points":[0.2,0.5,1,0.21,0.5,1]}
/// {"type":"ink","stroke":7,"points":[0.3,0.52,0.8],"end":"up"}
/// {"type":"zoom","rect":[0.25,0.25,0.5,0.5]}
/// {"type":"zoom","whole":true}
/// ```
///
/// A bad command, a message that is not JSON or is too large closes the socket with a reason, as before. A bad
/// key, ink or zoom message is ``refused(_:)``: the page is told why and the socket stays open (a finger lifted after
/// the server ended a stroke is no reason to drop the speaker's remote).
public enum BrowserRemoteMessage: Hashable, Sendable {
    /// A slide or talk command.
    case command(BrowserRemoteCommand)
    /// A drawing tool's key, by the name `--keys` gives it (`pen`, `undo`, …), one of the names the platform was
    /// given (``BrowserDisplayPlatform/remoteKeyNames``).
    case key(String)
    /// Pen input on the current slide.
    case ink(BrowserRemoteInk)
    /// A pinch, a two-finger drag or a double tap on the current slide's picture: what the room should see.
    case zoom(BrowserRemoteZoom)
    /// A key or ink message that was refused, and why (printable).
    case refused(String)

    /// The largest text message the remote may send, in bytes (an ink message of ``BrowserRemoteInk/maximumPoints``
    /// points fits with room to spare).
    public static let maximumSize = 4_096

    /// Parses one message of the remote; `keys` are the tool names it may send, `pen` the stroke the remote is
    /// drawing (updated). Throws a ``BrowserProtocolError`` for what closes the socket.
    public static func parse(_ text: String, keys: Set<String>,
                             pen: inout BrowserRemotePen) throws(BrowserProtocolError) -> BrowserRemoteMessage {
        let object = try JSONObject(text, limit: maximumSize)
        switch try object.string("type") {
        case "command":
            return .command(try BrowserRemoteCommand.parse(text))
        case "key":
            guard let name = object.fields["name"] as? String else { return .refused("a key message needs \"name\": a tool's name") }
            guard keys.contains(name) else {
                return .refused("unknown tool \(NetworkText.quote(String(name.prefix(40)))); the remote's tools: "
                                + keys.sorted().joined(separator: ", "))
            }
            return .key(name)
        case "ink":
            do throws(BrowserProtocolError) {
                let ink = try BrowserRemoteInk(object)
                try pen.accept(ink)
                return .ink(ink)
            } catch {
                return .refused(error.description)
            }
        case "zoom":
            do throws(BrowserProtocolError) {
                return .zoom(try BrowserRemoteZoom(object))
            } catch {
                return .refused(error.description)
            }
        case let other:
            throw BrowserProtocolError("unknown message type \(NetworkText.quote(String(other.prefix(40)))); "
                                       + "the remote sends command, key, ink or zoom")
        }
    }
}

/// Pen input from the remote page: part of one stroke, in slide fractions, several points a message.
///
/// Fields: `stroke`, the page's number for the stroke (a whole number 1…2³¹−1); `down: true` on its first
/// message (its first point is where the finger touched); `points`, a flat array `x, y, pressure, x, y, …` of at
/// most ``maximumPoints`` points, each number in 0…1 (x and y from the slide's top-left corner); `end`, `"up"`
/// when the finger was lifted (the stroke is finished) or `"cancel"` (it is dropped) on its last message.
public struct BrowserRemoteInk: Hashable, Sendable {
    /// One point: slide fractions and the pressure, each 0…1.
    public struct Point: Hashable, Sendable {
        /// 0 (left edge) … 1 (right edge).
        public var x: Double
        /// 0 (top edge) … 1 (bottom edge).
        public var y: Double
        /// 0…1 (1 when the device reports none).
        public var pressure: Double

        /// A point.
        public init(x: Double, y: Double, pressure: Double) {
            self.x = x
            self.y = y
            self.pressure = pressure
        }
    }

    /// How the stroke ended.
    public enum End: String, Hashable, Sendable {
        /// The finger was lifted: the stroke is finished.
        case up
        /// The gesture was taken away (a second finger, the page hidden): the stroke is dropped.
        case cancel
    }

    /// The page's number for the stroke.
    public var stroke: Int
    /// Whether this message starts the stroke (its first point is the touch).
    public var down: Bool
    /// The points, in the order drawn.
    public var points: [Point]
    /// How the stroke ended, on its last message.
    public var end: End?

    /// The most points one message may carry.
    public static let maximumPoints = 128

    /// A message's content (not checked: ``BrowserRemotePen`` and the parser check what pages send).
    public init(stroke: Int, down: Bool = false, points: [Point], end: End? = nil) {
        self.stroke = stroke
        self.down = down
        self.points = points
        self.end = end
    }

    init(_ object: JSONObject) throws(BrowserProtocolError) {
        guard let number = object.fields["stroke"] as? NSNumber, !Self.isBoolean(number), Self.isWhole(number.doubleValue),
              number.doubleValue >= 1, number.doubleValue <= Double(Int32.max) else {
            throw BrowserProtocolError("ink \"stroke\" must be a whole number from 1 to \(Int32.max)")
        }
        stroke = Int(number.doubleValue)
        switch object.fields["down"] {
        case nil: down = false
        case let flag as NSNumber where Self.isBoolean(flag): down = flag.boolValue
        default: throw BrowserProtocolError("ink \"down\" must be true or false")
        }
        guard let raw = object.fields["points"] as? [Any] else {
            throw BrowserProtocolError("ink \"points\" must be an array of numbers (x, y, pressure, …)")
        }
        guard raw.count <= 3 * Self.maximumPoints else {
            throw BrowserProtocolError("ink message of \(raw.count / 3) points; the most a message may carry is \(Self.maximumPoints)")
        }
        guard raw.count % 3 == 0 else {
            throw BrowserProtocolError("ink \"points\" must hold three numbers a point (x, y, pressure); it holds \(raw.count)")
        }
        var numbers: [Double] = []
        numbers.reserveCapacity(raw.count)
        for (index, value) in raw.enumerated() {
            guard let number = value as? NSNumber, !Self.isBoolean(value) else {
                throw BrowserProtocolError("ink point \(index / 3 + 1) is not three numbers")
            }
            let double = number.doubleValue
            guard double.isFinite, double >= 0, double <= 1 else {
                throw BrowserProtocolError("ink point \(index / 3 + 1) has \(["x", "y", "pressure"][index % 3]) "
                                           + "\(double.isFinite ? String(double) : "not finite"): each must be 0…1 (a fraction of the slide)")
            }
            numbers.append(double)
        }
        points = stride(from: 0, to: numbers.count, by: 3).map {
            Point(x: numbers[$0], y: numbers[$0 + 1], pressure: numbers[$0 + 2])
        }
        switch object.fields["end"] {
        case nil: end = nil
        case let word as String:
            guard let parsed = End(rawValue: word) else {
                throw BrowserProtocolError("ink \"end\" must be \"up\" or \"cancel\", not \(NetworkText.quote(String(word.prefix(40))))")
            }
            end = parsed
        default: throw BrowserProtocolError("ink \"end\" must be \"up\" or \"cancel\"")
        }
        if down, points.isEmpty { throw BrowserProtocolError("ink stroke \(stroke) starts (\"down\") without a point") }
    }

    private static func isWhole(_ value: Double) -> Bool { value.isFinite && value == value.rounded() }

    /// JSONSerialization gives `true` and `false` as numbers of a boolean class (and `1` casts to Bool): tell
    /// them apart by the class.
    static func isBoolean(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return ObjectIdentifier(type(of: number)) == booleanClass
    }

    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))
}

/// The stroke one remote page is drawing: which stroke numbers a message may name. A stroke begins with `down`
/// (a new number), goes on with that number until its `end`; any other number is refused.
public struct BrowserRemotePen: Hashable, Sendable {
    /// The stroke being drawn, if any.
    public private(set) var open: Int?

    /// No stroke drawn yet.
    public init() {}

    /// Checks a message against the stroke being drawn and moves on (a `down` while another stroke is open
    /// finishes that one: the core does the same with a second press).
    public mutating func accept(_ ink: BrowserRemoteInk) throws(BrowserProtocolError) {
        if ink.down {
            guard open != ink.stroke else { throw BrowserProtocolError("ink stroke \(ink.stroke) is already being drawn") }
        } else {
            guard open == ink.stroke else {
                throw BrowserProtocolError("ink stroke \(ink.stroke) is not being drawn ("
                                           + (open.map { "stroke \($0) is" } ?? "none is")
                                           + "): a stroke starts with \"down\": true")
            }
        }
        open = ink.end == nil ? ink.stroke : nil
    }
}

/// What the remote's pinch, two-finger drag or double tap asks the room to see: a rectangle of the current slide
/// (`rect`: left, top, width, height, slide fractions, each 0…1, the width and height above 0, the rectangle
/// inside the slide), or the whole slide (`whole: true`). Checked here; the presenter's core decides the zoom
/// (the region that covers the rectangle, at most 4×; one too small is refused there).
public struct BrowserRemoteZoom: Hashable, Sendable {
    /// The rectangle to show (left, top, width, height in slide fractions); nil: the whole slide.
    public var rectangle: (x: Double, y: Double, width: Double, height: Double)? {
        numbers.map { ($0[0], $0[1], $0[2], $0[3]) }
    }
    private var numbers: [Double]?

    /// The whole slide (nil), or a rectangle (not checked: the parser checks what pages send).
    public init(x: Double, y: Double, width: Double, height: Double) {
        numbers = [x, y, width, height]
    }

    /// Back to the whole slide.
    public static let whole = BrowserRemoteZoom()

    private init() { numbers = nil }

    init(_ object: JSONObject) throws(BrowserProtocolError) {
        switch (object.fields["rect"], object.fields["whole"]) {
        case (nil, let flag as NSNumber) where BrowserRemoteInk.isBoolean(flag) && flag.boolValue:
            numbers = nil
        case (let raw as [Any], nil):
            guard raw.count == 4 else {
                throw BrowserProtocolError("zoom \"rect\" must be four numbers (left, top, width, height); it holds \(raw.count)")
            }
            var values: [Double] = []
            for (index, value) in raw.enumerated() {
                let name = ["left", "top", "width", "height"][index]
                guard let number = value as? NSNumber, !BrowserRemoteInk.isBoolean(value) else {
                    throw BrowserProtocolError("zoom \"rect\" \(name) is not a number")
                }
                let double = number.doubleValue
                guard double.isFinite, double >= 0, double <= 1, index < 2 || double > 0 else {
                    throw BrowserProtocolError("zoom \"rect\" \(name) is \(double.isFinite ? String(double) : "not finite"): "
                                               + "each must be 0…1 (a fraction of the slide), the width and height above 0")
                }
                values.append(double)
            }
            guard values[0] + values[2] <= 1 + 1e-6, values[1] + values[3] <= 1 + 1e-6 else {
                throw BrowserProtocolError("zoom \"rect\" reaches past the slide's edge: left + width and top + height must be at most 1")
            }
            numbers = values
        default:
            throw BrowserProtocolError("a zoom message needs \"rect\": [left, top, width, height] (slide fractions) or \"whole\": true")
        }
    }

    /// Rectangles compare by their numbers.
    public static func == (a: BrowserRemoteZoom, b: BrowserRemoteZoom) -> Bool { a.numbers == b.numbers }
    /// Hashes the numbers.
    public func hash(into hasher: inout Hasher) { hasher.combine(numbers) }
}
