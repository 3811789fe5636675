#if canImport(CSDL2)
internal import CSDL2
import ExternalDisplayKit
public import ExternalDisplayPresenter
public import ExternalDisplayWayland
import Foundation
import SDLWindows

extension DesktopAudienceOutput: WaylandPresentWindow {
    /// The surface's SDL window, for placing it on an output.
    public var sdlWindow: SDLWindowHandle { SDLWindowHandle(surface.window) }
}

/// `present` on a Wayland compositor: the console fullscreen on the main output
/// (``ExternalDisplayPresenter/ConsoleOutputRule``), the audience view fullscreen on the chosen output (or on every
/// other output), keys from SDL's Wayland driver, outputs and hotplug from the Wayland output API, modes switched
/// only through wlr-output-management and put back on every exit; SIGINT and SIGTERM end the talk cleanly.
public enum WaylandPresenter {
    /// Runs the talk on the compositor `WAYLAND_DISPLAY` names; returns when it is over. `source` opens the output
    /// API (tests pass their own).
    @MainActor
    public static func run(_ launch: PresenterLaunch,
                           source makeSource: () throws -> any WaylandOutputSource = { try WaylandSession.open() }) async {
        // A SIGTERM while SDL and the windows start must still end the talk cleanly (status 0, not 143).
        SignalHost.captureEarly()
        SDLVideo.selectDriver(for: .wayland)
        SDLSetup.hints()
        let socket = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? ""
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else {
            launch.fail("SDL cannot open the Wayland display \(socket): \(String(cString: SDL_GetError())); "
                        + "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR, or use --backend x11")
        }
        defer { SDL_Quit() }
        let source: any WaylandOutputSource
        do { source = try makeSource() } catch { launch.fail("cannot read the outputs of \(socket): \(error)") }
        let outputs = source.presentOutputs()
        let candidates = outputs.map {
            ConsoleOutputRule.Candidate(name: $0.name, x: $0.logical.x, y: $0.logical.y, isMain: $0.isMain)
        }
        let main = ConsoleOutputRule.choose(among: candidates, audience: launch.display)
            .flatMap { choice in outputs.first { $0.name == choice.name } }
        if let audience = launch.display, !outputs.contains(where: { $0.name == audience }) {
            launch.warn("no output named \(audience); outputs: "
                        + (outputs.isEmpty ? "none" : outputs.map(\.name).joined(separator: ", ")))
        }
        // Without --mode nothing is switched anywhere; a switch asked for where the compositor keeps modes is said.
        if let reason = source.modeSwitchingUnavailable, launch.modeRequest.switches {
            launch.warn("--mode has no effect here: \(reason)")
        }
        let runtime = launch.makeRuntime(mainDisplay: main.map { "\($0.name) \($0.display.currentMode)" } ?? "main display")
        let caches = runtime.caches
        let platform = WaylandDisplayPlatform<DesktopAudienceOutput>(source: source, console: main?.name) {
            title, frame in
            let surface = try DesktopSurface(display: DisplayID(title), name: title, frame: frame, title: title,
                                             drawing: .windowSurface)
            let window = DesktopAudienceOutput(surface, caches: caches)
            window.pageWaiting = .placeholder
            return window
        }
        platform.onDiagnostic = launch.warn
        let console: SDLConsoleHost
        do {
            console = try SDLConsoleHost(frame: main?.logical ?? ConsoleOutputRule.fallbackFrame,
                                         windowed: !launch.share.isEmpty, caches: runtime.caches)
        } catch {
            launch.fail(error.description)
        }
        // With --share the console is an ordinary window: the call application must stay within reach.
        if let main, launch.share.isEmpty {
            do { try WaylandFullscreen.place(console.sdlWindow, on: main) } catch { launch.warn("console: \(error)") }
        }
        console.onDisplayEvent = { platform.rescan() }
        let displays = CableAudienceHost(platform: platform, configuration: launch.configuration) { $0 }
        // A resize or exposure by the compositor replaces an audience window's SDL surface: draw afresh.
        console.eventObservers.append { [weak platform, weak displays] event in
            guard event.type == SDL_WINDOWEVENT.rawValue, let platform else { return }
            let kind = UInt32(event.window.event)
            guard kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue else { return }
            for id in platform.externals.keys {
                guard let window = platform.surface(for: id), SDL_GetWindowID(window.surface.window) == event.window.windowID
                else { continue }
                window.invalidate()
                displays?.redrawAll()
            }
        }
        await launch.runDesktop(runtime, console: console, displays: displays, shareBeside: main?.logical)
    }
}
#endif
