import ExternalDisplayKit
import Foundation

/// One step of a headless run, as `--keys` spells it: a key name (`next`, `previous`, `home`, `end`, `b`,
/// `p`, `m`, `a`, `q` …), `unplug:ID`, `plug:PRESET` (or `plug:PRESET:ID`), `remote:next|previous|playpause`,
/// `mode:ID:WxH` (the system switches a display's mode), `wait:SECONDS`, or `ink:X/Y;X/Y;…` (a pen stroke on the
/// current slide through those points, slide fractions 0…1, each optionally `X/Y/PRESSURE`), or `pointer:X/Y`
/// (`pointer:off`: the speaker's mouse over the slide, or off it).
public enum HeadlessStep: Hashable, Sendable {
    /// A key on the console.
    case key(PresenterKey)
    /// A remote-control command.
    case remote(PresenterRemoteCommand)
    /// Unplug a display.
    case unplug(DisplayID)
    /// Plug in a catalog display under an id.
    case plug(preset: String, id: DisplayID)
    /// The system switches a display to another mode.
    case mode(DisplayID, PixelSize)
    /// Let time pass.
    case wait(Double)
    /// A pen stroke on the current slide through these points (pressed down at the first, lifted at the last).
    case ink([InkPoint])
    /// The speaker's mouse over the console's slide at a point (slide fractions), or off it (nil).
    case pointer(SlidePoint?)

    /// The seconds a `wait:` step accepts (the scenario time range: up to 1e9 s).
    public static let waitRange: ClosedRange<Double> = 0...1e9
    /// The pixels a side of a `mode:` step accepts (the engine's mode range).
    public static let sideRange: ClosedRange<Int> = 1...16_384

    /// Parses a comma-separated list; the error names the bad item and what is accepted.
    public static func parseList(_ text: String) throws(HeadlessError) -> [HeadlessStep] {
        try text.split(separator: ",").map { item throws(HeadlessError) in
            try parse(item.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The most points an `ink:` step takes.
    public static let inkPointLimit = 10_000

    /// Parses one step.
    public static func parse(_ item: String) throws(HeadlessError) -> HeadlessStep {
        if item.lowercased().hasPrefix("ink:") { return try parseInk(item) }
        let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch (parts[0].lowercased(), parts.count) {
        case ("unplug", 2) where !parts[1].isEmpty:
            return .unplug(DisplayID(parts[1]))
        case ("plug", 2) where !parts[1].isEmpty:
            return .plug(preset: parts[1], id: DisplayID(parts[1]))
        case ("plug", 3) where !parts[1].isEmpty && !parts[2].isEmpty:
            return .plug(preset: parts[1], id: DisplayID(parts[2]))
        case ("remote", 2):
            switch parts[1].lowercased() {
            case "next": return .remote(.next)
            case "previous": return .remote(.previous)
            case "playpause", "play-pause": return .remote(.playPause)
            default: break
            }
        case ("mode", 3):
            let wh = parts[2].lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard wh.count == 2, let w = wh[0], let h = wh[1], sideRange.contains(w), sideRange.contains(h) else {
                throw HeadlessError("'\(item)' in --keys: the mode must be WxH with each side in "
                                    + "\(sideRange.lowerBound)…\(sideRange.upperBound) pixels, e.g. mode:hdmi-tv-1080p:1280x720")
            }
            return .mode(DisplayID(parts[1]), PixelSize(width: w, height: h))
        case ("pointer", 2):
            if parts[1].lowercased() == "off" { return .pointer(nil) }
            let xy = parts[1].split(separator: "/", omittingEmptySubsequences: false).map { Double($0) }
            if xy.count == 2, let x = xy[0], let y = xy[1], let point = SlidePoint(validating: SlidePoint(x: x, y: y)) {
                return .pointer(point)
            }
            throw HeadlessError("'\(item.prefix(80))' in --keys: pointer takes X/Y, fractions of the slide in 0…1, "
                                + "or off, e.g. pointer:0.5/0.4")
        case ("wait", 2):
            guard let s = Double(parts[1]), s.isFinite, waitRange.contains(s) else {
                throw HeadlessError("'\(item)' in --keys: wait takes a number of seconds in 0…\(Int(waitRange.upperBound)), "
                                    + "e.g. wait:90")
            }
            return .wait(s)
        case (_, 1):
            if let key = PresenterKey(name: item) { return .key(key) }
        default:
            break
        }
        throw HeadlessError("unknown step '\(item)' in --keys; use key names (next, previous, up, down, home, end, "
                            + "b, w, p, m, a, tab, enter, esc, f, q, quit, 0-9, pen, highlighter, eraser, ink-colour, ink-width, "
                            + "ink-clear, ink-private, undo, redo, zoom-in, zoom-out, pan-left, spotlight, zoom-rectangle, magnifier), ink:X/Y;X/Y, pointer:X/Y|off, unplug:ID, plug:PRESET[:ID], remote:next|previous|playpause, mode:ID:WxH, "
                            + "wait:SECONDS")
    }

    /// `ink:X/Y;X/Y[/PRESSURE];…`: finite numbers, coordinates in 0…1 (slide fractions), pressure in 0…1.
    static func parseInk(_ item: String) throws(HeadlessError) -> HeadlessStep {
        let advice = "'\(item.prefix(80))' in --keys: an ink step is ink:X/Y;X/Y;… with X and Y fractions of the slide "
            + "in 0…1 (and an optional /PRESSURE in 0…1), at most \(inkPointLimit) points, e.g. ink:0.2/0.3;0.6/0.3"
        let items = item.dropFirst(4).split(separator: ";")
        guard !items.isEmpty, items.count <= inkPointLimit else { throw HeadlessError(advice) }
        var points: [InkPoint] = []
        for text in items {
            let numbers = text.split(separator: "/", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 2 || numbers.count == 3, let x = numbers[0], let y = numbers[1],
                  x.isFinite, y.isFinite, (0...1).contains(x), (0...1).contains(y) else { throw HeadlessError(advice) }
            var pressure = 1.0
            if numbers.count == 3 {
                guard let p = numbers[2], p.isFinite, (0...1).contains(p) else { throw HeadlessError(advice) }
                pressure = p
            }
            points.append(InkPoint(x: x, y: y, pressure: pressure))
        }
        return .ink(points)
    }

    /// The step as a file-name-safe label: `next`, `unplug-hdmi-tv-1080p`.
    public var label: String {
        let raw: String
        switch self {
        case .key(let k): raw = k.rawValue
        case .remote(let r): raw = "remote-\(r.rawValue)"
        case .unplug(let id): raw = "unplug-\(id)"
        case .plug(_, let id): raw = "plug-\(id)"
        case .mode(let id, let size): raw = "mode-\(id)-\(size.width)x\(size.height)"
        case .wait(let s): raw = "wait-\(Int(s))s"
        case .ink(let points): raw = "ink-\(points.count)"
        case .pointer(let point): raw = point == nil ? "pointer-off" : "pointer"
        }
        return String(raw.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" })
    }
}

/// A headless run could not start or a step was invalid.
public struct HeadlessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
