import ArgumentParser
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter

/// `present --serve [HOST:]PORT`: every browser that opens the printed URL is an external display.
struct ServeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Serve the audience view to browsers on [HOST:]PORT: every page that opens the URL is an external display; "
            + "/remote?token=… (printed on the console) is the speaker's phone remote.",
        discussion: "Loopback only unless a host is named (0.0.0.0:8080 for every interface). Port 0: any free port.",
        valueName: "[HOST:]PORT"))
    var serve: String?

    @Option(help: ArgumentHelp("With --serve: redraw the terminal console N times a second even when nothing "
                               + "changes (to measure it under load).", visibility: .hidden))
    var consoleFPS: Double?

    @Flag(help: ArgumentHelp("With --serve: send each page only the picture it shows now, not the slides either "
                             + "side ahead of time (a flip then waits for the picture; viewers cannot peek ahead in "
                             + "their browser's developer tools)."))
    var serveNoPreload = false

    func validate() throws {
        if let serve {
            do { _ = try BrowserServerConfiguration(listen: serve) } catch { throw ValidationError(error.description) }
        }
        if let consoleFPS, !(consoleFPS.isFinite && consoleFPS > 0 && consoleFPS <= 1_000) {
            throw ValidationError("--console-fps \(consoleFPS): use a number of frames per second in 0…1000")
        }
    }
}

extension ServeOptions {
    /// With `--serve`: presents `deck` with the console in the terminal and every browser page as an external
    /// display, and returns true when the talk is over; without it returns false at once.
    @MainActor
    func present(_ deck: Deck, configuration: DisplayConfiguration) async -> Bool {
        guard let serve, var server = try? BrowserServerConfiguration(listen: serve) else { return false }
        server.sendsAhead = !serveNoPreload
        #if canImport(CSDL2)
        await ServedPresenter.run(deck: deck, server: server, display: configuration, consoleFPS: consoleFPS)
        #else
        PresentCommand.fail("--serve renders the audience view with SDL2, which this build lacks")
        #endif
        return true
    }
}
