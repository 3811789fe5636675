public import DesktopFiles
public import ExternalDisplayBrowser
import ExternalDisplayMedia
public import ExternalDisplayPresenter
import Foundation

/// Browser pages as displays of the playing mode (`play FILE --serve`), a host of the one runtime as
/// ``BrowserAudienceHost`` is of the presenting mode: the pages play the file themselves
/// (``ExternalDisplayBrowser/BrowserFilm`` on the one ``ExternalDisplayBrowser/BrowserServer``) and follow every timeline message the application core sends; the
/// browser remote's requests go to the runtime's ``RemoteControlHost`` (decided by the core like MPRIS's), and what
/// the core decided (the volume, the answers to the remote's commands) goes back to the pages after each pass.
///
/// ```swift
/// let pages = try await BrowserVideoHost.serve(film.opened, listen: "8080", clock: player.timeSource, say: print)
/// pages.follow(player.remotes)
/// player.add(pages)
/// ```
@MainActor
public final class BrowserVideoHost: PresenterHost {
    /// The pages' server.
    public let server: BrowserServer
    /// What the server shows: the film's page, file and timeline.
    public let film: BrowserFilm

    private init(server: BrowserServer, film: BrowserFilm) {
        self.server = server
        self.film = film
    }

    /// Serves `opened` (a file opened and checked once: never read again by its name) on `listen` (`[HOST:]PORT`),
    /// answering the pages' clock probes on `clock` (the runtime's); says the page's and the remote's URLs through
    /// `say` and a container the pages will not know through `warn`. Throws a message for a wrong address or a file
    /// that cannot be served.
    public static func serve(_ opened: OpenedFile, listen: String, clock: @escaping @Sendable () -> Double,
                             say: @escaping (String) -> Void,
                             warn: (String) -> Void) async throws(BrowserServerError) -> BrowserVideoHost {
        let configuration: BrowserServerConfiguration
        do { configuration = try BrowserServerConfiguration(listen: listen) } catch {
            throw BrowserServerError(error.description)
        }
        let film = try BrowserFilm(opened: opened, clock: clock)
        film.onPageChange = { line in StandardStreams.line(PrintableText.line("browser: " + line)) }
        let server = BrowserServer(configuration: configuration, film: film)
        let url = try await server.listen()
        let name = opened.shownName
        if film.container == .unknown {
            warn("\(name): container not recognised; pages get it as \(film.container.contentType) and will most "
                 + "likely say they cannot play it")
        }
        say("serving \(name) (\(film.container.contentType), \(film.length) bytes) to browsers at \(url.absoluteString)")
        if let remote = server.remoteURL {
            say("remote control (keep it private: it controls the film): \(remote.absoluteString)")
        }
        return BrowserVideoHost(server: server, film: film)
    }

    /// Hands the browser remote's requests to `remotes` (the runtime's remote host) and shows the pages what the
    /// core decided for them.
    public func follow(_ remotes: RemoteControlHost) {
        let inbox = remotes.requests
        film.onRequest = { request in
            switch request {
            case .command(let command): inbox.put(.command(command))
            case .volume(let level): inbox.put(.volume(level))
            }
        }
        let film = self.film
        remotes.onDecided = { effects, volume in
            film.publish(volume: volume)
            for case .answer(let command, let status) in effects { film.publishAnswer("\(command) → \(status.rawValue)") }
        }
    }

    /// The pages are served from ``serve(_:listen:clock:say:warn:)`` on; nothing more to start.
    public func start(in runtime: PresenterRuntime) {}

    /// Pages connected now (the remote's included).
    public var pageCount: Int { film.pageCount }

    /// The core's timeline messages, to every page.
    public func perform(_ effect: PresenterEffect) {
        guard case .playback(.timeline(let message)) = effect else { return }
        film.publish(message)
    }

    /// A frame of the film went to a display at `hostTime` (the runtime's clock): how late the display shows frames,
    /// which pages subtract.
    public func framePresented(mediaTime: Double, hostTime: Double) {
        film.framePresented(mediaTime: mediaTime, hostTime: hostTime)
    }

    /// Stops serving.
    public func stop() { server.stop() }
}
