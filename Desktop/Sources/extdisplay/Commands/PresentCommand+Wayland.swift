import ArgumentParser
#if canImport(CSDL2)
import CSDL2
#endif
import ExternalDisplayKit
import ExternalDisplayPresenter
import ExternalDisplayWayland
import Foundation

/// Where `present` runs, from `--backend` and the environment.
enum PresentServer: Equatable {
    case x11, wayland, headless

    /// `--backend auto`: Wayland when `WAYLAND_DISPLAY` is set, else X11 when `DISPLAY` is, else headless;
    /// a forced backend whose server is not there is an error saying what to set.
    static func choose(_ backend: DesktopBackend,
                       _ environment: [String: String]) -> Result<PresentServer, PresentCommand.PlanError> {
        let x11 = !(environment["DISPLAY"] ?? "").isEmpty
        switch backend.resolved(environment: environment) {
        case .wayland:
            guard !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else {
                return .failure(.init(description: "--backend wayland: WAYLAND_DISPLAY is not set (e.g. wayland-1); "
                                      + "run inside a Wayland session or use --backend auto"))
            }
            return .success(.wayland)
        case .x11 where x11: return .success(.x11)
        default:
            guard backend == .auto else {
                return .failure(.init(description: "--backend x11: DISPLAY is not set; start X or use --backend auto"))
            }
            return .success(.headless)
        }
    }
}

#if canImport(CSDL2)
extension SDLWindowSurface: WaylandPresentWindow {}

/// `present` on a Wayland compositor: the console fullscreen on one output, the audience view fullscreen on
/// the chosen output (or on every other output), keys from SDL's Wayland driver, outputs and hotplug from the
/// Wayland output API, modes switched only through wlr-output-management and put back on every exit.
enum PresentWayland {
    @MainActor
    static func run(deck: Deck, display: String, configuration: DisplayConfiguration, planned: Double?,
                    serve: ServeOptions? = nil,
                    source makeSource: () throws -> any WaylandOutputSource = { try WaylandSession.open() }) async {
        setenv("SDL_VIDEODRIVER", "wayland", 1)
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        SDL_SetHint(SDL_HINT_WINDOW_NO_ACTIVATION_WHEN_SHOWN, "1")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
        let socket = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? ""
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else {
            PresentCommand.fail("SDL cannot open the Wayland display \(socket): \(String(cString: SDL_GetError())); "
                                + "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR, or use --backend x11")
        }
        defer { SDL_Quit() }
        let source: any WaylandOutputSource
        do { source = try makeSource() } catch {
            PresentCommand.fail("cannot read the outputs of \(socket): \(error)")
        }
        WaylandLeftoverModes.prepare(display: (source as? WaylandSession)?.displayName ?? socket)
        let outputs = source.presentOutputs()
        let audience = display == "auto" ? nil : display
        let console = WaylandPresentOutput.consoleOutput(of: outputs, audience: audience)
        if let audience, !outputs.contains(where: { $0.name == audience }) {
            PresentCommand.warn("no output named \(audience); outputs: "
                                + (outputs.isEmpty ? "none" : outputs.map(\.name).joined(separator: ", ")))
        }
        if let reason = source.modeSwitchingUnavailable, !Self.isPreferred(configuration.modeSelection) {
            PresentCommand.warn("--mode has no effect here: \(reason)")
        }
        let platform = WaylandDisplayPlatform<SDLWindowSurface>(source: source, console: console?.name) {
            title, frame in try SDLWindowSurface(title: title, frame: frame)
        }
        platform.onDiagnostic = { PresentCommand.warn($0) }
        var stopSignals: [any DispatchSourceSignal] = []
        await PresentLive.present(deck, serve: serve, configuration: configuration) { () throws(PresenterCanvasError) -> LivePresenter<WaylandDisplayPlatform<SDLWindowSurface>> in
            let live = try LivePresenter(
                deck: deck, platform: platform, configuration: configuration,
                consoleFrame: console?.logical ?? Rect(x: 0, y: 0, width: 1280, height: 720),
                mainDisplay: console.map { "\($0.name) \($0.display.currentMode)" } ?? "main display",
                output: { $0 }, only: audience.map { DisplayID($0) }, onDisplayEvent: { platform.rescan() })
            if let console {
                do { try WaylandFullscreen.place(live.consoleWindow, on: console) } catch {
                    PresentCommand.warn("console: \(error)")
                }
            }
            if let planned { live.controller.apply(.plan(duration: planned), at: live.now) }
            // A resize or exposure by the compositor replaces an audience window's SDL surface: draw afresh.
            live.onSDLEvent = { [weak platform] event in
                guard event.type == SDL_WINDOWEVENT.rawValue, let platform else { return }
                let kind = UInt32(event.window.event)
                guard kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue
                else { return }
                for id in platform.externals.keys {
                    guard let window = platform.surface(for: id),
                          SDL_GetWindowID(window.window) == event.window.windowID else { continue }
                    window.invalidate()
                }
            }
            // SIGINT/SIGTERM end the talk like Ctrl-Q: the loop stops the platform, which puts modes back.
            stopSignals = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler { [weak live] in
                    MainActor.assumeIsolated { live?.apply(.key(.quit)) }
                }
                source.resume()
                return source
            }
            return live
        }
        for signalSource in stopSignals { signalSource.cancel() }
    }

    private static func isPreferred(_ selection: ModeSelection) -> Bool {
        if case .preferred = selection { return true }
        return false
    }
}
#endif
