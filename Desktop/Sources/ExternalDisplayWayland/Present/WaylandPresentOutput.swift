import ExtDisplayCore
import ExternalDisplayKit

/// One Wayland output as the presenter's platform needs it: its name (the id `--display` takes), the
/// compositor's description, where it sits in the compositor's logical space, and the engine's view of it.
///
/// ```swift
/// let projector = WaylandPresentOutput(name: "HDMI-A-1", description: "Epson EB-X41",
///                                      logical: Rect(x: 1920, y: 0, width: 1280, height: 720),
///                                      display: display)
/// ```
public struct WaylandPresentOutput: Hashable, Sendable {
    /// The output's name (`wl_output` v4 / xdg-output name): `HDMI-A-1`, `HEADLESS-2`.
    public var name: String
    /// The compositor's human-readable description (what SDL reports as the display's name).
    public var description: String
    /// Position and size in the compositor's logical coordinates (xdg-output).
    public var logical: Rect
    /// The display as the engine sees it (id = ``name``).
    public var display: Display
    /// Whether the output API calls this the main display (`ExternalDisplayKit/DesktopNaming`'s rule).
    public var isMain: Bool

    /// An output.
    public init(name: String, description: String, logical: Rect, display: Display, isMain: Bool = false) {
        self.name = name
        self.description = description
        self.logical = logical
        self.display = display
        self.isMain = isMain
    }

    /// The output the presenter's console goes on, by ``ExtDisplayCore/ConsoleOutputRule`` (the rule X11 and
    /// `play` use): never the one named by `--display` (`audience`); the main output, else the output at the
    /// logical origin, else the top-left-most one. Nil when there is no output.
    ///
    /// Wayland has no "primary" output, so this rule stands in for it: the audience view goes on the chosen
    /// output (or, with `auto`, on every other output), the console on this one.
    public static func consoleOutput(of outputs: [WaylandPresentOutput], audience: String?) -> WaylandPresentOutput? {
        let candidates = outputs.map { ConsoleOutputRule.Candidate(name: $0.name, x: $0.logical.x, y: $0.logical.y, isMain: $0.isMain) }
        guard let chosen = ConsoleOutputRule.choose(among: candidates, audience: audience) else { return nil }
        return outputs.first { $0.name == chosen.name }
    }
}

/// Where the presenter's Wayland platform reads outputs from and asks for modes: the Wayland output API
/// (`wl_output` v4, xdg-output, wlr-output-management) behind a small surface the platform can be tested
/// against.
@MainActor
public protocol WaylandOutputSource: AnyObject {
    /// Every output the compositor has now (enabled ones only).
    func presentOutputs() -> [WaylandPresentOutput]
    /// Starts following the compositor: `onChange` gets the whole list again after each change (outputs
    /// added, removed, disabled, resized or moved).
    func followOutputs(_ onChange: @escaping @MainActor ([WaylandPresentOutput]) -> Void)
    /// Reads whatever the compositor sent and returns the outputs now (for a caller that heard of a change
    /// another way).
    func rescanOutputs() -> [WaylandPresentOutput]
    /// Stops following.
    func stopFollowingOutputs()
    /// Why the compositor does not let a client switch modes, or nil when it does (wlr-output-management).
    var modeSwitchingUnavailable: String? { get }
    /// Switches an output's mode (only when ``modeSwitchingUnavailable`` is nil); the source remembers the
    /// mode in force before, for ``restoreModes()``.
    func switchMode(_ mode: DisplayMode, on output: String) throws(WaylandPresentError)
    /// Puts back every mode switched since start (idempotent).
    func restoreModes()
}

/// Something the presenter's Wayland platform could not do, and what to do about it.
public struct WaylandPresentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    /// An error with its message.
    public init(_ description: String) { self.description = description }
}
