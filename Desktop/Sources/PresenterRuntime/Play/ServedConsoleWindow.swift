#if canImport(CGStreamer) && canImport(CSDL2)
internal import CSDL2
import Dispatch
import DesktopVideo
import ExternalDisplayKit
import ExtDisplayCore
import ExternalDisplayMedia
import Foundation
import SDLWindows
import X11Outputs

/// The controls window of served-only `extdisplay play` on a desktop: ``PlayerConsole`` (title, position,
/// status, rate, volume, where it plays, and how many pages), redrawn ten times a second, and its key presses,
/// which the playing mode's key table in the core decides (``ExtDisplayCore/PlayerCore``).
@MainActor
final class ServedConsoleWindow {
    private let window: DesktopSurface
    private var lastDraw = -Double.infinity
    private var drawn: (playback: VideoPlayback, now: Double, pages: Int)?
    private var connection: (any DispatchSourceRead)?

    /// Opens the window where `present`'s console and live `play`'s controls go (covering the output
    /// ``ExtDisplayCore/ConsoleOutputRule`` chooses among RandR's; its fallback frame without RandR); throws when the
    /// desktop cannot show one.
    init(title: String) throws(PlayerError) {
        SDLVideo.selectDriver(for: .x11)
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        var frame = ConsoleOutputRule.fallbackFrame
        if let session = try? RandRSession.open() {
            if let main = LivePlayer.consoleOutput(among: session.outputs(), audience: nil) { frame = main.bounds }
            session.close()
        }
        do {
            window = try DesktopSurface(display: DisplayID("console"), name: "extdisplay play", frame: frame,
                                        role: .console, title: "extdisplay play: \(title)", borderless: true)
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

    /// Calls `readable` when input for the window arrives (its keys wake the loop).
    func watch(_ readable: @escaping @MainActor () -> Void) {
        connection = SDLConnectionWatch.start(for: window.window, readable: readable)
    }

    /// The keys pressed since the last call, and whether the window was closed.
    func take() -> (presses: [KeyPress], closed: Bool) {
        var presses: [KeyPress] = []
        var closed = false
        SDLEventQueue.drain { event in
            switch event.type {
            case SDL_QUIT.rawValue: closed = true
            case SDL_KEYDOWN.rawValue:
                if let press = KeyPress(sdlKeyCode: event.key.keysym.sym, modifiers: event.key.keysym.mod) { presses.append(press) }
            case SDL_WINDOWEVENT.rawValue: window.setNeedsDisplay()
            default: break
            }
        }
        return (presses, closed)
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
    func close() {
        connection?.cancel()
        connection = nil
        window.destroy()
    }
}
#endif
