public import ExtDisplayCore
public import ExternalDisplayKit
public import ExternalDisplayPresenter

/// An audience output a share display can close or stop when the talk ends or the engine destroys its window (a
/// share window closes, a camera stops its stream). Outputs that are not are simply dropped.
@MainActor
public protocol ShareOutputLifecycle: AnyObject {
    /// Shows the output (the engine showed the display's window).
    func shareShow()
    /// Releases what it holds; safe to call twice.
    func shareClose()
}

/// The `--share` displays as a ``ExternalDisplayKit/DisplayPlatform``: one display per ``ShareTarget`` (a share
/// window, a camera), each connected for the whole talk, with one mode (its size), drawn by the
/// ``ExternalDisplayPresenter/AudienceOutput`` its factory makes. Under a ``CableAudienceHost`` on the talk's one
/// runtime, the core decides what each shows (public content only: the notes never reach them).
///
/// ```swift
/// let share = ShareDisplayPlatform(targets: launch.share, warn: launch.warn) { target in
///     try ShareWindow.output(for: target, caches: runtime.caches)
/// }
/// runtime.add(CableAudienceHost(platform: share) { $0 })
/// ```
///
/// A factory that throws leaves its display out with one warning line; the talk goes on without it.
@MainActor
public final class ShareDisplayPlatform: DisplayPlatform {
    /// Each display's surface is its output.
    public typealias Surface = any AudienceOutput

    /// The displays asked for.
    public let targets: [ShareTarget]
    private let makeOutput: (ShareTarget) throws -> any AudienceOutput
    private let warn: (String) -> Void
    private var outputs: [DisplayID: any AudienceOutput] = [:]
    private var offered: [DisplayID: ShareTarget] = [:]

    /// A platform offering `targets`, each drawn by what `makeOutput` makes (called once per target at the start,
    /// and again if the engine re-creates a window); `warn` gets one line per output that could not be made.
    public init(targets: [ShareTarget], warn: @escaping (String) -> Void,
                makeOutput: @escaping (ShareTarget) throws -> any AudienceOutput) {
        self.targets = targets
        self.warn = warn
        self.makeOutput = makeOutput
    }

    /// The display a target is offered as: connected virtually, its size its one mode.
    public static func display(for target: ShareTarget) -> Display {
        Display(id: target.displayID, name: target.name, connection: .virtual, modes: [target.mode],
                preferredMode: target.mode, currentMode: target.mode)
    }

    /// Makes every target's output now; those whose factory threw are left out (with a warning).
    public func start(delivering deliver: @escaping @MainActor ([DisplayEvent]) -> Void) -> [Display] {
        var displays: [Display] = []
        for target in targets {
            guard open(target) != nil else { continue }
            offered[target.displayID] = target
            displays.append(Self.display(for: target))
        }
        return displays
    }

    /// Makes `target`'s output, or warns and returns nil.
    private func open(_ target: ShareTarget) -> (any AudienceOutput)? {
        if let output = outputs[target.displayID] { return output }
        do {
            let output = try makeOutput(target)
            outputs[target.displayID] = output
            return output
        } catch {
            warn("--share \(target.kind.rawValue): \(error); the talk goes on without the \(target.name)")
            return nil
        }
    }

    /// Carries out the engine's commands: windows are the outputs (made at the start), the one mode is kept.
    public func perform(_ command: DisplayCommand) throws(DisplayPlatformError) {
        switch command {
        case .setMode(let id, let mode):
            guard let target = offered[id], target.mode == mode else {
                throw DisplayPlatformError(command: command, reason: "a --share display has one mode, its size; "
                                           + "write --share KIND=WIDTHxHEIGHT for another")
            }
        case .createWindow(let id, _):
            guard let target = offered[id] else { return }
            guard open(target) != nil else {
                throw DisplayPlatformError(command: command, reason: "its output could not be made again")
            }
        case .showWindow(let id, _):
            (outputs[id] as? ShareOutputLifecycle)?.shareShow()
        case .destroyWindow(let id):
            (outputs.removeValue(forKey: id) as? ShareOutputLifecycle)?.shareClose()
        case .layoutWindow, .hideWindow, .setContent, .setOverscanCompensation, .startFrameClock, .pauseFrameClock,
             .resumeFrameClock, .stopFrameClock, .startRefresh, .stopRefresh, .setRenderScale, .setFrameRate:
            // A share display keeps its size and stays shown for the call (hiding it would freeze what the call
            // sees); it draws on change, so there is no clock to run.
            break
        }
    }

    /// The output of a display, while it exists.
    public func surface(for display: DisplayID) -> (any AudienceOutput)? { outputs[display] }

    /// Closes every output.
    public func stop() {
        for output in outputs.values { (output as? ShareOutputLifecycle)?.shareClose() }
        outputs = [:]
        offered = [:]
    }
}

/// A share display that could not be made (a factory's error).
public struct ShareDisplayError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public var reason: String
    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}

#if canImport(CSDL2)
extension DesktopAudienceOutput: ShareOutputLifecycle {
    /// Shows the window.
    public func shareShow() { show() }
    /// Closes the window.
    public func shareClose() { close() }
}
#endif
