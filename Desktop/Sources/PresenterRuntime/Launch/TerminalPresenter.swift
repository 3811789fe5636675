#if canImport(CSDL2)
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

/// `present DECK --serve [HOST:]PORT` or `--share camera` without a desktop (or with `--terminal-console`): the
/// console in the terminal, every browser page and the camera an external display, keys typed (or piped) on
/// standard input and from the phone remote; SIGINT and SIGTERM end the talk cleanly.
public enum TerminalPresenter {
    /// Serves until `q` twice within 2 s, Ctrl-Q, SIGINT or SIGTERM; exits 2 when the server cannot listen.
    @MainActor
    public static func run(_ launch: PresenterLaunch) async {
        let runtime = launch.makeRuntime(mainDisplay: "terminal")
        let terminal = TerminalConsoleHost(consoleFPS: launch.consoleFPS, caches: runtime.caches)
        terminal.say = launch.say
        runtime.add(terminal)
        runtime.add(PageReadinessHost(cache: runtime.caches.pages))
        // A camera (--share camera) is an audience display here too; a share window needs a desktop.
        let shared = launch.addShareDisplays(runtime, window: nil)
        let keys = "keys: Right/Space/Enter/n next, Left/Backspace previous, Home, End, a number then Enter, b blank, "
            + "p pause timer, s statistics, :ink:X/Y;X/Y then Enter draws a stroke; "
            + "quit: q twice within 2 s, or Ctrl-Q (Esc never quits)"
        let browsers = await launch.serveBrowsers(runtime, qrOnConsole: false, keys: keys)
        if browsers == nil { launch.say(keys) }
        if let browsers {
            terminal.statistics = { [weak browsers] in
                guard let browsers else { return "" }
                return "viewers \(browsers.viewers), remotes \(browsers.platform.remotesConnected), "
                    + "audience pictures rendered \(browsers.framesRendered), ink messages \(browsers.inkMessagesSent), "
            }
        }
        runtime.add(SignalHost())
        runtime.add(InkSaveHost(output: launch.inkOutput))
        launch.addTimingHost(runtime)
        launch.remoteControl(runtime)
        launch.followDeckFile(runtime)
        launch.started?(runtime)
        await runtime.run()
        launch.say("presented \(launch.deck.slides.count) slides; console frames \(terminal.frames), "
                   + "audience pictures rendered \(browsers?.framesRendered ?? 0)"
                   + (shared.map { host in
                       host.draws.sorted { $0.key < $1.key }.map { "; frames drawn: \($0.key) \($0.value)" }.joined()
                   } ?? ""))
    }
}
#endif
