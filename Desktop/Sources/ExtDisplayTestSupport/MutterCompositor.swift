import Foundation

/// A headless Mutter (GNOME's compositor, no GNOME Shell) started by scripts/mutter-headless.sh as an
/// unprivileged user, on a D-Bus session bus of its own: virtual monitors Meta-0, Meta-1, … of the sizes given
/// (default 1920×1080 and 1280×720), laid out left to right, Meta-0 primary. ``displayState()`` reads Mutter's
/// own account (`org.gnome.Mutter.DisplayConfig GetCurrentState` through `busctl --json`), independent of the
/// code under test.
///
/// Starting throws (failing the test, never skipping it) when mutter is missing or does not come up.
public final class MutterCompositor: @unchecked Sendable {
    /// The Wayland socket name (`wayland-0`), relative to ``runtimeDirectory``.
    public let waylandDisplay: String
    /// The compositor's `XDG_RUNTIME_DIR` (readable by the test process; the socket is open to it).
    public let runtimeDirectory: String
    /// The compositor's session bus (`unix:path=…/bus`).
    public let busAddress: String
    /// The pid of the session leader (`dbus-run-session`), what `stop` ends.
    public let pid: String
    /// How long the script took from its start to the compositor answering, seconds.
    public let startupSeconds: Double
    private let lock = NSLock()
    private var stopped = false

