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
        guard let server = await startServing(film, clock: player.timeSource) else { return }
        defer { server.stop() }
        player.onTimeline = { server.publish($0) }
        player.pageCount = { server.pageCount }
        Self.connect(server, to: player.remotes.requests)
        player.remotes.onDecided = { effects, volume in Self.reflect(effects, volume: volume, on: server) }
        let problems: [String]
        do { problems = try await player.run() } catch { Self.fail(error.description) }
        if let last = problems.last {
            Self.warn("\(problems.count) problem(s) during playback; the last: \(last)")
            Foundation.exit(1)
        }
    }

    /// The browser remote's requests go to the player's inbox, as MPRIS's do.
    static func connect(_ server: BrowserVideoServer, to inbox: VideoRemoteInbox) {
        server.onRequest = { request in
            switch request {
            case .command(let command): inbox.put(.command(command))
            case .volume(let level): inbox.put(.volume(level))
            }
        }
    }

    /// What the core decided goes back to the pages: the volume, and the answers to remote commands (to the remote).
    static func reflect(_ effects: [VideoPlaybackEffect], volume: Double, on server: BrowserVideoServer) {
        server.publish(volume: volume)
        for case .answer(let command, let status) in effects { server.publishAnswer("\(command) → \(status.rawValue)") }
    }

    /// Starts the video server when `--serve` was given and prints the page's URL; exits with status 2 when the
    /// address is wrong or the file cannot be read or served. The server reads `film`'s descriptor, opened and
    /// checked once: never the name again.
    @MainActor
    func startServing(_ film: PlayFilm,
                      clock: @escaping @Sendable () -> Double = { MonotonicMediaClock().now() }) async -> BrowserVideoServer? {
        guard let serve else { return nil }
        let server: BrowserVideoServer
        do {
            let configuration = try BrowserServerConfiguration(listen: serve)
            server = try BrowserVideoServer(opened: film.opened, configuration: configuration, clock: clock)
        } catch let error as BrowserProtocolError {
            Self.fail(error.description)
        } catch let error as BrowserServerError {
            Self.fail(error.description)
        } catch {
            Self.fail("\(error)")
        }
        server.onPageChange = { line in StandardStreams.line(PrintableText.line("browser: " + line)) }
        let url: URL
        do { url = try await server.listen() } catch { Self.fail(error.description) }
        if server.container == .unknown {
            Self.warn("\(film.shownName): container not recognised; pages get it as "
                      + "\(server.container.contentType) and will most likely say they cannot play it")
        }
        let line = "serving \(film.shownName) (\(server.container.contentType), "
            + "\(server.length) bytes) to browsers at \(url.absoluteString)"
        StandardStreams.line(PrintableText.line(line))
        if let remote = server.remoteURL {
            StandardStreams.line("remote control (keep it private: it controls the film): \(remote.absoluteString)")
        }
        return server
    }
}
