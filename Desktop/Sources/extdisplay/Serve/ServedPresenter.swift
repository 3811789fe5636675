#if canImport(CSDL2)
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

/// `present DECK --serve [HOST:]PORT`: the console in the terminal, every browser page an external display.
/// Keys typed on the terminal (or piped in) drive the talk; the phone remote drives it too. The console view is
/// drawn off screen on every visible change (the terminal shows its status line), so it costs what a console
/// window would.
@MainActor
final class ServedPresenter {
    private let controller: PresenterController
    private let audience: BrowserAudience
    private let start = ServedPresenter.monotonic()
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let consoleFPS: Double?
    private var console: SDLPresenterCanvas?
    private var consoleList: DisplayList?
    private var consoleFrames = 0
    private var statsMark: (time: Double, frames: Int)
    private var changed = true
    private let terminal = TerminalMode()

    init(deck: Deck, server: BrowserServerConfiguration, display: DisplayConfiguration, consoleFPS: Double?) {
        let start = self.start
        controller = PresenterController(deck: deck, startedAt: 0, mainDisplay: "terminal",
                                         now: { ServedPresenter.monotonic() - start })
        audience = BrowserAudience(controller: controller, configuration: server, displayConfiguration: display)
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.consoleFPS = consoleFPS
        statsMark = (0, 0)
        console = try? SDLPresenterCanvas(size: PixelSize(width: 1280, height: 720))
    }

    private var now: Double { Self.monotonic() - start }
    /// Set by SIGINT/SIGTERM.
    private static var quitRequested = false

    /// Serves until `q` twice within 2 s, Ctrl-Q, SIGINT or SIGTERM; exits 2 when the server cannot listen.
    static func run(deck: Deck, server: BrowserServerConfiguration, display: DisplayConfiguration,
                    consoleFPS: Double?) async {
        // Pictures are encoded off the main actor: keep their megabyte buffers out of glibc's per-thread heaps,
        // which never shrink (memory would grow with every connect/disconnect cycle).
        LivePresenter<SDLVideoPlatform>.keepLargeBuffersOutOfTheHeap()
        let presenter = ServedPresenter(deck: deck, server: server, display: display, consoleFPS: consoleFPS)
        await presenter.run()
    }

    private func run() async {
        let wake = self.wake
        // Weak: inputs, page events and remote commands may still arrive while the presenter winds down.
        controller.onChange = { [weak self] _ in
            self?.changed = true
            wake.yield()
        }
        audience.platform.onViewerChange = { line in Self.say(line) }
        audience.platform.onRemoteCommand = { [weak self] command in
            guard let self else { return }
            controller.apply(.key(Self.key(for: command)), at: now)
        }
        let url: URL
        do { url = try await audience.start() } catch { PresentCommand.fail(error.description) }
        Self.announce(url, platform: audience.platform,
                      keys: "keys: Right/Space/Enter/n next, Left/Backspace previous, Home, End, b blank, "
                          + "p pause timer, s statistics; quit: q twice within 2 s, or Ctrl-Q (Esc never quits)")
        let inputs = StandardInputReader.start()
        let keys = Task { [weak self] in
            for await input in inputs {
                guard let self, !Task.isCancelled else { return }
                self.handle(input)
            }
        }
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { [wake] in
            Task { @MainActor in
                ServedPresenter.quitRequested = true
                wake.yield()
            }
        }
        terminal.enterKeyMode()
        var wakeups = wakes.makeAsyncIterator()
        while !controller.state.wantsQuit, !Self.quitRequested {
            pass()
            let wallClock = Date().timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT())
            var next = RedrawScheduler.nextChange(after: now, state: controller.state, wallClock: wallClock)
            if let consoleFPS { next = min(next, now + 1 / consoleFPS) }
            let nanoseconds = UInt64(max(0, min(3600, next - now)) * 1e9)
            let timer = Task { [wake] in
                guard (try? await Task.sleep(nanoseconds: nanoseconds)) != nil else { return }
                wake.yield()
            }
            _ = await wakeups.next()
            timer.cancel()
        }
        terminal.restore()
        keys.cancel()
        signals.cancel()
        audience.stop()
        Self.say("presented \(controller.deck.slides.count) slides; console frames \(consoleFrames), "
                 + "audience pictures rendered \(audience.framesRendered)")
    }

    /// One pass: pages and remote first (they are what the audience waits for), then the console.
    private func pass() {
        let t = now
        audience.update(now: t)
        if let console {
            let list = controller.mainList(size: console.size, at: t, clock: presenterClock(Date()), metrics: console)
            if list != consoleList || consoleFPS != nil {
                console.draw(list)
                consoleList = list
                consoleFrames += 1
            }
        }
        if changed {
            changed = false
            Self.say(controller.statusLine(at: t))
        }
    }

    private func handle(_ input: ConsoleInput) {
        switch input {
        case .key(let key):
            controller.apply(.key(key), at: now)
            if key == .quitRequest, controller.state.quitArmedAt != nil, !controller.state.wantsQuit {
                Self.say("press q again within 2 s to quit (Ctrl-Q quits at once; Esc cancels)")
            }
        case .stats: Self.say(stats())
        }
        wake.yield()
    }

    /// The console's first lines: the audience URL (and its QR code on a terminal), the private remote URL,
    /// whether other machines can reach the server, and the keys.
    static func announce(_ url: URL, platform: BrowserDisplayPlatform, keys: String) {
        say("serving the audience view at \(url.absoluteString) (open it in any browser: each page is an external display)")
        TerminalQR.print(url.absoluteString, label: "scan to open the audience view:")
        if let remote = platform.remoteURL {
            say("speaker remote (keep it private, it shows the notes): \(remote.absoluteString)")
        }
        if !platform.configuration.isLoopback {
            say("listening on \(platform.configuration.host): reachable from other machines")
        }
        say(keys)
    }

    private func stats() -> String {
        let t = now
        let fps = t > statsMark.time ? Double(consoleFrames - statsMark.frames) / (t - statsMark.time) : 0
        statsMark = (t, consoleFrames)
        return "stats: viewers \(audience.viewers), remotes \(audience.platform.remotesConnected), console frames "
            + "\(consoleFrames) (\(String(format: "%.1f", fps)) fps since the last stats), audience pictures rendered "
            + "\(audience.framesRendered), rss \(ProcessStats.residentKiB()) KiB, fds \(ProcessStats.openFiles())"
    }

    static func key(for command: BrowserRemoteCommand) -> PresenterKey {
        switch command {
        case .next: .next
        case .previous: .previous
        case .blank: .blackout
        case .pauseTimer: .pauseTimer
        }
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
#endif
