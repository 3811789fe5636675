#if canImport(CSDL2)
import CSDL2

/// SDL's event queue, drained in one place: every window of the application (the presenter's console, the
/// desktop platform's audience windows, `play`'s controls) takes its events through ``drain(_:)``, so the queue has
/// one reader and a runtime that owns it can take it over without a second pump.
@MainActor
package enum SDLEventQueue {
    /// Hands every event waiting in SDL's queue to `handle`, in order, and returns when the queue is empty.
    package static func drain(_ handle: (SDL_Event) -> Void) {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 { handle(event) }
    }
}
#endif
