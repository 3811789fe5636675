import ExternalDisplayPresenter
import Foundation
import Testing

/// `extdisplay present` on a real headless Mutter (GNOME's compositor): the audience view fullscreen on the output
/// named, equal region by region to what the headless presenter draws for the same slide (screenshots are
/// Mutter's own: a ScreenCast recording of one monitor, read by GStreamer), the console on the main output (Mutter's
/// primary monitor), keys typed through Mutter's RemoteDesktop API flipping slides, SIGTERM ending the talk with
/// status 0, and a monitor unplugged and plugged in again (a ScreenCast virtual monitor) getting the talk back
/// with slide and timer kept.
@Suite("Present on GNOME (headless Mutter)", .serialized)
struct MutterPresentTests {
    static let deck = """
    # GNOME talk
    - the projector is Meta-1
    Note:
    Speaker notes for the laptop only: never on the projector
    ---
    # Outputs
    Named by Mutter
    Note: notes of slide two
    ---
    # Questions
    """

    /// A presenter on `mutter` with `arguments`, ready once its status line names `external`.
    private func present(_ mutter: MutterCompositor, _ arguments: [String], external: String,
                         reference: PresentReference) throws -> ChildProcess {
        let presenter = try ChildProcess(try Repository.extdisplay().path, ["present", reference.deck.path] + arguments,
                                         environment: mutter.environment)
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") && $0.hasSuffix("external: \(external)") } },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        return presenter
    }

    /// Polls screenshots of `connector` until one equals the headless view of `slide`; the last comparison.
    private func audience(_ mutter: MutterCompositor, _ connector: String, _ reference: PresentReference,
                          slide: Int) throws -> PresentReference.Comparison {
        try reference.awaitSlide(slide) { try mutter.screenshot(connector) }
    }

    @Test("--display Meta-1: the audience view on Meta-1 only, the console on Meta-0, keys flip, SIGTERM exits 0")
    func audienceOnTheNamedOutput() throws {
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        let reference = try PresentReference(deck: Self.deck, notes: PresenterTheme().notes.hex)
        let keyboard = try MutterRemoteKeyboard(busAddress: mutter.busAddress)
        defer { keyboard.close() }
        let presenter = try present(mutter, ["--display", "Meta-1"], external: "Meta-1", reference: reference)
        defer { presenter.signal(SIGKILL) }

        let first = try audience(mutter, "Meta-1", reference, slide: 0)
        #expect(first.matches, "Meta-1 differs from the headless view of slide 1 in regions \(first.differing)")
        #expect(first.notesPixels == 0, "notes on the audience output")
        let console = try mutter.screenshot("Meta-0")
        #expect(try reference.count(console, hex: reference.notes) > 500, "no notes on the console (Meta-0)")
        #expect(try reference.count(console, hex: PresenterTheme().slideBackground.hex) < 1920 * 1080 / 2,
                "Meta-0 shows the audience view, not the console")

        // Keys reach the console: the audience window never took the focus.
        try keyboard.type(.right)
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 2 of 3") } }, "lines: \(presenter.lines)")
        let second = try audience(mutter, "Meta-1", reference, slide: 1)
        #expect(second.matches, "Meta-1 differs from the headless view of slide 2 in regions \(second.differing)")
        try keyboard.type(.left)
        #expect(poll { presenter.lines.last?.hasPrefix("slide 1 of 3") == true }, "lines: \(presenter.lines)")

