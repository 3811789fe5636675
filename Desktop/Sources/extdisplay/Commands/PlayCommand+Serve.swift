import DesktopFiles
import DesktopVideo
import ExternalDisplayBrowser
import ExternalDisplayMedia
import ExternalDisplayPresenter
import Foundation
import PresenterRuntime

/// `play FILE --serve [HOST:]PORT`: browsers play the file themselves, following the player's timeline.
extension PlayCommand {
    static let headlessServeProblem = "--serve cannot follow a --simulate run: its steps take virtual time, which "
        + "browser pages cannot follow; drop --simulate to serve the film with browser pages as the only displays "
        + "(play FILE --serve PORT without DISPLAY, or with --display browser), or set DISPLAY to play on X11 too"

    /// Whether this run is served only (browser pages the only displays): `--display browser`, or `--serve` with no
    /// display server and no `--simulate`. Exits with status 2 when `--display browser` lacks `--serve` or comes
    /// with `--simulate`.
    func servedOnlyMode(_ environment: [String: String]) -> String? {
        if display == "browser" {
            guard let serve else { Self.fail("--display browser plays on browser pages only: add --serve [HOST:]PORT") }
            guard simulate == nil else { Self.fail(Self.headlessServeProblem) }
            return serve
        }
        guard let serve, simulate == nil, PresenterBackend.servers(in: environment).isEmpty else { return nil }
        return serve
    }

    /// Served only: the player keeps the timeline, the pages play the film; exits 2 when the file cannot be
    /// opened, 1 after problems during playback.
    @MainActor
    func playServedOnly(_ serve: String, film: PlayFilm) async {
        if snapshot != nil || !keys.isEmpty { Self.warn("--snapshot and --keys have no effect when serving only") }
        let player = ServedPlayer(file: film.playURL) { line in
            StandardStreams.line(PrintableText.line(line))
        }
        player.showsWindow = PresenterBackend.servers(in: ProcessInfo.processInfo.environment).contains(.x11)
        do { try player.open() } catch { Self.fail(error.description) }
        guard let pages = await startServing(film, clock: player.timeSource) else { return }
        pages.follow(player.remotes)
        player.pageCount = { pages.pageCount }
        player.add(pages)
        let problems: [String]
        do { problems = try await player.run() } catch { Self.fail(error.description) }
        if let last = problems.last {
            Self.warn("\(problems.count) problem(s) during playback; the last: \(last)")
            Foundation.exit(1)
        }
    }

    /// Starts serving the film to browsers when `--serve` was given (the pages a host of the player's runtime) and
    /// prints the page's URL; exits with status 2 when the address is wrong or the file cannot be read or served.
    /// The server reads `film`'s descriptor, opened and checked once: never the name again.
    @MainActor
    func startServing(_ film: PlayFilm, clock: @escaping @Sendable () -> Double) async -> BrowserVideoHost? {
        guard let serve else { return nil }
        do {
            return try await BrowserVideoHost.serve(film.opened, listen: serve, clock: clock,
                                                    say: { StandardStreams.line(PrintableText.line($0)) },
                                                    warn: { Self.warn($0) })
        } catch {
            Self.fail(error.description)
        }
    }
}