    /// What a client of this compositor needs in its environment (no X11: DISPLAY unset).
    public var environment: [String: String?] {
        ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory,
         "DBUS_SESSION_BUS_ADDRESS": busAddress, "DISPLAY": nil, "SDL_VIDEODRIVER": nil]
    }

    private static var script: String { Repository.root.appendingPathComponent("scripts/mutter-headless.sh").path }

    /// Starts a compositor with one virtual monitor per size (`"1280x720"`).
    public init(monitors: [String] = ["1920x1080", "1280x720"]) throws {
        let started = Date()
        let result = try runToEnd("/bin/bash", [Self.script, "start"] + monitors)
        startupSeconds = Date().timeIntervalSince(started)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw SupportError("""
                headless mutter did not start: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) \
                — install mutter (scripts/install-deps.sh)
                """)
        }
        let fields = HeadlessScriptLine.fields(line)
        guard let display = fields["WAYLAND_DISPLAY"], let runtime = fields["XDG_RUNTIME_DIR"],
              let bus = fields["DBUS_SESSION_BUS_ADDRESS"], let pid = fields["PID"] else {
            throw SupportError("mutter-headless.sh printed an unexpected line: \(line)")
        }
        waylandDisplay = display
        runtimeDirectory = runtime
        busAddress = bus
        self.pid = pid
    }

    /// Mutter's log so far (for failure messages).
    public var log: String {
        (try? String(contentsOfFile: runtimeDirectory + "/mutter.log", encoding: .utf8)) ?? ""
    }

    /// A call on the compositor's bus through `busctl --json=short`; the reply's `data` array.
    public func busctl(_ arguments: [String]) throws -> [Any] {
        let result = try runToEnd("/usr/bin/busctl", ["--address=\(busAddress)", "--json=short", "call"] + arguments)
        guard result.status == 0 else {
            throw SupportError("busctl call \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        if result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return [] }
        guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let data = object["data"] as? [Any] else {
            throw SupportError("busctl printed no JSON reply: \(result.stdout)")
        }
        return data
    }

    /// One monitor as Mutter reports it.
    public struct Monitor: Equatable, Sendable {
        /// The connector (`Meta-1`).
        public var connector: String
        /// Every mode as `WxH@HZ` with Mutter's refresh, and which is current.
        public var modes: [String]
        /// The current mode's size.
        public var width: Int, height: Int
        /// Mutter's id of the current mode (`1280x720@60.000`).
        public var modeID: String
        /// The logical monitor's place and scale.
        public var x: Int, y: Int
        /// The logical monitor's scale.
        public var scale: Double
        /// Whether its logical monitor is the primary one.
        public var isPrimary: Bool
        /// Mutter's layout mode: 1 logical (positions and sizes in logical pixels: a scale of 2 halves the
        /// size), 2 physical (in device pixels, the scale changes only what clients draw).
        public var layoutMode: Int
    }

    /// Every monitor with a logical monitor, from `GetCurrentState`.
    public func displayState() throws -> [Monitor] {
        let data = try busctl(["org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig",
                               "org.gnome.Mutter.DisplayConfig", "GetCurrentState"])
        guard data.count == 4, let monitors = data[1] as? [[Any]], let logical = data[2] as? [[Any]] else {
            throw SupportError("GetCurrentState answered \(data)")
        }
        let properties = data[3] as? [String: Any]
        let layoutMode = (properties?["layout-mode"] as? [String: Any])?["data"] as? Int ?? 1
        var result: [Monitor] = []
        for l in logical {
            guard l.count == 7, let x = l[0] as? Int, let y = l[1] as? Int, let scale = l[2] as? Double,
                  let primary = l[4] as? Bool, let specs = l[5] as? [[Any]] else { continue }
            for spec in specs {
                guard let connector = spec.first as? String,
                      let monitor = monitors.first(where: { ($0.first as? [Any])?.first as? String == connector }),
                      let modes = monitor[1] as? [[Any]] else { continue }
                var names: [String] = []
                var size = (0, 0)
                var current = ""
                for mode in modes {
                    guard mode.count == 7, let w = mode[1] as? Int, let h = mode[2] as? Int, let hz = mode[3] as? Double,
                          let flags = mode[6] as? [String: Any] else { continue }
                    names.append("\(w)x\(h)@\(hz)")
                    if ((flags["is-current"] as? [String: Any])?["data"] as? Bool) == true {
                        size = (w, h)
                        current = mode[0] as? String ?? ""
                    }
                }
                result.append(Monitor(connector: connector, modes: names, width: size.0, height: size.1, modeID: current, x: x, y: y,
                                      scale: scale, isPrimary: primary, layoutMode: layoutMode))
            }
        }
        return result
    }

    /// Applies a layout the way GNOME's display settings do, through `ApplyMonitorsConfig` (method 1,
    /// temporary) sent by `busctl`: `primary` becomes the primary monitor, `place` moves monitors, `disabled`
    /// switches monitors off (left out of the layout: their `wl_output` goes away) and `enabled` brings back a
    /// monitor switched off before, at its place in `place` with its preferred (only) mode; `scale` sets scales.
    public func arrange(primary: String, place: [String: (x: Int, y: Int)] = [:], scale: [String: Double] = [:],
                        disabled: Set<String> = [], enabled: [String] = []) throws {
        let state = try displayState()
        let raw = try busctl(["org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig",
                              "org.gnome.Mutter.DisplayConfig", "GetCurrentState"])
        guard let serial = raw.first as? Int, raw.count == 4, let monitors = raw[1] as? [[Any]] else {
            throw SupportError("no serial in \(raw)")
        }
        var layout: [(String, Int, Int, Double, String)] = state.filter { !disabled.contains($0.connector) }.map {
            let at = place[$0.connector] ?? ($0.x, $0.y)
            return ($0.connector, at.x, at.y, scale[$0.connector] ?? $0.scale, $0.modeID)
        }
        for name in enabled {
            guard let monitor = monitors.first(where: { ($0.first as? [Any])?.first as? String == name }),
                  let mode = (monitor[1] as? [[Any]])?.first?.first as? String, let at = place[name] else {
                throw SupportError("cannot enable \(name): no such monitor, or no place given")
            }
            layout.append((name, at.x, at.y, scale[name] ?? 1, mode))
        }
        var arguments = ["org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig",
                         "org.gnome.Mutter.DisplayConfig", "ApplyMonitorsConfig", "uua(iiduba(ssa{sv}))a{sv}",
                         String(serial), "1", String(layout.count)]
        for (connector, x, y, scale, mode) in layout {
            arguments += [String(x), String(y), String(scale), "0", connector == primary ? "true" : "false", "1",
                          connector, mode, "0"]
        }
        arguments.append("0")
        _ = try busctl(arguments)
    }

    /// Reads one frame of a PipeWire stream of this compositor with GStreamer into a PNG (`caps` asks the
    /// producer for a format: a virtual monitor takes its size from it).
    ///
    /// `damage`, when given, is called each `damageEvery` seconds without a frame: Mutter records a monitor only
    /// when it paints it (one repaint is queued as the stream starts), so a frame lost then leaves a static monitor
    /// unrecorded for good — probably the "no frame at all under load" seen twice; a damage makes Mutter paint again.
    private func readFrame(node: UInt32, caps: String? = nil, timeout: Double = 20, damageEvery: Double = 2,
                           damage: (() throws -> Void)? = nil) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("edk-mutter-\(UUID().uuidString).png")
        let gst = "/usr/bin/gst-launch-1.0"
        guard FileManager.default.isExecutableFile(atPath: gst) else {
            throw SupportError("gst-launch-1.0 is not installed: run scripts/install-deps.sh (gstreamer1.0-tools, "
                               + "gstreamer1.0-pipewire)")
        }
        var pipeline = ["-q", "pipewiresrc", "path=\(node)", "num-buffers=1", "!"]
        if let caps { pipeline += [caps, "!"] }
        pipeline += ["videoconvert", "!", "pngenc", "!", "filesink", "location=\(file.path)"]
        let child = try ChildProcess(gst, pipeline, environment: ["XDG_RUNTIME_DIR": runtimeDirectory,
                                                                   "PIPEWIRE_RUNTIME_DIR": runtimeDirectory])
        let deadline = Date().addingTimeInterval(timeout)
        var status = child.exitStatus(timeout: damage == nil ? timeout : min(damageEvery, timeout))
        while status == nil, let damage, Date() < deadline {
            try damage()
            status = child.exitStatus(timeout: max(0, min(damageEvery, deadline.timeIntervalSinceNow)))
        }
        guard let status else {
            child.signal(SIGKILL)
            _ = child.wait()
            throw SupportError("gst-launch-1.0 got no frame of PipeWire node \(node) within \(timeout) s")
        }
        guard status == 0, FileManager.default.fileExists(atPath: file.path) else {
            throw SupportError("gst-launch-1.0 failed (\(status)): \(child.stderr)")
        }
        return file
    }

    /// A screenshot of one monitor as Mutter composites it (a ScreenCast recording of that monitor, one frame).
    /// One attempt: it used to be tried three times, on the belief that WirePlumber may not link the first stream
    /// right after start-up; 18 first screenshots of fresh compositors, 12 of them with three CPU hogs beside, all
    /// came on the first try. A failure says what WirePlumber logged, for the next one to look at.
    public func screenshot(_ connector: String) throws -> URL {
        let cast = try MutterScreenCast(busAddress: busAddress, .monitor(connector))
        defer { cast.stop() }
        let start = Date()
        var damages = 0
        do {
            // The monitor damaged while no frame has come: the pointer moved a pixel and back.
            var pointer: MutterRemoteKeyboard?
            defer { pointer?.close() }
            let frame = try readFrame(node: cast.node, timeout: 30) {
                damages += 1
                if pointer == nil { pointer = try MutterRemoteKeyboard(busAddress: self.busAddress) }
                try pointer?.wigglePointer()
            }
            let took = Date().timeIntervalSince(start)
            if took > 2 {
                print("Mutter screenshot of \(connector) took \(String(format: "%.1f", took)) s"
                      + (damages > 0 ? " (the monitor damaged \(damages) time(s) while no frame came)" : ""))
            }
            return frame
        } catch {
            let wireplumber = (try? String(contentsOfFile: runtimeDirectory + "/wireplumber.log", encoding: .utf8)) ?? ""
            throw SupportError("no screenshot of \(connector): \(error); WirePlumber's log ends: "
                               + wireplumber.split(separator: "\n").suffix(5).joined(separator: " | "))
        }
    }

    /// A standing recording of one window (Mutter's ScreenCast `RecordWindow`, consumed by ``PipeWireFrames``):
    /// the window with the focus now when `id` is nil (see ``MutterScreenCast/Source/window(_:)``). Returns once
    /// PipeWire reports the stream running (``PipeWireFrames/awaitRunning(timeout:)``); its frames come as the
    /// window is drawn. Mutter records a window when the window is damaged: the first frame of a still window may
    /// never come (measured: a share window recorded right after Alt+Tab gave no frame in 30 s in 1 run of 5, and
    /// a pointer moved over the monitor does not help, unlike a monitor's recording), so a test changes what the
    /// window shows before it reads it. Ends with ``MutterWindowRecording/stop()``.
    public func recordWindow(id: UInt64? = nil) throws -> MutterWindowRecording {
        let cast = try MutterScreenCast(busAddress: busAddress, .window(id))
        do {
            let frames = try PipeWireFrames(node: cast.node, runtimeDirectory: runtimeDirectory)
            try frames.awaitRunning()
            return MutterWindowRecording(cast: cast, frames: frames)
        } catch {
            cast.stop()
            throw error
        }
    }

    /// Plugs in a virtual monitor of that size (Mutter's ScreenCast `RecordVirtual`, its stream started by one
    /// frame read); it stays until the returned cast is stopped — an unplug.
    public func plugVirtualMonitor(width: Int, height: Int) throws -> MutterScreenCast {
        let cast = try MutterScreenCast(busAddress: busAddress, .virtual)
        _ = try readFrame(node: cast.node, caps: "video/x-raw,width=\(width),height=\(height)")
        return cast
    }

    /// Stops the compositor and its bus and removes its folder (also done at deinit).
    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first { _ = try? runToEnd("/bin/bash", [Self.script, "stop", pid]) }
    }

    deinit { stop() }
}

