public import ExternalDisplayKit

/// What `--mode` asks of the external displays, and the mode each display gets for it — the desktop's mode rule.
///
/// The seeds' rule is "use the mode the display runs; switch only when asked". On iOS a screen's preferred mode is
/// the mode it already runs, so "the preferred mode" and "leave it as it is" are one; on a desktop they are not: a
/// projector the desktop set to 3840×2160@30 may call 1280×720 preferred, and no presenter should change a mode the
/// user chose. So without `--mode` every display keeps the mode it runs (``keep``): nothing is switched, and nothing
/// needs to be put back at exit. `--mode preferred|highest|lowest|WxH` switches, as asked, and the mode is put back
/// at exit.
///
/// ```swift
/// try PresenterModeRequest(argument: nil)            // .keep
/// try PresenterModeRequest(argument: "1280x720")     // .switchTo(.size(1280×720))
/// PresenterModeRequest.keep.mode(for: projector)     // projector.currentMode
/// ```
public enum PresenterModeRequest: Sendable, Hashable, CustomStringConvertible {
    /// No `--mode`: every display keeps the mode it runs.
    case keep
    /// `--mode preferred`: the display's preferred mode.
    case preferred
    /// `--mode highest`: the mode with the most pixels.
    case highest
    /// `--mode lowest`: the mode with the fewest pixels.
    case lowest
    /// `--mode WxH`: the mode of that size (the preferred one where the display does not offer it).
    case size(PixelSize)

    /// The request `--mode` spells (nil: the option was not given); a word or size it cannot read is an error
    /// saying what to write.
    public init(argument: String?) throws(ModeArgumentError) {
        guard let argument else {
            self = .keep
            return
        }
        switch argument.lowercased() {
        case "preferred": self = .preferred
        case "highest": self = .highest
        case "lowest": self = .lowest
        default:
            let sides = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard sides.count == 2, let width = sides[0], let height = sides[1] else {
                throw ModeArgumentError(description: "--mode '\(argument)': use preferred, highest, lowest or WxH "
                                        + "(e.g. 1280x720); leave it out to keep the mode each display runs")
            }
            guard DisplayMode.sizeRange.contains(width), DisplayMode.sizeRange.contains(height) else {
                throw ModeArgumentError(description: "--mode '\(argument)': each side must be 1…16384 pixels (e.g. 1280x720)")
            }
            self = .size(PixelSize(width: width, height: height))
        }
    }

    /// Whether the request may switch a display's mode (anything but ``keep``).
    public var switches: Bool { self != .keep }

    /// The mode `display` gets. ``keep``: the mode it runs (the engine takes a display whose reported current
    /// mode is not among its usable modes to run its preferred one, and says so). The others: as
    /// ``ExternalDisplayKit/ModeSelection`` chooses.
    public func mode(for display: Display) -> DisplayMode {
        switch self {
        case .keep:
            return display.currentMode
        case .preferred, .highest, .lowest, .size:
            return selection.choose(for: display).mode
        }
    }

    /// The engine's mode policy for this request (``DisplayConfiguration/modeSelection``).
    public var selection: ModeSelection {
        switch self {
        case .keep: .custom(name: "current") { PresenterModeRequest.keep.mode(for: $0) }
        case .preferred: .preferred
        case .highest: .highest
        case .lowest: .lowest
        case .size(let size): .size(size)
        }
    }

    /// `current (no switch)`, `preferred`, `highest`, `lowest`, `1280×720`.
    public var description: String {
        switch self {
        case .keep: "current (no switch)"
        case .preferred: "preferred"
        case .highest: "highest"
        case .lowest: "lowest"
        case .size(let size): "\(size)"
        }
    }
}

/// A `--mode` argument that names no mode, with what to write instead.
public struct ModeArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what to do.
    public var description: String
}
