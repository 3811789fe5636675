import ArgumentParser
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import ExternalDisplayWayland
import Foundation

/// `extdisplay watch [--json]`: one line per display connect, disconnect and mode change, until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print one line per display connect, disconnect and mode change until Ctrl-C.",
        discussion: """
        Follows RandR on a private X connection (SDL alone misses disconnects and mode changes), or on Wayland \
        the compositor's outputs (globals coming and going, output-management heads appearing, disappearing or \
        being disabled: sway 1.7 keeps the wl_output of an output switched off, so a disabled head is a \
        disconnect and enabling it again a connect). Changes arrive in batches, one line each, flushed as it \
        happens:

          connect DUMMY2 1280×720@60 at (3200,0)
          modeChanged DUMMY1 1280×720@60 -> 1024×768@60 at (1920,0)
          disconnect DUMMY2

        --json prints one JSON object per line instead: {"event": "connect"|"disconnect"|"modeChanged", \
        "display": {…as in `list --json`…}, "from": {width, height, refreshRate} (modeChanged only), \
        "time": ISO 8601}.

        A short header naming the display goes to stderr. --set-mode OUTPUT=WxH[@HZ] switches a display \
        while watching; every mode is put back when watch ends (Ctrl-C, SIGTERM or exit). On Wayland that \
        works where the compositor offers wlr-output-management (sway, other wlroots compositors); elsewhere \
        watch says the compositor keeps the mode and exits with status 1.

        \(DesktopBackend.help)

        Without a display server it says so on stderr and exits with status 1; so does losing it while watching.
        """)

    @Flag(name: .long, help: "Print one JSON object per line instead of text.")
    var json = false

    @Option(name: .long, help: "Switch OUTPUT to a mode while watching, e.g. DUMMY1=1024x768@60 (restored at exit).")
    var setMode: String?

    @Option(name: .long, help: "Which display system to watch: auto (Wayland when WAYLAND_DISPLAY is set), x11, wayland.")
    var backend: DesktopBackend = .auto

    func validate() throws {
        if let setMode { _ = try Self.parse(setMode) }
    }

    @MainActor
    func run() async throws {
        if backend.resolved() == .wayland {
            try await runWayland()
            return
        }
        let session = try openSessionOrExplain()
        if let setMode {
            let (output, mode) = try Self.parse(setMode)
            do { try session.setMode(mode, on: output) } catch {
                StandardStreams.errorLine("extdisplay: \(error)")
                throw ExitCode(1)
            }
        }
        let names = session.outputs().map(\.outputName).joined(separator: ", ")
        StandardStreams.errorLine("watching \(session.displayName) (\(names)); Ctrl-C to stop")
        let json = self.json
        session.startEvents { batch in
            for event in batch {
                let line = json ? Self.jsonLine(event) : event.description
                StandardStreams.line(line)
            }
        }
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    /// `watch` on Wayland: the same lines, from the compositor.
    @MainActor
    private func runWayland() async throws {
        let session = try openWaylandOrExplain()
        if let setMode {
            let (output, mode) = try Self.parse(setMode)
            do { try session.setMode(mode, on: output) } catch {
                session.close()
                StandardStreams.errorLine("extdisplay: \(error)")
                throw ExitCode(1)
            }
        }
        let names = session.outputs().map(\.outputName).joined(separator: ", ")
        StandardStreams.errorLine("watching Wayland \(session.displayName) (\(names)); Ctrl-C to stop")
        let json = self.json
        session.start(delivering: { batch in
            for event in batch {
                let line = json ? Self.jsonLine(event) : event.description
                StandardStreams.line(line)
            }
        }, lost: { error in
            StandardStreams.errorLine("extdisplay: \(error)")
            session.close()
            Foundation.exit(1)
        })
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    /// `DUMMY1=1024x768@60` → ("DUMMY1", 1024×768@60).
    static func parse(_ spec: String) throws(ValidationError) -> (String, DisplayMode) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        let sizeAndRate = parts.count == 2 ? parts[1].split(separator: "@").map(String.init) : []
        let dims = sizeAndRate.first?.lowercased().split(separator: "x").compactMap { Int($0) } ?? []
        guard parts.count == 2, dims.count == 2, sizeAndRate.count <= 2 else {
            throw ValidationError("--set-mode wants OUTPUT=WIDTHxHEIGHT[@HZ], e.g. DUMMY1=1024x768@60")
        }
        guard (1...16_384).contains(dims[0]), (1...16_384).contains(dims[1]) else {
            throw ValidationError("--set-mode \(spec): each side must be 1…16384 pixels, e.g. DUMMY1=1024x768@60")
        }
        var rate = 60.0
        if sizeAndRate.count == 2 {
            guard let given = Double(sizeAndRate[1]), given.isFinite, (1...1_000).contains(given) else {
                throw ValidationError("--set-mode \(spec): the refresh rate must be a number of Hz in 1…1000, "
                                      + "e.g. DUMMY1=1024x768@60")
            }
            rate = given
        }
        return (parts[0], DisplayMode(width: dims[0], height: dims[1], refreshRate: rate))
    }

    /// One JSON object for an event.
    static func jsonLine(_ event: DesktopOutputEvent) -> String {
        var from: ModeJSON?
        if case .modeChanged(_, let old) = event { from = ModeJSON(old) }
        return line(event.name, OutputJSON(event.output), from: from)
    }

    /// One JSON object for a Wayland event (the same keys).
    static func jsonLine(_ event: WaylandOutputEvent) -> String {
        var from: ModeJSON?
        if case .modeChanged(_, let old) = event { from = ModeJSON(old) }
        return line(event.name, OutputJSON(event.output), from: from)
    }

    private static func line(_ name: String, _ display: OutputJSON, from: ModeJSON?) -> String {
        struct Line: Encodable {
            var event: String
            var display: OutputJSON
            var from: ModeJSON?
            var time: String
        }
        let time = ISO8601DateFormatter().string(from: Date())
        return encodeJSON(Line(event: name, display: display, from: from, time: time))
    }
}
