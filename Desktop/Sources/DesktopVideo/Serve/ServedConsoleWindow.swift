#if canImport(CGStreamer) && canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import ExternalDisplayMedia
import Foundation
import SDLWindows

/// The controls window of served-only `extdisplay play` on a desktop: ``PlayerConsole`` (title, position,
/// status, rate, volume, where it plays, and how many pages), redrawn ten times a second, and the player's keys —
/// Space (play/pause), Left/Right (5 s back/forward), Q or Esc (quit) — as events for the core.
@MainActor
final class ServedConsoleWindow {
    private let window: DesktopSurface
    private var lastDraw = -Double.infinity
    private var drawn: (playback: VideoPlayback, now: Double, pages: Int)?

    /// Opens the window (960×540 at the desktop's top left); throws when the desktop cannot show one.
    init(title: String) throws(PlayerError) {
        setenv("SDL_VIDEODRIVER", "x11", 0)
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        do {
            window = try DesktopSurface(display: DisplayID("console"), name: "extdisplay play",
                                        frame: Rect(x: 0, y: 0, width: 960, height: 540), role: .console,
                                        title: "extdisplay play: \(title)")
        } catch {
            throw PlayerError("cannot open the controls window: \(error.description)")
        }
        window.onDraw = { [weak self] canvas in
            guard let self, let drawn else { return }
            let pages = "\(drawn.pages) browser page\(drawn.pages == 1 ? "" : "s") connected"
            _ = PlayerConsole(title: title, playback: drawn.playback, now: drawn.now, frame: nil, problem: pages).draw(on: canvas)
        }
        window.show()
    }

    /// The keys pressed since the last call, as events, and whether the window asked to quit.
    func take() -> (events: [VideoPlaybackEvent], quit: Bool) {
        var events: [VideoPlaybackEvent] = []
        var quit = false
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            switch event.type {
            case SDL_QUIT.rawValue: quit = true
            case SDL_KEYDOWN.rawValue:
                switch UInt32(bitPattern: event.key.keysym.sym) {
                case SDLK_SPACE.rawValue: events.append(.togglePlayPause)
                case SDLK_LEFT.rawValue: events.append(.seekBy(-5))
                case SDLK_RIGHT.rawValue: events.append(.seekBy(5))
                case SDLK_q.rawValue, SDLK_ESCAPE.rawValue: quit = true
                default: break
                }
            case SDL_WINDOWEVENT.rawValue: window.setNeedsDisplay()
            default: break
            }
        }
        return (events, quit)
    }

    /// Draws `playback` at `now` when a tenth of a second has passed or `changed`.
    func show(_ playback: VideoPlayback, at now: Double, pages: Int, changed: Bool) {
        drawn = (playback, now, pages)
        if changed || now - lastDraw >= 0.1 {
            lastDraw = now
            window.setNeedsDisplay()
        }
        window.displayIfNeeded()
    }

    /// Closes the window.
    func close() { window.destroy() }
}
#endif
