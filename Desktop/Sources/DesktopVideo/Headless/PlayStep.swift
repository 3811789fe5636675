public import ExtDisplayCore
import Foundation

/// One step of a headless `extdisplay play` run (`--keys play,wait:3,seek:30,pause,unplug:hdmi-tv-1080p`).
///
/// Every step takes one refresh period (1/60 s) of virtual time; `wait:S` lets S more seconds pass. A step that
/// names a key (`left`, `e`, `escape`, `q`, `ctrl+q`; see ``ExtDisplayCore/KeyPress/init(name:)``) presses it: the
/// playing mode's key table decides what it does, as for the same key typed in the controls window.
public enum PlayStep: Sendable, Hashable {
    /// Play (Space toggles: `toggle`).
    case play
    /// Pause.
    case pause
    /// Play if paused, pause if playing.
    case toggle
    /// Move to an absolute position in seconds.
    case seek(Double)
    /// Move by a signed number of seconds (`seek:+10`, `seek:-5`).
    case seekBy(Double)
    /// Let this many seconds of virtual time pass.
    case wait(Double)
    /// Serve MPRIS for this many seconds of real time (virtual time runs with the wall clock meanwhile),
    /// carrying out remote commands as they arrive; an MPRIS `Quit` ends the step and the run.
    case listen(Double)
    /// Unplug the simulated display with this id.
    case unplug(String)
    /// Plug in a display of this catalog preset.
    case plug(String)
    /// Put the video on the external display (after it was kept in the main window, or after a replug).
    case external
    /// Keep the video in the main window although an external display is attached.
    case main
    /// The rate used while playing (0.5…2).
    case rate(Double)
    /// The volume, 0…1.
    case volume(Double)
    /// Stop the run here.
    case quit
    /// A key pressed, decided by ``ExtDisplayCore/PlayerKeyTable`` (Q twice within 2 s quits, Esc never does).
    case press(KeyPress)

    /// The step's name in snapshot file names (`seek-30`, `unplug-hdmi-tv-1080p`).
    public var label: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .toggle: "toggle"
        case .seek(let s): "seek-\(Self.format(s))"
        case .seekBy(let s): "seek\(s < 0 ? "-" : "+")\(Self.format(abs(s)))"
        case .wait(let s): "wait-\(Self.format(s))"
        case .listen(let s): "listen-\(Self.format(s))"
        case .unplug(let id): "unplug-\(id)"
        case .plug(let preset): "plug-\(preset)"
        case .external: "external"
        case .main: "main"
        case .rate(let r): "rate-\(Self.format(r))"
        case .volume(let v): "volume-\(Self.format(v))"
        case .quit: "quit"
        case .press(let press): "key-\(press)"
        }
    }

    /// The longest virtual wait one step may ask for (a day).
    public static let longestWait: Double = 86_400

    /// Parses a comma-separated list; the error says which entry is wrong and what is accepted.
    public static func parseList(_ text: String) throws(PlayStepError) -> [PlayStep] {
        try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { entry throws(PlayStepError) in try parse(entry) }
    }

    /// Parses one step.
    public static func parse(_ entry: String) throws(PlayStepError) -> PlayStep {
        let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts[0].lowercased(), argument = parts.count > 1 ? parts[1] : nil
        func number(_ range: ClosedRange<Double>) throws(PlayStepError) -> Double {
            guard let argument, let value = Double(argument), value.isFinite, range.contains(value) else {
                throw PlayStepError(entry: entry, reason: "\(name) needs a number from \(format(range.lowerBound)) "
                                    + "to \(format(range.upperBound)), e.g. \(name):\(format(max(range.lowerBound, min(range.upperBound, 1))))")
            }
            return value
        }
        switch (name, argument) {
        case ("play", nil): return .play
        case ("pause", nil): return .pause
        case ("toggle", nil), ("space", nil): return .toggle
        case ("external", nil): return .external
        case ("main", nil): return .main
        case ("quit", nil): return .quit
        case ("seek", let arg?) where arg.hasPrefix("+") || arg.hasPrefix("-"):
            return .seekBy(try number(-longestWait...longestWait))
        case ("seek", _): return .seek(try number(0...longestWait))
        case ("wait", _): return .wait(try number(0...longestWait))
        case ("listen", _): return .listen(try number(0...longestWait))
        case ("rate", _): return .rate(try number(0.5...2))
        case ("volume", _): return .volume(try number(0...1))
        case ("unplug", let id?) where !id.isEmpty: return .unplug(id)
        case ("plug", let preset?) where !preset.isEmpty: return .plug(preset)
        default:
            if argument == nil, let press = KeyPress(name: name), PlayerKeyTable.command(for: press) != nil { return .press(press) }
            throw PlayStepError(entry: entry, reason: "unknown step; use play, pause, toggle, seek:S, seek:+S, seek:-S, "
                                + "wait:S, listen:S, unplug:ID, plug:PRESET, external, main, rate:R, volume:V, quit, "
                                + "or a key of play's (space, left, right, up, down, home, e, m, v, j, l, escape, q, ctrl+q)")
        }
    }

    /// A number as steps and status lines print it: `2` for 2.0, `0.5` for 0.5.
    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
