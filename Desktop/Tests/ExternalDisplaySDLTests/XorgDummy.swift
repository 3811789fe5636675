import Foundation
import Testing

/// An Xorg server with the dummy driver, started by scripts/xorg-dummy.sh: DUMMY0 1920×1080 (main) and
/// DUMMY1 1280×720 right of it, DUMMY2 warmed up for hotplug. Stopped by its pid.
final class XorgDummy: @unchecked Sendable {
    let display: String
    let pid: String
    private var stopped = false

    /// Starts a server; throws (failing the test) when Xorg cannot start — absence is an error, not a skip.
    init() throws {
        let script = packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path
        let result = try run("/bin/bash", [script, "start"])
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw TestFailure("""
                Xorg with the dummy driver did not start (\(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))) \
                — run scripts/install-deps.sh (xserver-xorg-core, xserver-xorg-video-dummy) as root
                """)
        }
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
        }
        guard let display = fields["DISPLAY"], let pid = fields["PID"] else {
            throw TestFailure("xorg-dummy.sh printed an unexpected line: \(line)")
        }
        self.display = display
        self.pid = pid
    }

    /// Runs `xrandr ARGS` on this server.
    @discardableResult
    func xrandr(_ arguments: String...) throws -> CommandResult {
        let result = try run("/usr/bin/xrandr", arguments, environment: ["DISPLAY": display])
        if result.status != 0 { throw TestFailure("xrandr \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
        return result
    }

    /// The current mode of an output as `"1280x720"`, from `xrandr`'s output line (`nil` when off).
    func currentMode(_ output: String) throws -> String? {
        let text = try xrandr().stdout
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("\(output) connected") }) else {
            return nil
        }
        let geometry = line.split(separator: " ").first { $0.contains("+") && $0.contains("x") }
        return geometry.map { String($0.split(separator: "+")[0]) }
    }

    /// Where an output is on the root window and how big, `[x, y, width, height]`, from `xrandr`'s output line
    /// (`DUMMY1 connected 1280x720+1920+0 …`); `nil` when it is off. The dummy driver calls a warmed-up output
    /// "disconnected" even while its CRTC scans out (`DUMMY2 disconnected 1280x720+3200+0`): the geometry is
    /// what says it is on.
    func outputGeometry(_ output: String) throws -> [Int]? {
        let text = try xrandr("--current").stdout
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("\(output) ") }),
              let geometry = line.split(separator: " ").first(where: { $0.contains("+") && $0.contains("x") })
        else { return nil }
        let parts = geometry.split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
        guard parts.count == 4 else { return nil }
        return [parts[2], parts[3], parts[0], parts[1]]
    }

    /// A window's absolute position and size, `[x, y, width, height]`, from `xwininfo -id`.
    func windowGeometry(_ window: UInt) throws -> [Int] {
        let result = try run("/usr/bin/xwininfo", ["-id", String(window)], environment: ["DISPLAY": display])
        guard result.status == 0 else { throw TestFailure("xwininfo -id \(window) failed: \(result.stderr)") }
        func value(_ key: String) -> Int {
            let line = result.stdout.split(separator: "\n").first { $0.contains(key) } ?? ""
            return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        }
        return [value("Absolute upper-left X"), value("Absolute upper-left Y"), value("Width"), value("Height")]
    }

    /// How many top-level windows the root window has.
    func rootChildCount() throws -> Int {
        let result = try run("/usr/bin/xwininfo", ["-root", "-children"], environment: ["DISPLAY": display])
        guard result.status == 0 else { throw TestFailure("xwininfo -root -children failed: \(result.stderr)") }
        let line = result.stdout.split(separator: "\n").first { $0.contains("child") } ?? ""
        return Int(line.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? run("/bin/bash", [packageRoot.appendingPathComponent("scripts/xorg-dummy.sh").path, "stop", pid])
    }

    deinit { stop() }
}
