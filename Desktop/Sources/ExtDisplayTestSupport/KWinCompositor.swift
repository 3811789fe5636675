import Foundation

/// A headless KWin (KDE Plasma's compositor) started by scripts/kwin-headless.sh as an unprivileged user:
/// `kwin_wayland --virtual --output-count N`, outputs Virtual-0, Virtual-1, … of 1024×768 side by side.
/// ``outputs()`` reads `wayland-info` (libwayland's own client, apart from the code under test).
///
/// Starting throws (failing the test, never skipping it) when kwin_wayland is missing or does not come up.
public final class KWinCompositor: @unchecked Sendable {
    /// The Wayland socket name (`wayland-0`), relative to ``runtimeDirectory``.
    public let waylandDisplay: String
    /// The compositor's `XDG_RUNTIME_DIR`.
    public let runtimeDirectory: String
    /// The compositor's process id.
    public let pid: String
    private let lock = NSLock()
    private var stopped = false

    /// What a client of this compositor needs (no X11, no session bus).
    public var environment: [String: String?] {
        ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory, "DISPLAY": nil,
         "DBUS_SESSION_BUS_ADDRESS": nil, "SDL_VIDEODRIVER": nil]
    }

    private static var script: String { Repository.root.appendingPathComponent("scripts/kwin-headless.sh").path }

    /// Starts a compositor with `outputs` virtual outputs.
    public init(outputs: Int = 2) throws {
        let result = try runToEnd("/bin/bash", [Self.script, "start", String(outputs)])
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw SupportError("""
                headless kwin did not start: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) \
                — install kwin-wayland (scripts/install-deps.sh)
                """)
        }
        let fields = HeadlessScriptLine.fields(line)
        guard let display = fields["WAYLAND_DISPLAY"], let runtime = fields["XDG_RUNTIME_DIR"], let pid = fields["PID"] else {
            throw SupportError("kwin-headless.sh printed an unexpected line: \(line)")
        }
        waylandDisplay = display
        runtimeDirectory = runtime
        self.pid = pid
    }

    /// One output as `wayland-info` shows it.
    public struct Output: Equatable, Sendable {
        /// The output name (`Virtual-1`).
        public var name: String
        /// The xdg-output logical rectangle.
        public var x: Int, y: Int, width: Int, height: Int
        /// The current mode's size and refresh (mHz).
        public var modeWidth: Int, modeHeight: Int, milliHertz: Int
        /// The integer scale.
        public var scale: Int
    }

    /// Every output, from `wayland-info`: the `wl_output` sections (name, scale, current mode) and the
    /// `xdg_output_v1` ones (logical place and size).
    public func outputs() throws -> [Output] {
        let result = try runToEnd("/usr/bin/wayland-info", [], environment: environment)
        guard result.status == 0 else { throw SupportError("wayland-info failed: \(result.stderr)") }
        func numbers(_ line: String) -> [Int] {
            line.split(whereSeparator: { !"-0123456789.".contains($0) }).compactMap { Double($0) }.map { Int(($0 * 1000).rounded()) }
        }
        var logical: [String: (Int, Int, Int, Int)] = [:]
        var outputs: [Output] = []
        var xdgName: String?
        var position: (Int, Int)?
        var current: Output?
        for raw in result.stdout.split(separator: "\n").map(String.init) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("interface: ") {
                if let output = current { outputs.append(output) }
                current = line.contains("'wl_output'") ? Output(name: "", x: 0, y: 0, width: 0, height: 0, modeWidth: 0,
                                                                 modeHeight: 0, milliHertz: 0, scale: 1) : nil
            } else if line.hasPrefix("name: '") {
                xdgName = String(line.dropFirst(7).dropLast())
            } else if line.hasPrefix("logical_x: ") {
                let n = numbers(line).map { $0 / 1000 }
                if n.count == 2 { position = (n[0], n[1]) }
            } else if line.hasPrefix("logical_width: "), let name = xdgName, let at = position {
                let n = numbers(line).map { $0 / 1000 }
                if n.count == 2 { logical[name] = (at.0, at.1, n[0], n[1]) }
            } else if current != nil, line.hasPrefix("name: ") {
                current?.name = String(line.dropFirst(6))
            } else if current != nil, line.hasPrefix("x: "), let scale = numbers(line).last {
                current?.scale = scale / 1000
            } else if current != nil, line.hasPrefix("width: ") {
                let n = numbers(line)
                if n.count == 3 {
                    current?.modeWidth = n[0] / 1000
                    current?.modeHeight = n[1] / 1000
                    current?.milliHertz = n[2]
                }
            }
        }
        if let output = current { outputs.append(output) }
        return outputs.map { output in
            var output = output
            if let rect = logical[output.name] { (output.x, output.y, output.width, output.height) = rect }
            return output
        }
    }

    /// Stops the compositor and removes its folder (also at deinit).
    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first { _ = try? runToEnd("/bin/bash", [Self.script, "stop", pid]) }
    }

    deinit { stop() }
}
