import ExtDisplayTestSupport
import ExternalDisplayKit
import DesktopImages
import SDLWindows
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The console's output on a real window (Xorg-dummy, in this process): a `DesktopSurface` drawn on its window
/// surface, shown through `DesktopAudienceOutput` as `present` shows it. A ticking timer is drawn as a partial
/// redraw, and the window then holds exactly the pixels a full redraw of the same list gives.
@Suite("The console's output on Xorg-dummy", .serialized)
@MainActor
struct XorgConsoleOutputTests {
    @Test func aTickingTimerIsAPartialDrawWithThePixelsOfAFullOne() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        // SDL opens DISPLAY when its first window is made: it points at this server only for that moment.
        let surface = try server.openingSDL {
            try DesktopSurface(display: "console", name: "console", frame: Rect(x: 0, y: 0, width: 1280, height: 720),
                               role: .console, title: "extdisplay test: console", borderless: true, drawing: .windowSurface)
        }
        let output = DesktopAudienceOutput(surface, caches: DrawingCaches())
        defer { output.close() }
        output.show()
        #expect(output.size == PixelSize(width: 1280, height: 720))
        let metrics = try #require(output.metrics)
        let deck = DeckParser.parse("# Static\n- nothing moves\n- but the timer ticks\nNote: the notes")
        let layout = PresenterLayout(metrics: metrics)
        let state = PresenterState(slideCount: deck.slides.count, startedAt: 0)
        func list(at second: Double) -> DisplayList {
            layout.main(PresenterScene(deck: deck, state: state, now: second, clock: "10:00", mainDisplay: "laptop"),
                        size: output.size)
        }

        output.present(list(at: 9))
        #expect(output.fullDraws == 1 && output.partialDraws == 0, "the first present draws the whole window")
        output.present(list(at: 9))
        #expect(output.fullDraws == 1 && output.partialDraws == 0, "nothing changed: nothing drawn")
        output.present(list(at: 10))  // 0:09 → 0:10
        #expect(output.fullDraws == 1 && output.partialDraws == 1, "a tick redraws only the timer's rectangle")
        let patched = surface.canvas.readPixels()

        output.invalidate()
        output.present(list(at: 10))
        #expect(output.fullDraws == 2 && output.partialDraws == 1)
        let whole = surface.canvas.readPixels()
        #expect(patched == whole, "the patched console differs from a full redraw of the same list")
        #expect(patched.pixels.contains { $0 != 0 }, "nothing was drawn")
    }
}
