import ExternalDisplayBrowser
import Foundation

/// `play FILE --serve [HOST:]PORT`: browsers play the file themselves, following the player's timeline.
extension PlayCommand {
    static let headlessServeProblem = "--serve plays along with the desktop player (X11: set DISPLAY, no --simulate); "
        + "headless runs are in virtual time, which browser pages cannot follow"

    /// Starts the video server when `--serve` was given and prints the page's URL; exits with status 2 when the
    /// address is wrong or the file cannot be read or served.
    @MainActor
    func startServing() async -> BrowserVideoServer? {
        guard let serve else { return nil }
        let server: BrowserVideoServer
        do {
            let configuration = try BrowserServerConfiguration(listen: serve)
            server = try BrowserVideoServer(file: URL(fileURLWithPath: file), configuration: configuration)
        } catch let error as BrowserProtocolError {
            Self.fail(error.description)
        } catch let error as BrowserServerError {
            Self.fail(error.description)
        } catch {
            Self.fail("\(error)")
        }
        server.onPageChange = { line in FileHandle.standardOutput.write(Data(("browser: " + line + "\n").utf8)) }
        let url: URL
        do { url = try await server.listen() } catch { Self.fail(error.description) }
        if server.container == .unknown {
            Self.warn("\(URL(fileURLWithPath: file).lastPathComponent): container not recognised; pages get it as "
                      + "\(server.container.contentType) and will most likely say they cannot play it")
        }
        let line = "serving \(URL(fileURLWithPath: file).lastPathComponent) (\(server.container.contentType), "
            + "\(server.length) bytes) to browsers at \(url.absoluteString)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        return server
    }
}
