import DesktopFiles
import Foundation
public import ExternalDisplayKit
public import ExternalDisplayPresenter

/// The audience displays of one platform — projectors and monitors through X11 RandR or a Wayland compositor,
/// or simulated ones — each showing the talk through an ``ExternalDisplayPresenter/AudienceOutput``. Its
/// coordinator reports displays coming and going to the runtime; each pass draws a display only when its
/// picture changed, and idle passes prepare the next flip.
///
/// ```swift
/// let projectors = CableAudienceHost(platform: desktop, output: { DesktopAudienceOutput($0) })
/// runtime.add(projectors)
/// ```
@MainActor
public final class CableAudienceHost<Platform: DisplayPlatform>: PresenterHost {
    /// The coordinator of the platform's displays.
    public let coordinator: DisplayCoordinator<Platform>
    private let outputFor: (Platform.Surface) -> (any AudienceOutput)?
    private var scheduler = RedrawScheduler()
    private var outputIdentities: [DisplayID: ObjectIdentifier] = [:]
    private var reporter: DisplayReporter?
    private weak var runtime: PresenterRuntime?

    /// A host for `platform`'s external displays; `output` shows lists on a surface.
    public init(platform: Platform, configuration: DisplayConfiguration = DisplayConfiguration(),
                output: @escaping (Platform.Surface) -> (any AudienceOutput)?) {
        coordinator = DisplayCoordinator(platform: platform, configuration: configuration)
        outputFor = output
    }

    /// The platform.
    public var platform: Platform { coordinator.platform }

    /// Frames drawn so far, per display id.
    public var draws: [String: Int] { scheduler.draws }

    /// Starts the coordinator: displays attached now are reported like ones plugged in later.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        let reporter = DisplayReporter(runtime: runtime) { [weak self] id in self?.forget(id) }
        self.reporter = reporter
        coordinator.delegate = reporter
        coordinator.start()
    }

    /// Draws each audience display of this platform whose picture changed.
    public func drawAudience(at now: Double, clock: String) {
        guard let runtime else { return }
        for display in runtime.controller.state.audienceDisplays {
            guard let surface = coordinator.surface(for: display.id), let output = outputFor(surface),
                  let metrics = output.metrics,
                  let list = runtime.controller.externalList(for: display.id, at: now, clock: clock, metrics: metrics)
            else { continue }
            // A new window (the display came back) has never been drawn.
            if outputIdentities.updateValue(ObjectIdentifier(output), forKey: display.id) != ObjectIdentifier(output) {
                scheduler.forget(display.id.rawValue)
            }
            if scheduler.needsDraw(display.id.rawValue, list) { output.present(list) }
        }
    }

    /// Makes the next flip's pages ready on every display.
    public func prepareAhead() {
        guard let runtime else { return }
        for display in runtime.controller.state.audienceDisplays {
            if let surface = coordinator.surface(for: display.id) { outputFor(surface)?.prepareAhead() }
        }
    }

    /// Hands a display the talk does not use back to the system (mirroring), outside the coordinator's pass.
    public func perform(_ effect: PresenterEffect) {
        guard case .handBack(let id) = effect, coordinator.engine.displays[id] != nil else { return }
        let coordinator = self.coordinator
        Task { @MainActor in coordinator.send(.mirror(id)) }
    }

    /// Redraws every display at the next pass (its windows were exposed or replaced).
    public func redrawAll() {
        invalidate()
        runtime?.wake()
    }

    /// Every display is drawn again at the next pass, whole: a window that sends only what changed would send
    /// nothing for the same list, and a page rendered since (a placeholder drawn before) would never reach it.
    public func invalidate() {
        scheduler = RedrawScheduler(keepingCountsOf: scheduler)
        #if canImport(CSDL2)
        guard let runtime else { return }
        for display in runtime.controller.state.audienceDisplays {
            guard let surface = coordinator.surface(for: display.id),
                  let window = outputFor(surface) as? DesktopAudienceOutput else { continue }
            window.invalidate()
        }
        #endif
    }

    /// Stops the coordinator (the platform puts back what it changed).
    public func stop() { coordinator.stop() }

    /// Nothing of a display is kept once it is gone.
    private func forget(_ id: DisplayID) {
        scheduler.forget(id.rawValue)
        outputIdentities[id] = nil
    }
}

/// Reports a coordinator's displays to the runtime as the core's inputs.
@MainActor
final class DisplayReporter: DisplayCoordinatorDelegate {
    private weak var runtime: PresenterRuntime?
    private let onDetach: (DisplayID) -> Void

    init(runtime: PresenterRuntime, onDetach: @escaping (DisplayID) -> Void = { _ in }) {
        self.runtime = runtime
        self.onDetach = onDetach
    }

    func externalDisplayDidAttach(_ attachment: DisplayAttachment) {
        runtime?.send(.attached(AudienceDisplay(attachment)))
    }

    func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) {
        onDetach(display)
        runtime?.send(.detached(display))
    }

    func externalDisplayDidChangeLayout(_ attachment: DisplayAttachment) {
        runtime?.send(.layoutChanged(AudienceDisplay(attachment)))
    }

    /// The engine's problems (a `--mode` the display does not offer, a command the platform could not carry out)
    /// go to standard error, where the user sees them; the talk goes on.
    func displayCoordinator(didReport diagnostic: Diagnostic) {
        StandardStreams.errorLine(PrintableText.line("extdisplay present: \(diagnostic)"))
    }
}
