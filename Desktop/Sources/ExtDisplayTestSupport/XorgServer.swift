import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An Xorg server with the dummy driver, started and stopped with scripts/xorg-dummy.sh: DUMMY0 1920×1080 (main)
/// and DUMMY1 1280×720 right of it, DUMMY2 warmed up for hotplug. Stopped by its pid with ``stop()`` (also at
/// deinit). The one X harness of the tests: `extdisplay` runs on it as a child, SDL and the desktop platform in
/// the test process.
public final class XorgServer: @unchecked Sendable {
    /// The server's display (`:N`).
    public let display: String
    /// The server's process id.
    public let pid: String
    /// The directory of its configuration and log (and of the pen's and touch screen's sockets with `pen`).
    public let directory: String
    private let lock = NSLock()
    private var stopped = false

    /// The audience window's name: the presenter's own SDL window or the desktop platform's.
    public static let audienceWindow = "extdisplay present: audience|ExternalDisplayKit: "

    private init(display: String, pid: String, directory: String) {
        self.display = display
        self.pid = pid
        self.directory = directory
    }

    /// Whether everything the tests need is here (kept for other suites; these tests never skip on it).
    public static var isAvailable: Bool { missingRequirements.isEmpty }

    /// What is missing to run the tests under Xorg-dummy, each with what to do about it.
    public static var missingRequirements: [String] {
        var missing = ["Xorg", "xrandr", "xdotool", "xwininfo", "xsetroot", "python3"].filter { !Shell.has($0) }
            .map { "\($0) (run scripts/install-deps.sh)" }
        if getuid() != 0 { missing.append("root (Xorg with the dummy driver is started as root here)") }
        return missing
    }

    /// Runs `body` (which makes SDL's first window in this process) with `DISPLAY` pointing at this server and
    /// `SDL_VIDEODRIVER` set to x11, and puts both back afterwards: SDL opens `$DISPLAY` when its first window is
    /// made, and other suites in this process may read the environment.
    public func openingSDL<T>(_ body: () throws -> T) rethrows -> T {
        let saved = ["DISPLAY", "SDL_VIDEODRIVER"].map { name in (name, ProcessInfo.processInfo.environment[name]) }
        setenv("DISPLAY", display, 1)
        setenv("SDL_VIDEODRIVER", "x11", 1)
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        return try body()
    }

    /// Starts a server; throws (failing the test, never skipping it) when something it needs is missing. With
    /// `pen`, it also has a pen tablet and a touch screen of Xorg's test input driver (``XorgTestInput``).
    public static func start(pen: Bool = false) throws -> XorgServer {
        let missing = missingRequirements
        guard missing.isEmpty else { throw XorgTestError("cannot start Xorg-dummy; missing: \(missing.joined(separator: ", "))") }
        let started = try runToEnd("/bin/bash", [Repository.script("xorg-dummy.sh"), "start"] + (pen ? ["--pen"] : []))
        guard started.status == 0 else {
            throw XorgTestError("scripts/xorg-dummy.sh start failed (status \(started.status)): \(started.stdout) "
                                + "\(started.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) — run scripts/install-deps.sh "
                                + "(xserver-xorg-core, xserver-xorg-video-dummy) as root")
        }
        var fields: [String: String] = [:]
        for pair in started.stdout.split(whereSeparator: \.isWhitespace) {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { fields[kv[0]] = kv[1] }
        }
        guard let display = fields["DISPLAY"], let pid = fields["PID"], let directory = fields["DIR"] else {
            throw XorgTestError("scripts/xorg-dummy.sh start printed: \(started.stdout)")
        }
        return XorgServer(display: display, pid: pid, directory: directory)
    }

