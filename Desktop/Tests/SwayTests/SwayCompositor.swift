import Foundation
import Testing

/// A headless sway compositor started by scripts/sway-headless.sh: HEADLESS-1 1920×1080 at (0,0) and
/// HEADLESS-2 1280×720 at (1920,0), both at scale 1. Outputs are added with ``addOutput()``, resized with
/// ``setMode(_:width:height:refresh:x:y:)``, switched off and on with ``disable(_:)`` / ``enable(_:)``.
/// ``outputs()`` reads `swaymsg -t get_outputs -r`: sway's own account, independent of the code under test.
///
/// Starting throws (failing the test, never skipping it) when sway is missing or does not come up.
final class SwayCompositor: @unchecked Sendable {
    /// The Wayland socket name (`wayland-1`), relative to ``runtimeDirectory``.
    let waylandDisplay: String
    /// The compositor's `XDG_RUNTIME_DIR` (readable by the test process; the socket is open to it).
    let runtimeDirectory: String
    /// sway's IPC socket.
    let swaySocket: String
    /// The compositor's process id.
    let pid: String
    private var stopped = false

    /// What a client of this compositor needs in its environment (DISPLAY unset: X11 must not be chosen).
    var environment: [String: String?] {
        ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory, "SWAYSOCK": swaySocket,
         "DISPLAY": nil]
    }

    private static var script: String { packageRoot.appendingPathComponent("scripts/sway-headless.sh").path }

    /// Whether this is a nested pair (outputs WL-1, WL-2, … that ``unplug(_:)`` can remove).
    let isNested: Bool

    /// Starts a compositor: headless (HEADLESS-1, HEADLESS-2), or `nested` — a sway inside a headless sway, whose
    /// outputs (WL-1, 1280×720; more with ``addOutput()``) are windows of the outer one, so that closing one
    /// unplugs it for real (its `wl_output` global goes away).
    init(nested: Bool = false) throws {
        isNested = nested
        let result = try runToEnd("/bin/bash", [Self.script, nested ? "start-nested" : "start"])
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw WaylandTestFailure("""
                headless sway did not start: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) \
                — install sway (scripts/install-deps.sh) and run the tests as root or as a user sway accepts
                """)
        }
        let fields = HeadlessScriptLine.fields(line)
        guard let display = fields["WAYLAND_DISPLAY"], let runtime = fields["XDG_RUNTIME_DIR"],
              let sock = fields["SWAYSOCK"], let pid = fields["PID"] else {
            throw WaylandTestFailure("sway-headless.sh printed an unexpected line: \(line)")
        }
        waylandDisplay = display
        runtimeDirectory = runtime
        swaySocket = sock
        self.pid = pid
    }

    /// Runs a script subcommand against this compositor; throws with its message when it fails.
    @discardableResult
    private func script(_ command: String, _ arguments: [String]) throws -> String {
        let result = try runToEnd("/bin/bash", [Self.script, command, runtimeDirectory] + arguments)
        guard result.status == 0 else {
            throw WaylandTestFailure("sway-headless.sh \(command) \(arguments.joined(separator: " ")) failed: "
                                     + result.stderr)
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `swaymsg ARGS` on this compositor; its standard output.
    @discardableResult
    func swaymsg(_ arguments: String...) throws -> String { try script("msg", arguments) }

    /// Adds an output (`create_output`); returns its name (`HEADLESS-3`).
    func addOutput() throws -> String { try script("add", []) }

    /// Gives `output` a custom mode (and a position when both `x` and `y` are given).
    func setMode(_ output: String, width: Int, height: Int, refresh: Int = 60, x: Int? = nil, y: Int? = nil) throws {
        var arguments = [output, "\(width)x\(height)@\(refresh)Hz"]
        if let x, let y { arguments += [String(x), String(y)] }
        try script("mode", arguments)
    }

    /// Unplugs output `WL-N` of a nested compositor (closes its window in the outer compositor).
    func unplug(_ output: String) throws { try script("unplug", [output]) }

    /// Switches `output` off (sway 1.7 keeps its `wl_output`; output management reports the head disabled).
    func disable(_ output: String) throws { try script("disable", [output]) }

    /// Switches `output` back on.
    func enable(_ output: String) throws { try script("enable", [output]) }

    /// One output as sway reports it (`swaymsg -t get_outputs -r`).
    struct Output: Equatable {
        var name: String
        var active: Bool
        var x: Int, y: Int, width: Int, height: Int
        var scale: Double
        var currentWidth: Int?, currentHeight: Int?, currentRefreshMilliHertz: Int?
        var make: String, model: String
    }

    /// Every output sway knows, active or not, from its IPC.
    func outputs() throws -> [Output] {
        let text = try script("msg", ["-t", "get_outputs", "-r"])
        guard let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw WaylandTestFailure("swaymsg -t get_outputs -r did not print a JSON array: \(text)")
        }
        return array.map { o in
            let rect = o["rect"] as? [String: Any] ?? [:]
            let current = o["current_mode"] as? [String: Any]
            return Output(name: o["name"] as? String ?? "", active: o["active"] as? Bool ?? false,
                          x: rect["x"] as? Int ?? -1, y: rect["y"] as? Int ?? -1,
                          width: rect["width"] as? Int ?? -1, height: rect["height"] as? Int ?? -1,
                          scale: o["scale"] as? Double ?? -1,
                          currentWidth: current?["width"] as? Int, currentHeight: current?["height"] as? Int,
                          currentRefreshMilliHertz: current?["refresh"] as? Int,
                          make: o["make"] as? String ?? "", model: o["model"] as? String ?? "")
        }
    }

    /// Stops the compositor and removes its folder (also done at deinit).
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? runToEnd("/bin/bash", [Self.script, "stop", pid])
    }

    deinit { stop() }
}