/// A window recorded by Mutter (``MutterCompositor/recordWindow(id:)``): the stream and its standing
/// consumer. Mutter ends the stream when the window goes away.
public final class MutterWindowRecording: @unchecked Sendable {
    private let cast: MutterScreenCast
    /// The frames as they come.
    public let frames: PipeWireFrames

    init(cast: MutterScreenCast, frames: PipeWireFrames) {
        self.cast = cast
        self.frames = frames
    }

    /// The newest complete frame; throws when none has come or the consumer ended.
    public func latest() throws -> URL {
        guard let frame = try frames.latest() else { throw SupportError("the window recording has no frame yet") }
        return frame
    }

    /// Ends the consumer and the stream (also at deinit).
    public func stop() {
        frames.stop()
        cast.stop()
    }

    deinit { stop() }
}

extension MutterCompositor {
    /// Whether moving the pointer a pixel and back makes Mutter record a static monitor again: a standing recording
    /// of `connector`, its frame count before and after one wiggle (for the test of the screenshot's damage).
    public func frameAfterWiggle(_ connector: String) throws -> (before: Int, after: Int) {
        let cast = try MutterScreenCast(busAddress: busAddress, .monitor(connector))
        defer { cast.stop() }
        let frames = try PipeWireFrames(node: cast.node, runtimeDirectory: runtimeDirectory)
        defer { frames.stop() }
        _ = try frames.first()
        let before = frames.count
        let pointer = try MutterRemoteKeyboard(busAddress: busAddress)
        defer { pointer.close() }
        try pointer.wigglePointer()
        _ = poll(10, every: 0.05) { frames.count > before }
        return (before, frames.count)
    }
}