    /// Stops the server (once; also done at deinit).
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        _ = try? runToEnd("/bin/bash", [Repository.script("xorg-dummy.sh"), "stop", pid])
    }

    deinit { stop() }

    /// Runs a command on this server; throws when it fails. Returns its standard output.
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let result = try runToEnd(arguments[0], Array(arguments.dropFirst()), environment: ["DISPLAY": display])
        guard result.status == 0 else {
            throw XorgTestError("\(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.stdout) \(result.stderr)")
        }
        return result.stdout
    }

    /// Runs xrandr on this server; throws when it fails. Returns its standard output.
    @discardableResult
    public func xrandr(_ arguments: [String]) throws -> String { try run(["xrandr"] + arguments) }

    /// Runs `xrandr ARGS` on this server (see ``xrandr(_:)-([String])``).
    @discardableResult
    public func xrandr(_ arguments: String...) throws -> String { try xrandr(arguments) }

    /// The mode in force on each output: `DUMMY1 1280x720+1920+0 60.00`.
    public func currentModes() throws -> [String] {
        var out: [String] = [], output = ""
        for line in try xrandr(["--current"]).split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            // An output's own line is not indented; the dummy driver calls a warmed-up output "disconnected"
            // even while its CRTC scans out, so its geometry, not the word, says whether it is on.
            if !line.hasPrefix(" "), line.contains("connected") {
                output = words[0] + " " + (words.first { $0.contains("+") && $0.contains("x") } ?? "off")
            } else if let rate = words.first(where: { $0.contains("*") }) {
                out.append(output + " " + rate.filter { $0.isNumber || $0 == "." })
                output = ""
            }
        }
        return out
    }

    /// The current mode of a connected output as `"1280x720"`, from `xrandr`'s output line (`nil` when off).
    public func currentMode(_ output: String) throws -> String? {
        guard let line = try xrandr([]).split(separator: "\n").first(where: { $0.hasPrefix("\(output) connected") }) else {
            return nil
        }
        let geometry = line.split(separator: " ").first { $0.contains("+") && $0.contains("x") }
        return geometry.map { String($0.split(separator: "+")[0]) }
    }

    /// Where an output is on the root window and how big, `[x, y, width, height]`, from `xrandr`'s output line
    /// (`DUMMY1 connected 1280x720+1920+0 …`); `nil` when it is off. The dummy driver calls a warmed-up output
    /// "disconnected" even while its CRTC scans out (`DUMMY2 disconnected 1280x720+3200+0`): the geometry is
    /// what says it is on.
    public func outputGeometry(_ output: String) throws -> [Int]? {
        guard let line = try xrandr(["--current"]).split(separator: "\n").first(where: { $0.hasPrefix("\(output) ") }),
              let geometry = line.split(separator: " ").first(where: { $0.contains("+") && $0.contains("x") })
        else { return nil }
        let parts = geometry.split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
        guard parts.count == 4 else { return nil }
        return [parts[2], parts[3], parts[0], parts[1]]
    }

    /// A window's absolute position and size, `[x, y, width, height]`, from `xwininfo -id`.
    public func windowGeometry(_ window: UInt) throws -> [Int] {
        let text = try run(["xwininfo", "-id", String(window)])
        func value(_ key: String) -> Int {
            let line = text.split(separator: "\n").first { $0.contains(key) } ?? ""
            return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        }
        return [value("Absolute upper-left X"), value("Absolute upper-left Y"), value("Width"), value("Height")]
    }

    /// Whether a window is mapped and viewable (`xwininfo -id`'s map state is `IsViewable`).
    public func isViewable(_ window: UInt) throws -> Bool {
        try run(["xwininfo", "-id", String(window)]).contains("Map State: IsViewable")
    }

    /// How many top-level windows the root window has.
    public func rootChildCount() throws -> Int {
        let line = try run(["xwininfo", "-root", "-children"]).split(separator: "\n").first { $0.contains("child") } ?? ""
        return Int(line.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
    }

    /// Polls (hang guard: 30 s) until a window of that name exists.
    public func waitForWindow(_ name: String) throws {
        let found = try poll(30, every: 0.1) {
            try Shell.run(["xdotool", "search", "--name", name], environment: ["DISPLAY": display]).status == 0
        }
        guard found else { throw XorgTestError("no window named '\(name)' appeared") }
    }

    /// Focuses the console window and types a key there.
    public func key(_ key: String) throws { try keys(key) }

    /// Focuses the console window and types the keys there back to back, in one `xdotool key` (Q Q within the quit
    /// window however loaded the machine is: two separate calls took over 2 s apart under load).
    public func keys(_ keys: String...) throws {
        let env = ["DISPLAY": display]
        let window = try Shell.run(["xdotool", "search", "--name", "extdisplay present: console"], environment: env)
            .output.split(separator: "\n").first.map(String.init) ?? ""
        guard !window.isEmpty else { throw XorgTestError("no console window to type \(keys.joined(separator: " ")) into") }
        for command in [["xdotool", "windowfocus", "--sync", window], ["xdotool", "key"] + keys] {
            let result = try Shell.run(command, environment: env)
            guard result.status == 0 else { throw XorgTestError("\(command.joined(separator: " ")) failed") }
        }
    }

    /// A root screenshot (a window dump, read with the server grabbed: ``RootCapture``) in a temporary file, which
    /// the caller removes.
    public func screenshot() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("present-\(UUID().uuidString).xwd")
        // Read with the server grabbed: a screen reconfigured meanwhile (an output switched on or off) cannot make
        // the size read and the image taken disagree, as it could with `xwd -root`.
        try RootCapture.write(display: display, to: file)
        return file
    }

    /// Root screenshots until `condition` holds on one, for at most `timeout` seconds (a hang guard, not a
    /// speed requirement); returns the last one either way, for the caller's assertions to judge.
    public func screenshot(timeout: Double = 30, until condition: (URL) throws -> Bool) throws -> URL {
        var rejected: URL?
        return try pollReading(timeout, every: 0.1, {
            if let rejected { try? FileManager.default.removeItem(at: rejected) }
            let shot = try screenshot()
            rejected = shot
            return shot
        }, until: condition)
    }

    /// The root window now, decoded.
    public func captureRoot() throws -> XWDImage {
        let file = try screenshot()
        defer { try? FileManager.default.removeItem(at: file) }
        return try XWDImage(file)
    }
}