        presenter.signal(SIGTERM)
        #expect(presenter.exitStatus(timeout: 20) == 0, "stderr: \(presenter.stderr)")
    }

    @Test("SIGTERM while the presenter is still starting (its first window just made) ends the talk with status 0")
    func sigtermDuringStartUp() throws {
        let mutter = try MutterCompositor()
        defer { mutter.stop() }
        let reference = try PresentReference(deck: Self.deck, notes: PresenterTheme().notes.hex)
        let presenter = try ChildProcess(try Repository.extdisplay().path, ["present", reference.deck.path, "--display", "Meta-1"],
                                         environment: mutter.environment)
        defer { presenter.signal(SIGKILL) }
        // libdecor's first words come as SDL makes the console window, before the audience window is placed and
        // long before the loop runs (the line about the remote control, when libdecor says nothing).
        #expect(poll(20, every: 0.002) { presenter.stderr.contains("decorations") || presenter.stderr.contains("remote control") },
                "stderr: \(presenter.stderr)")
        presenter.signal(SIGTERM)
        #expect(presenter.exitStatus(timeout: 20) == 0, "lines: \(presenter.lines) stderr: \(presenter.stderr)")
    }

    @Test("Mutter's primary monitor is main: made primary, Meta-1 gets the console and Meta-0 the audience view; --mode with a mode Meta-0 does not offer keeps its own")
    func consoleOnThePrimaryMonitor() throws {
        let mutter = try MutterCompositor(monitors: ["1280x720", "1280x720"])
        defer { mutter.stop() }
        try mutter.arrange(primary: "Meta-1")
        #expect(try poll { try mutter.displayState().first { $0.isPrimary }?.connector == "Meta-1" })
        let reference = try PresentReference(deck: Self.deck, notes: PresenterTheme().notes.hex)
        let presenter = try present(mutter, ["--mode", "1024x768"], external: "Meta-0", reference: reference)
        defer { presenter.signal(SIGKILL) }
        let shown = try audience(mutter, "Meta-0", reference, slide: 0)
        #expect(shown.matches, "Meta-0 differs from the headless view of slide 1 in regions \(shown.differing)")
        #expect(try reference.count(try mutter.screenshot("Meta-1"), hex: reference.notes) > 500, "no console on Meta-1")
        #expect(try mutter.displayState().allSatisfy { $0.width == 1280 && $0.height == 720 })
        #expect(poll { presenter.stderr.contains("Meta-0 does not offer 1024×768 (it offers 1280×720)") },
                "the unoffered --mode is said; stderr: \(presenter.stderr)")
        presenter.signal(SIGTERM)
        #expect(presenter.exitStatus(timeout: 20) == 0, "stderr: \(presenter.stderr)")
    }

    @Test("a monitor unplugged and plugged in again gets the talk back with slide and timer kept")
    func unplugAndReplug() throws {
        let mutter = try MutterCompositor(monitors: ["1920x1080"])
        defer { mutter.stop() }
        let reference = try PresentReference(deck: Self.deck, notes: PresenterTheme().notes.hex)
        let keyboard = try MutterRemoteKeyboard(busAddress: mutter.busAddress)
        defer { keyboard.close() }
        var projector = try mutter.plugVirtualMonitor(width: 1280, height: 720)
        let name = try #require(try mutter.displayState().map(\.connector).first { $0 != "Meta-0" })
        let presenter = try present(mutter, [], external: name, reference: reference)
        defer { presenter.signal(SIGKILL) }
        // Keys typed before Mutter maps the windows (and focuses the console) are lost: first the slide on screen.
        #expect(try audience(mutter, name, reference, slide: 0).matches)
        try keyboard.type(.right)
        try keyboard.type(.p)
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 2 of 3") && $0.contains("(paused)") } },
                "lines: \(presenter.lines)")
        let paused = try #require(presenter.lines.last { $0.hasPrefix("slide 2 of 3") && $0.contains("(paused)") })
        let timer = paused.components(separatedBy: ", ")[1]

        projector.stop()
        #expect(try poll { try mutter.displayState().count == 1 })
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 2 of 3, \(timer)") && $0.hasSuffix("external: none") } },
                "lines: \(presenter.lines)")
        usleep(1_200_000)  // time passes while unplugged: a paused timer must not move
        projector = try mutter.plugVirtualMonitor(width: 1280, height: 720)
        defer { projector.stop() }
        let plugged = Date()
        let back = try #require(try mutter.displayState().map(\.connector).first { $0 != "Meta-0" })
        #expect(poll(every: 0.005) { presenter.lines.contains { $0 == "slide 2 of 3, \(timer), external: \(back)" } },
                "lines: \(presenter.lines) stderr: \(presenter.stderr)")
        // A figure for the README, not a limit: from the monitor's first frame to the talk on it.
        print("replug on Mutter: the talk on \(back) \(Int(Date().timeIntervalSince(plugged) * 1000)) ms after it appeared")
        let shown = try audience(mutter, back, reference, slide: 1)
        #expect(shown.matches, "\(back) differs from the headless view of slide 2 in regions \(shown.differing)")
        #expect(shown.notesPixels == 0)

        try keyboard.type(.q, holding: .controlLeft)
        #expect(presenter.exitStatus(timeout: 20) == 0, "stderr: \(presenter.stderr)")
    }
}

extension RGBA {
    /// `rrggbb`.
    var hex: String { String(format: "%02x%02x%02x", r, g, b) }
}
