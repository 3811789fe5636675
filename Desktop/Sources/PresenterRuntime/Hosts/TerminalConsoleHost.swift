#if canImport(CSDL2)
import DesktopFiles
public import ExternalDisplayKit
public import ExternalDisplayPresenter
import Foundation

/// The console in the terminal (`present --serve` without a desktop, or `--terminal-console`): keys typed or
/// piped on standard input, status lines on standard output, and the console view drawn off screen on every
/// visible change, so it costs what a console window would.
@MainActor
public final class TerminalConsoleHost: PresenterHost {
    private let consoleFPS: Double?
    private var console: SDLPresenterCanvas?
    private var consoleList: DisplayList?
    private let terminal = TerminalMode()
    private var reader: Task<Void, Never>?
    private weak var runtime: PresenterRuntime?
    private var statsMark: (time: Double, frames: Int) = (0, 0)
    /// Frames of the console view drawn so far.
    public private(set) var frames = 0
    /// More of the statistics line (the browser pages' figures).
    public var statistics: () -> String = { "" }
    /// Where lines go (standard output by default).
    public var say: (String) -> Void = { line in StandardStreams.line(PrintableText.line(line)) }

    /// A terminal console; `consoleFPS` redraws the off-screen console that often even when nothing changes
    /// (to measure it under load).
    public init(consoleFPS: Double? = nil, size: PixelSize = PixelSize(width: 1280, height: 720), caches: DrawingCaches) {
        self.consoleFPS = consoleFPS
        console = try? SDLPresenterCanvas(size: size, caches: caches)
        console?.pageWaiting = .placeholder
    }

    /// Reads keys from standard input (single keys on a terminal; piped bytes otherwise).
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        let inputs = StandardInputReader.start()
        reader = Task { [weak self, weak runtime] in
            for await input in inputs {
                guard let runtime, !Task.isCancelled else { return }
                switch input {
                case .press(let press): runtime.send(.press(press))
                case .step(let line): self?.step(line, runtime)
                }
            }
        }
        terminal.enterKeyMode()
    }

    /// A step line (`:` … Enter): a stroke (`ink:X/Y;X/Y`), the pointer (`pointer:X/Y`, `pointer:off`), a key or a
    /// remote command, as `--keys` spells them; anything else is refused with a message.
    private func step(_ line: String, _ runtime: PresenterRuntime) {
        let parsed: HeadlessStep
        do { parsed = try HeadlessStep.parse(line.trimmingCharacters(in: .whitespaces)) } catch {
            say(error.description)
            return
        }
        switch parsed {
        case .key(let key): runtime.send(.key(key))
        case .remote(let command): runtime.send(.remote(command))
        case .pointer(let point): runtime.send(.pointer(point))
        case .ink(let points):
            for input in runtime.controller.strokeInputs(points) { runtime.send(input) }
        case .unplug, .plug, .mode, .wait:
            say("'\(line.prefix(80))': the console takes ink:, pointer:, key and remote: steps after ':'; "
                + "plug, unplug, mode and wait are for headless runs (--simulate)")
        }
    }

    /// Draws the console view off screen when it changed (or at `consoleFPS`).
    public func drawConsole(at now: Double, clock: String) {
        guard let runtime, let console else { return }
        let list = runtime.controller.mainList(size: console.size, at: now, clock: clock, metrics: console)
        if list != consoleList || consoleFPS != nil {
            console.draw(list)
            consoleList = list
            frames += 1
        }
    }

    /// The console view is drawn again at the next pass (a page it showed as a placeholder is ready).
    public func invalidate() { consoleList = nil }

    /// The next redraw at `consoleFPS`.
    public func nextDeadline(after now: Double) -> Double? { consoleFPS.map { now + 1 / $0 } }

    /// S prints a statistics line.
    public func perform(_ effect: PresenterEffect) {
        guard effect == .statistics, let runtime else { return }
        let t = runtime.now
        let fps = t > statsMark.time ? Double(frames - statsMark.frames) / (t - statsMark.time) : 0
        statsMark = (t, frames)
        say("stats: " + statistics() + "console frames \(frames) (\(String(format: "%.1f", fps)) fps since the last "
            + "stats), rss \(ProcessStats.residentKiB()) KiB, fds \(ProcessStats.openFiles())")
    }

    /// Restores the terminal and stops reading.
    public func stop() {
        terminal.restore()
        reader?.cancel()
    }
}
#endif
