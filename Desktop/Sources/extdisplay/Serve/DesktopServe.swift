#if canImport(CSDL2)
import CSDL2
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

/// `present --serve` on a desktop: the normal presenter (SDL console, cable displays through the desktop
/// platform) and, beside it, every browser page as one more external display. Both are driven by the one
/// ``PresenterController``: the browser coordinator reports pages to it like the desktop coordinator reports
/// monitors, and after each pass of the presenter's loop the pages and the remote are brought up to date.
@MainActor
final class DesktopServe {
    let audience: BrowserAudience
    private var qr: ConsoleQR

    private init(audience: BrowserAudience, qr: ConsoleQR) {
        self.audience = audience
        self.qr = qr
    }

    /// Starts serving beside `live` (call before `live.run`, after anything else that sets `afterPass`);
    /// exits 2 when the server cannot listen.
    static func attach<P: DisplayPlatform>(to live: LivePresenter<P>, server: BrowserServerConfiguration,
                                           display: DisplayConfiguration) async -> DesktopServe {
        let controller = live.controller
        let audience = BrowserAudience(controller: controller, configuration: server, displayConfiguration: display)
        let platform = audience.platform
        // `--display NAME` limits the cable displays; pages are always welcome.
        let accepts = controller.accepts
        controller.accepts = { [weak platform] id in accepts(id) || platform?.hasPage(id) == true }
        platform.onViewerChange = { line in ServedPresenter.say(line) }
        platform.onRemoteCommand = { [weak live] command in live?.apply(.key(ServedPresenter.key(for: command))) }
        let url: URL
        do { url = try await audience.start() } catch { PresentCommand.fail(error.description) }
        let serve = DesktopServe(audience: audience,
                                 qr: ConsoleQR(audienceURL: url.absoluteString, remoteURL: platform.remoteURL?.absoluteString))
        ServedPresenter.announce(url, platform: platform, keys: "keys on the console window as usual; "
                                 + "U cycles the console's QR code: audience URL, remote URL (private), none")
        let previous = live.afterPass
        live.afterPass = { [weak live, weak serve] in
            previous?()
            guard let live, let serve else { return }
            serve.audience.update(now: live.now)
        }
        live.consoleOverlay = { [weak live, weak serve] size in
            guard let live, let serve else { return [] }
            return serve.qr.operations(size: size, privateConsole: Self.isPrivate(live.controller.state))
        }
        live.onKey = { [weak live, weak serve] sym, ctrl in
            guard !ctrl, UInt32(bitPattern: sym) == SDLK_u.rawValue, let serve else { return false }
            serve.qr.cycle()
            live?.wake()
            return true
        }
        return serve
    }

    /// Whether only the speaker sees the console: not mirrored to the displays, not showing the audience view.
    static func isPrivate(_ state: PresenterState) -> Bool {
        state.arrangement == .extended && !state.showsAudienceOnMain
    }

    /// Stops serving; every page is disconnected.
    func stop() { audience.stop() }
}
#endif
