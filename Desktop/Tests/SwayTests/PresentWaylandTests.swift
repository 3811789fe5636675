#if canImport(CSDL2)
import ExternalDisplayPresenter
import Foundation
import Testing

/// `extdisplay present` on a real Wayland compositor (headless sway): the audience view fullscreen on the
/// output named, pixel for pixel what the headless presenter draws for the same slide, never a notes-colour
/// pixel on it; keys typed into the console (wtype's virtual keyboard) flip slides; an output that goes away
/// and comes back gets the talk back with slide and timer kept. Never skipped: a missing sway, wtype or grim
/// fails each test with what to install.
@Suite("Present on Wayland (headless sway)", .serialized)
struct PresentWaylandTests {
    static let deck = """
    # Wayland talk
    - the projector is HEADLESS-2
    Note:
    Speaker notes for the laptop only: never on the projector
    ---
    # Outputs
    Named by the compositor
    Note: notes of slide two
    ---
    # Questions
    """

    @Test func theAudienceViewIsFullscreenOnTheNamedOutputAndKeysFlipSlides() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        // A third output, which must get no slide: --display names HEADLESS-2 only.
        let third = try sway.addOutput()
        try sway.setMode(third, width: 640, height: 480, x: 3200, y: 0)
        let run = try PresentRun(on: sway, ["--display", "HEADLESS-2"], external: "HEADLESS-2")
        defer { run.stop() }  // keeps the run (and its presenter) alive to the end of the test
        let (client, reference, presenter) = (run.client, run.reference, run.presenter)

        // Region by region, what the headless presenter drew for slide 1 at 1280×720.
        var shot = try client.screenshot("HEADLESS-2")
        _ = try poll { shot = try client.screenshot("HEADLESS-2"); return try reference.compare(shot, slide: 0).matches }
        let first = try reference.compare(shot, slide: 0)
        #expect(first.matches, "HEADLESS-2 differs from the headless audience view of slide 1 in regions \(first.differing)")
        #expect(first.notesPixels == 0, "notes on the audience output")
        let console = try client.screenshot("HEADLESS-1")
        #expect(try reference.count(console, PresenterTheme().notes) > 500, "no notes on the console (HEADLESS-1)")
        let other = try client.screenshot(third)
        #expect(try reference.count(other, PresenterTheme().slideBackground) == 0, "a slide on \(third)")
        #expect(try reference.count(other, PresenterTheme().notes) == 0, "notes on \(third)")

        // Keys go to the console (the audience window never took focus).
        try client.key("Right")
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 2 of 3") } }, "lines: \(presenter.lines)")
        _ = try poll { shot = try client.screenshot("HEADLESS-2"); return try reference.compare(shot, slide: 1).matches }
        let second = try reference.compare(shot, slide: 1)
        #expect(second.matches, "HEADLESS-2 differs from the headless view of slide 2 in regions \(second.differing)")
        #expect(second.notesPixels == 0)
        try client.key("Left")
        #expect(poll { presenter.lines.last?.hasPrefix("slide 1 of 3") == true }, "lines: \(presenter.lines)")

        // SIGTERM ends the talk like Ctrl-Q (windows closed, modes put back), with status 0.
        presenter.signal(SIGTERM)
        #expect(poll { presenter.hasEnded }, "still running after SIGTERM")
        #expect(presenter.wait() == 0, "stderr: \(presenter.stderr)")
    }

    /// SIGINT, SIGTERM and SIGHUP each end the talk like Q with status 0, as on X11 (SIGHUP used to end it by
    /// its default action, 129). Headless sway's outputs offer one mode each, so no `--mode` switch (and no exit
    /// hook) can take part here; `XorgTests.XorgPresenterTests` checks the signals with a mode switched.
    @Test func sigintSigtermAndSighupEndTheTalkWithStatusZero() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let client = WaylandClientEnvironment(runtime: sway.runtimeDirectory, socket: sway.waylandDisplay)
        let reference = try PresentReference(deck: Self.deck)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let presenter = try ChildProcess(try Repository.extdisplay().path, ["present", reference.deck.path, "--display", "HEADLESS-2"],
                                             environment: client.environment)
            defer { presenter.signal(SIGKILL) }
            #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") } }, "signal \(signal): \(presenter.stderr)")
            presenter.signal(signal)
            let status = presenter.exitStatus(timeout: 20)
            #expect(status == 0, "signal \(signal): status \(String(describing: status)); stderr: \(presenter.stderr)")
        }
    }

    @Test func anOutputUnpluggedAndReplugedGetsTheTalkBackWithSlideAndTimerKept() throws {
        // A sway nested in a headless sway: closing an output's window in the outer one unplugs it for real
        // (sway 1.7's headless outputs cannot be switched off: the commit fails).
        let nested = try SwayCompositor(nested: true)
        defer { nested.stop() }
        let projector = try nested.addOutput()
        try nested.setMode(projector, width: 1280, height: 720, x: 1280, y: 0)
        let run = try PresentRun(on: nested, [], external: projector)
        defer { run.stop() }  // keeps the run (and its presenter) alive to the end of the test
        let (client, reference, presenter) = (run.client, run.reference, run.presenter)
        try client.key("Right")
        try client.key("p")
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 2 of 3") && $0.contains("(paused)") } },
                "lines: \(presenter.lines)")
        let paused = try #require(presenter.lines.last { $0.hasPrefix("slide 2 of 3") && $0.contains("(paused)") })
        let timer = paused.components(separatedBy: ", ")[1]

        try nested.unplug(projector)
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 2 of 3, \(timer)") && $0.hasSuffix("external: none") } },
                "lines: \(presenter.lines)")
        usleep(1_200_000)  // time passes while unplugged: a paused timer must not move
        let back = try nested.addOutput()
        try nested.setMode(back, width: 1280, height: 720, x: 1280, y: 0)
        #expect(poll { presenter.lines.contains { $0 == "slide 2 of 3, \(timer), external: \(back)" } },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        var shot = try client.screenshot(back)
        _ = try poll { shot = try client.screenshot(back); return try reference.compare(shot, slide: 1).matches }
        let comparison = try reference.compare(shot, slide: 1)
        #expect(comparison.matches, "\(back) differs from the headless view of slide 2 in regions \(comparison.differing)")
        #expect(comparison.notesPixels == 0, "notes on \(back)")

        try client.key("q", modifier: "ctrl")
        #expect(poll { presenter.hasEnded }, "still running after Ctrl-Q")
        #expect(presenter.wait() == 0, "stderr: \(presenter.stderr)")
    }
}

