/// The port between the engine and a real (or simulated) platform: it reports displays and app-lifecycle
/// changes as batches of ``DisplayEvent``s and carries out ``DisplayCommand``s. It decides nothing.
///
/// Conformers: `UIKitDisplayPlatform` (iOS), `DesktopDisplayPlatform` (Linux: X11 RandR + SDL2),
/// `SimulatedPlatform` (tests). ``DisplayCoordinator`` drives one.
///
/// ```swift
/// @MainActor final class MyPlatform: DisplayPlatform {
///     func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] { … }
///     func perform(_ command: DisplayCommand) throws(DisplayPlatformError) { … }
///     func surface(for display: DisplayID) -> MyWindow? { … }
///     func stop() { … }
/// }
/// ```
@MainActor
public protocol DisplayPlatform: AnyObject {
    /// Where app content for one external display goes: a `UIWindow`, an SDL window, a recording surface.
    associatedtype Surface

    /// Begins observing. Returns the external displays attached right now (they are treated exactly like
    /// ones that attach later) and from then on calls `deliver` with each batch of events that arrive
    /// together (events queued while the app was suspended arrive as one batch).
    func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display]

    /// Carries out one command. Throws when the platform could not (the engine's state is not rolled back;
    /// the coordinator reports the error).
    func perform(_ command: DisplayCommand) throws(DisplayPlatformError)

    /// The surface of a display's window, while it exists.
    func surface(for display: DisplayID) -> Surface?

    /// Stops observing and releases every window (and restores anything the platform changed, such as modes).
    func stop()
}

/// A platform failed to carry out a command.
public struct DisplayPlatformError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command that failed.
    public var command: DisplayCommand
    /// What went wrong and what to do.
    public var reason: String

    /// Creates an error.
    public init(command: DisplayCommand, reason: String) {
        self.command = command
        self.reason = reason
    }

    /// `"setMode for tv failed: …"`.
    public var description: String {
        "\(command.name)\(command.display.map { " for \($0)" } ?? "") failed: \(reason)"
    }
}
