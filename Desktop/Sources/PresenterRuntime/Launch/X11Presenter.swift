#if canImport(CSDL2)
internal import CSDL2
import ExternalDisplayKit
import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation

/// `present` on an X server: the console on the main output (``ExternalDisplayPresenter/ConsoleOutputRule``),
/// the audience view on every external output (or the one named), outputs, hotplug and modes from RandR (modes
/// put back on every exit), keys from the console window, the MPRIS remote, and browsers with `--serve`. Without
/// RandR, SDL's own display list (no mode switching, no unplug events).
public enum X11Presenter {
    /// Runs the talk; returns when it is over.
    @MainActor
    public static func run(_ launch: PresenterLaunch) async {
        // A signal while SDL and the windows start must still end the talk cleanly (status 0, modes back).
        SignalHost.captureEarly()
        SDLVideo.selectDriver(for: .x11)
        SDLSetup.hints()
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else {
            launch.fail("cannot open the display \(ProcessInfo.processInfo.environment["DISPLAY"] ?? ""): "
                        + "\(String(cString: SDL_GetError())); unset DISPLAY or use --simulate to run headless")
        }
        defer { SDL_Quit() }
        XServerLoss.install()  // after SDL, whose X connection shares Xlib's process-wide handlers
        let desktop: DesktopDisplayPlatform
        do { desktop = try DesktopDisplayPlatform() } catch {
            launch.warn("RandR is not available (\(error.description)); using SDL's display list "
                        + "(no mode switching, no unplug events)")
            return await runOnSDL(launch)
        }
        let outputs = desktop.session.outputs()
        if let only = launch.display, !outputs.contains(where: { $0.id.rawValue == only && !$0.isPrimary }) {
            launch.warn("no external display named \(only); external displays: "
                        + outputs.filter { !$0.isPrimary }.map(\.id.rawValue).joined(separator: ", "))
        }
        let candidates = outputs.map {
            ConsoleOutputRule.Candidate(name: $0.id.rawValue, x: $0.bounds.x, y: $0.bounds.y, isMain: $0.isPrimary)
        }
        let main = ConsoleOutputRule.choose(among: candidates, audience: launch.display)
            .flatMap { choice in outputs.first { $0.id.rawValue == choice.name } }
        let runtime = launch.makeRuntime(mainDisplay: main.map { "\($0.outputName) \($0.display.currentMode)" } ?? "main display")
        let console: SDLConsoleHost
        do {
            console = try SDLConsoleHost(frame: main?.bounds ?? ConsoleOutputRule.fallbackFrame,
                                         windowed: !launch.share.isEmpty, caches: runtime.caches)
        } catch {
            launch.fail(error.description)
        }
        var windows: [DisplayID: DesktopAudienceOutput] = [:]
        let projectors = CableAudienceHost(platform: desktop, configuration: launch.configuration) { surface in
            if let window = windows[surface.display], window.surface === surface { return window }
            let window = DesktopAudienceOutput(surface, caches: runtime.caches)
            window.pageWaiting = .placeholder
            windows[surface.display] = window
            return window
        }
        // The desktop platform drains SDL's queue itself (its windows' exposure); the console gets every event.
        desktop.onSDLEvent = { [weak console] event in console?.handle(event) }
        console.setPump { desktop.pumpSDLEvents() }
        await launch.runDesktop(runtime, console: console, displays: projectors, shareBeside: main?.bounds)
    }

    @MainActor
    private static func runOnSDL(_ launch: PresenterLaunch) async {
        let runtime = launch.makeRuntime(mainDisplay: "")
        let platform = SDLVideoPlatform(caches: runtime.caches)
        if let only = launch.display, !platform.externalNames.contains(only) {
            launch.warn("no external display named \(only); external displays: "
                        + (platform.externalNames.isEmpty ? "none" : platform.externalNames.joined(separator: ", ")))
        }
        runtime.controller.mainDisplay = platform.mainDescription
        let console: SDLConsoleHost
        do {
            console = try SDLConsoleHost(frame: platform.mainBounds, windowed: !launch.share.isEmpty, caches: runtime.caches)
        } catch {
            launch.fail(error.description)
        }
        console.onDisplayEvent = { platform.refresh() }
        let displays = CableAudienceHost(platform: platform, configuration: launch.configuration) { $0 }
        await launch.runDesktop(runtime, console: console, displays: displays, shareBeside: platform.mainBounds)
    }
}

/// SDL settings every live presenter uses.
enum SDLSetup {
    /// No SDL signal handlers (the presenter's own restore modes), windows that do not take the focus when shown,
    /// and no minimising when the console loses the focus.
    static func hints() {
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        SDL_SetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN, "1")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
    }
}
#endif