/// One `present` run on a compositor, with the headless reference of its deck and a keyboard held for it;
/// ready (or failed with what is wrong) once `external` is attached and the console has the keyboard focus —
/// the audience window never takes it.
final class PresentRun {
    let client: WaylandClientEnvironment
    let reference: PresentReference
    let keyboard: ChildProcess
    let presenter: ChildProcess

    init(on sway: SwayCompositor, _ arguments: [String], external: String) throws {
        client = WaylandClientEnvironment(runtime: sway.runtimeDirectory, socket: sway.waylandDisplay)
        reference = try PresentReference(deck: PresentWaylandTests.deck)
        keyboard = try client.holdKeyboard()
        presenter = try ChildProcess(try Repository.extdisplay().path, ["present", reference.deck.path] + arguments,
                                environment: client.environment)
        let presenter = presenter
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") && $0.hasSuffix("external: \(external)") } },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        #expect(poll { (try? focusedWindow(sway.swaymsg("-t", "get_tree"))) == consoleTitle },
                "focused: \(String(describing: try? focusedWindow(sway.swaymsg("-t", "get_tree"))))")
    }

    /// Ends the presenter (if still running) and the keyboard.
    func stop() {
        presenter.signal(SIGKILL)
        keyboard.signal(SIGKILL)
    }

    deinit { stop() }
}

/// The console window's title.
let consoleTitle = "extdisplay present: console"

/// The name of the window with keyboard focus in a `swaymsg -t get_tree` answer (nil when none has it).
func focusedWindow(_ tree: String) throws -> String? {
    func search(_ node: [String: Any]) -> String? {
        if node["focused"] as? Bool == true, node["type"] as? String != "workspace" { return node["name"] as? String }
        let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
        return children.lazy.compactMap(search).first
    }
    guard let root = try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else {
        throw WaylandTestFailure("swaymsg -t get_tree printed no JSON object")
    }
    return search(root)
}


/// A Wayland client's view of one compositor: the environment to run in, keys through wtype's virtual
/// keyboard, screenshots of one output through grim.
struct WaylandClientEnvironment {
    /// The compositor's runtime folder.
    var runtime: String
    /// Its socket name inside `runtime`.
    var socket: String

    /// What a client needs (no X11, no session bus: keys and quit come from the compositor only).
    var environment: [String: String?] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtime, "DISPLAY": nil, "DBUS_SESSION_BUS_ADDRESS": nil,
         "SDL_VIDEODRIVER": nil]
    }

    private func tool(_ name: String) throws -> String {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw WaylandTestFailure("\(name) is not installed: run scripts/install-deps.sh (Debian package \(name))")
        }
        return path
    }

    /// A virtual keyboard held for the whole test: headless sway has no keyboard, and a seat that gains one
    /// only when `wtype` types loses the first keys (the client binds its keyboard too late).
    func holdKeyboard() throws -> ChildProcess {
        let holder = try ChildProcess(try tool("wtype"), ["-s", "600000", "-k", "F13"], environment: environment)
        usleep(300_000)
        return holder
    }

    /// Types one key (an XKB key name) into the focused window, optionally with a modifier held.
    func key(_ name: String, modifier: String? = nil) throws {
        let arguments = modifier.map { ["-M", $0, "-k", name, "-m", $0] } ?? ["-k", name]
        let result = try runToEnd(try tool("wtype"), arguments, environment: environment)
        guard result.status == 0 else { throw WaylandTestFailure("wtype \(arguments) failed: \(result.stderr)") }
    }

    /// A PNG screenshot of `output` (grim uses wlr-screencopy).
    func screenshot(_ output: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("edk-wl-shot-\(UUID().uuidString).png")
        let result = try runToEnd(try tool("grim"), ["-o", output, file.path], environment: environment)
        guard result.status == 0 else { throw WaylandTestFailure("grim -o \(output) failed: \(result.stderr)") }
        return file
    }

    /// A binary PPM of `region` ("X,Y WxH" in the compositor's logical coordinates), read by grim.
    func screenshot(region: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("edk-wl-shot-\(UUID().uuidString).ppm")
        let result = try runToEnd(try tool("grim"), ["-g", region, "-t", "ppm", file.path], environment: environment)
        guard result.status == 0 else { throw WaylandTestFailure("grim -g \(region) failed: \(result.stderr)") }
        return file
    }
}

extension PresentReference {
    /// The reference for `deck`, its notes colour the presenter theme's.
    init(deck text: String) throws { try self.init(deck: text, notes: PresenterTheme().notes.hex) }

    /// Pixels of exactly `colour` in a PNG.
    func count(_ png: URL, _ colour: RGBA) throws -> Int { try count(png, hex: colour.hex) }
}

extension RGBA {
    /// `rrggbb`.
    var hex: String { String(format: "%02x%02x%02x", r, g, b) }
}
#endif
