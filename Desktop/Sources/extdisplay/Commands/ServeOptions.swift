import ArgumentParser
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

/// `present --serve [HOST:]PORT`: every browser that opens the printed URL is an external display.
struct ServeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Serve the audience view to browsers on [HOST:]PORT: every page that opens the URL is an external display; "
            + "/remote?token=… (printed on the console) is the speaker's phone remote.",
        discussion: "Loopback only unless a host is named (0.0.0.0:8080 for every interface). Port 0: any free port.",
        valueName: "[HOST:]PORT"))
    var serve: String?

    @Option(name: .customLong("serve-origin"),
            help: ArgumentHelp("With --serve behind a reverse proxy (TLS): the public origin pages are loaded from, "
                               + "e.g. https://talk.example.org; accepted as Host and Origin beside the server's own "
                               + "names (repeat for several).", valueName: "ORIGIN"))
    var serveOrigin: [String] = []

    @Flag(name: .customLong("terminal-console"),
          help: ArgumentHelp("With --serve: keep the console in the terminal even when a desktop is there (by default "
                             + "a desktop runs the normal presenter: cable displays and browsers together)."))
    var terminalConsole = false

    @Option(help: ArgumentHelp("With --serve: redraw the terminal console N times a second even when nothing "
                               + "changes (to measure it under load).", visibility: .hidden))
    var consoleFPS: Double?

    @Flag(help: ArgumentHelp("With --serve: send each page only the picture it shows now, not the slides either "
                             + "side ahead of time (a flip then waits for the picture; viewers cannot peek ahead in "
                             + "their browser's developer tools)."))
    var serveNoPreload = false

    @Option(name: .customLong("serve-picture-mb"),
            help: ArgumentHelp("With --serve: the MiB pictures for pages may take at once, shared by every page "
                               + "(held, queued for a page, and the one being rendered); pictures ahead give way "
                               + "first. \(PictureBudget.megabytes.lowerBound)…\(PictureBudget.megabytes.upperBound), "
                               + "default \(PictureBudget.defaultMegabytes).", valueName: "MiB"))
    var servePictureMB: Int?

    @Option(name: .customLong("serve-max-pages"),
            help: ArgumentHelp("With --serve: audience pages connected at once, at most (one more is refused and "
                               + "tries again every second); \(BrowserServerConfiguration.pagesRange.lowerBound)…"
                               + "\(BrowserServerConfiguration.pagesRange.upperBound), default "
                               + "\(BrowserServerConfiguration().maximumPages). The remote always finds a place.",
                               valueName: "N"))
    var serveMaxPages: Int?

    func validate() throws {
        if let serve {
            do { _ = try BrowserServerConfiguration(listen: serve) } catch { throw ValidationError(error.description) }
        }
        for origin in serveOrigin {
            guard let error = BrowserServerConfiguration.originProblem(origin) else { continue }
            throw ValidationError("--serve-origin '\(origin)': \(error)")
        }
        if !serveOrigin.isEmpty, serve == nil { throw ValidationError("--serve-origin needs --serve") }
        if let servePictureMB {
            do { _ = try PictureBudget(megabytes: servePictureMB) } catch {
                throw ValidationError("--serve-picture-mb \(servePictureMB): \(error.description)")
            }
            if serve == nil { throw ValidationError("--serve-picture-mb needs --serve") }
        }
        if let serveMaxPages {
            if let problem = BrowserServerConfiguration.pagesProblem(serveMaxPages) {
                throw ValidationError("--serve-max-pages \(serveMaxPages): \(problem)")
            }
            if serve == nil { throw ValidationError("--serve-max-pages needs --serve") }
        }
        if let consoleFPS, !(consoleFPS.isFinite && consoleFPS > 0 && consoleFPS <= 1_000) {
            throw ValidationError("--console-fps \(consoleFPS): use a number of frames per second in 0…1000")
        }
    }
}

extension ServeOptions {
    /// The server configuration when `--serve` was given.
    var server: BrowserServerConfiguration? {
        guard let serve, var server = try? BrowserServerConfiguration(listen: serve) else { return nil }
        server.sendsAhead = !serveNoPreload
        server.publicOrigins = serveOrigin
        if let servePictureMB, let budget = try? PictureBudget(megabytes: servePictureMB) { server.pictureBudget = budget }
        if let serveMaxPages { server.maximumPages = serveMaxPages }
        return server
    }
}
