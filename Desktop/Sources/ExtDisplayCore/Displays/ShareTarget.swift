public import ExternalDisplayKit

/// An audience display made for a video call (`present --share window[=WxH]`, `--share camera[=WxH]`): a window
/// a call application's "share a window" picks by its title, or a camera it lists. Either is an audience display in
/// the engine's sense — public content only, its one mode is its size.
///
/// ```swift
/// let targets = try ShareTarget.parseAll(["window", "camera=1920x1080"])
/// targets[0].displayID          // "share-window", 1280×720
/// targets[1].size               // 1920×1080 at 30 frames a second
/// ```
public struct ShareTarget: Hashable, Sendable, CustomStringConvertible {
    /// What the call application sees.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// An ordinary window titled for "share a window".
        case window
        /// A video source listed as a camera (PipeWire or v4l2loopback).
        case camera
    }

    /// A size in pixels (the kit's own).
    public typealias Size = PixelSize

    /// What it is.
    public var kind: Kind
    /// Its size (its one mode).
    public var size: Size
    /// Frames a second a camera sends (a window draws only on change); 30 by default.
    public var frameRate: Int

    /// The size both kinds have unless told: 1280×720, what every call application accepts.
    public static let defaultSize = Size(width: 1280, height: 720)
    /// The camera's default rate.
    public static let defaultFrameRate = 30
    /// Widths accepted.
    public static let widths = 160...7680
    /// Heights accepted.
    public static let heights = 120...4320

    /// A target of `kind` (default size and rate).
    public init(kind: Kind, size: Size = ShareTarget.defaultSize, frameRate: Int = ShareTarget.defaultFrameRate) {
        self.kind = kind
        self.size = size
        self.frameRate = frameRate
    }

    /// The engine's id of the display: `share-window` or `share-camera`.
    public var displayID: DisplayID { DisplayID("share-\(kind.rawValue)") }

    /// The share window's title, which call applications list it by.
    public static let windowTitle = "extdisplay: audience (share this window)"

    /// Whether `id` is a share display's (`share-window`, `share-camera`).
    public static func isShareDisplay(_ id: DisplayID) -> Bool {
        Kind.allCases.contains { ShareTarget(kind: $0).displayID == id }
    }

    /// The display's one mode: its size at its rate.
    public var mode: DisplayMode {
        DisplayMode(width: size.width, height: size.height, refreshRate: Double(frameRate))
    }

    /// What `list` and status lines call it: `"share window 1280×720"`, `"camera 1280×720"`.
    public var name: String {
        switch kind {
        case .window: "share window \(size)"
        case .camera: "camera \(size)"
        }
    }

    /// The option's own spelling: `"window=1280x720"`.
    public var description: String { "\(kind.rawValue)=\(size.width)x\(size.height)" }

    /// Why a `--share` value was refused.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not `window` nor `camera`.
        case unknownKind(String)
        /// The size part is not `WIDTHxHEIGHT` in digits.
        case badSize(String)
        /// A size outside ``ShareTarget/widths`` × ``ShareTarget/heights``.
        case sizeOutOfRange(width: Int, height: Int)
        /// The same kind given twice.
        case repeated(Kind)

        /// What is wrong and what to write instead.
        public var description: String {
            let forms = "write --share window, --share window=1920x1080, --share camera or --share camera=1280x720"
            switch self {
            case .unknownKind(let text):
                return "--share \(Self.quoted(text)): unknown kind; \(forms)"
            case .badSize(let text):
                return "--share size \(Self.quoted(text)) is not WIDTHxHEIGHT in pixels; \(forms)"
            case .sizeOutOfRange(let width, let height):
                return "--share size \(width)x\(height) is out of range: the width must be "
                    + "\(ShareTarget.widths.lowerBound)…\(ShareTarget.widths.upperBound) and the height "
                    + "\(ShareTarget.heights.lowerBound)…\(ShareTarget.heights.upperBound) (e.g. 1280x720 or 1920x1080)"
            case .repeated(let kind):
                return "--share \(kind.rawValue) was given twice; give each kind once (one window and one camera at most)"
            }
        }

        /// At most 40 printable characters of what the user wrote, quoted.
        static func quoted(_ text: String) -> String {
            let printable = text.unicodeScalars.map { scalar -> String in
                scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                    ? "?" : String(scalar)
            }.joined()
            let short = printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
            return "\"\(short)\""
        }
    }

    /// One `--share` value: `window`, `window=1920x1080`, `camera`, `camera=1280x720` (`x`, `X` or `×`; kind
    /// names in any case).
    public static func parse(_ text: String) throws(ParseError) -> ShareTarget {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let kindText = String(parts[0]).trimmed
        guard let kind = Kind(rawValue: kindText.lowercased()) else { throw .unknownKind(text) }
        guard parts.count == 2 else { return ShareTarget(kind: kind) }
        return ShareTarget(kind: kind, size: try parseSize(String(parts[1]).trimmed))
    }

    /// Every `--share` value, in order; each kind at most once.
    public static func parseAll(_ texts: [String]) throws(ParseError) -> [ShareTarget] {
        var out: [ShareTarget] = []
        for text in texts {
            let target = try parse(text)
            if out.contains(where: { $0.kind == target.kind }) { throw .repeated(target.kind) }
            out.append(target)
        }
        return out
    }

    /// `WIDTHxHEIGHT` within the bounds.
    static func parseSize(_ text: String) throws(ParseError) -> Size {
        let separators: Set<Character> = ["x", "X", "×"]
        let parts = text.split(omittingEmptySubsequences: false) { separators.contains($0) }
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCIIDigit) }),
              let width = Int(parts[0]), let height = Int(parts[1])
        else { throw .badSize(text) }
        guard widths.contains(width), heights.contains(height) else { throw .sizeOutOfRange(width: width, height: height) }
        return Size(width: width, height: height)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    fileprivate var trimmed: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars.removeFirst() }
        while scalars.last?.isWhitespace == true { scalars.removeLast() }
        return String(scalars)
    }
}
