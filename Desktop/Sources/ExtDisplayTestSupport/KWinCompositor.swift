import CSDBus
import Foundation

/// A headless KWin (KDE Plasma's compositor) started by scripts/kwin-headless.sh as an unprivileged user on a
/// D-Bus session bus of its own: `kwin_wayland --virtual --output-count N`, outputs Virtual-0, Virtual-1, … of one
/// size (default 1024×768) side by side. ``outputs()`` reads `wayland-info` (libwayland's own client, apart from
/// the code under test); ``type(_:holding:)`` types through KDE's fake-input protocol (kwin-test-client, run as
/// KWin's user); ``screenshot(_:)`` is KWin's own capture (``KWinScreenShot``) and ``windows()`` KWin's own
/// account of its windows (a KWin script).
///
/// Starting returns once KWin's screenshot service `org.kde.KWin.ScreenShot2` is on its bus (see
/// ``init(outputs:size:)``); it throws (failing the test, never skipping it) when kwin_wayland is missing or does not
/// come up.
public final class KWinCompositor: @unchecked Sendable {
    /// The Wayland socket name (`wayland-0`), relative to ``runtimeDirectory``.
    public let waylandDisplay: String
    /// The compositor's `XDG_RUNTIME_DIR`.
    public let runtimeDirectory: String
    /// The compositor's session bus (`unix:path=…/bus`).
    public let busAddress: String
    /// The pid of the session leader (`dbus-run-session`), what `stop` ends.
    public let pid: String
    /// How long the script took from its start to the compositor answering, seconds.
    public let startupSeconds: Double
    private let lock = NSLock()
    private var stopped = false

    /// What a client of this compositor needs (no X11).
    public var environment: [String: String?] {
        ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory, "DISPLAY": nil,
         "DBUS_SESSION_BUS_ADDRESS": busAddress, "SDL_VIDEODRIVER": nil]
    }

    private static var script: String { Repository.root.appendingPathComponent("scripts/kwin-headless.sh").path }

    /// The bus name KWin's screenshot effect owns once it has loaded: the last thing a test needs from KWin's start.
    public static let screenShotService = "org.kde.KWin.ScreenShot2"

    /// Starts a compositor with `outputs` virtual outputs of `size` (`"1280x720"`) each, and returns once its
    /// screenshot service is there. kwin-headless.sh returns when KWin's scene is up (its log names OpenGL or
    /// QPainter), but KWin loads its effects after that, one per turn of its event loop, and
    /// `org.kde.KWin.ScreenShot2` belongs to the screenshot effect: measured here, the name was still missing when
    /// the script returned in 2 of 3 starts, and came 40–90 ms later. So this waits (at most `serviceTimeout`
    /// seconds, a hang guard) for the name's owner, told by the bus's `NameOwnerChanged`; the effect registers
    /// its object before it asks for the name, so the interface answers once the name has an owner.
    public init(outputs: Int = 2, size: String = "1024x768", serviceTimeout: Double = 20) throws {
        let started = Date()
        let result = try runToEnd("/bin/bash", [Self.script, "start", String(outputs), size])
        startupSeconds = Date().timeIntervalSince(started)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw SupportError("""
                headless kwin did not start: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) \
                — install kwin-wayland (scripts/install-deps.sh)
                """)
        }
        let fields = HeadlessScriptLine.fields(line)
        guard let display = fields["WAYLAND_DISPLAY"], let runtime = fields["XDG_RUNTIME_DIR"],
              let bus = fields["DBUS_SESSION_BUS_ADDRESS"], let pid = fields["PID"] else {
            throw SupportError("kwin-headless.sh printed an unexpected line: \(line)")
        }
        waylandDisplay = display
        runtimeDirectory = runtime
        busAddress = bus
        self.pid = pid
        do {
            try Self.waitForOwner(of: Self.screenShotService, busAddress: bus, timeout: serviceTimeout)
        } catch {
            let tail = log.split(separator: "\n").suffix(5).joined(separator: " | ")
            stop()
            throw SupportError("headless kwin started, but \(error) (the screenshot effect did not load; kwin.log ends: \(tail))")
        }
    }

    /// Waits until `name` has an owner on the bus at `busAddress`: a match on the bus's `NameOwnerChanged` for it,
    /// then `NameHasOwner` (a name taken before the match was in place), then the signal; throws after `timeout`
    /// seconds.
    static func waitForOwner(of name: String, busAddress: String, timeout: Double) throws {
        let bus = try MutterBusCall.open(busAddress)
        defer { sd_bus_flush_close_unref(bus) }
        final class Appeared: @unchecked Sendable { var owned = false }
        let appeared = Appeared()
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
        var slot: OpaquePointer?
        let context = Unmanaged.passUnretained(appeared).toOpaque()
        let added = sd_bus_add_match(bus, &slot, rule, { message, context, _ in
            guard let message, let context else { return 0 }
            var name: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
            let s = CChar(UInt8(ascii: "s"))
            if sd_bus_message_read_basic(message, s, &name) > 0, sd_bus_message_read_basic(message, s, &old) > 0,
               sd_bus_message_read_basic(message, s, &new) > 0, let new, new.pointee != 0 {
                Unmanaged<Appeared>.fromOpaque(context).takeUnretainedValue().owned = true
            }
            return 0
        }, context)
        guard added >= 0, let slot else {
            throw SupportError("cannot watch \(busAddress) for \(name): \(String(cString: strerror(-added)))")
        }
        defer { sd_bus_slot_unref(slot) }
        let reply = try MutterBusCall.call(bus, service: "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                           "NameHasOwner", timeoutMicroseconds: UInt64(timeout * 1e6)) { message in
            name.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        }
        var owned: Int32 = 0
        _ = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &owned)
        sd_bus_message_unref(reply)
        if owned != 0 { return }
        let deadline = Date().addingTimeInterval(timeout)
        while !appeared.owned {
            let processed = sd_bus_process(bus, nil)
            guard processed >= 0 else {
                throw SupportError("the bus \(busAddress) went away while waiting for \(name): \(String(cString: strerror(-processed)))")
            }
            if processed > 0 || appeared.owned { continue }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw SupportError("\(name) never appeared on its bus within \(timeout) s") }
            _ = sd_bus_wait(bus, UInt64(left * 1e6))
        }
    }

    /// KWin's log so far (for failure messages).
    public var log: String {
        (try? String(contentsOfFile: runtimeDirectory + "/kwin.log", encoding: .utf8)) ?? ""
    }

    /// Types each key (with `modifier` held around it when given) through `org_kde_kwin_fake_input`. Returns once
    /// KWin has read every key.
    public func type(_ keys: EvdevKey..., holding modifier: EvdevKey? = nil) throws {
        let chords = keys.map { key in ([modifier].compactMap { $0 } + [key]).map { String($0.rawValue) }.joined(separator: "+") }
        try testClient(["keys"] + chords)
    }

    /// Moves the pointer to (x, y) in KWin's global space (fake-input `pointer_motion_absolute`). The first fake
    /// input gives KWin's seat a pointer, and the virtual backend then draws its software cursor at the pointer's
    /// place within every output (measured: a 26×26 white square on Virtual-1 at Virtual-0's pointer position), so
    /// the tests park it over the audience view, where the presenter hides it.
    public func movePointer(x: Int, y: Int) throws {
        try testClient(["pointer", String(x), String(y)])
    }

    /// One window as KWin itself describes it.
    public struct Window: Equatable, Sendable {
        /// The window's title.
        public var caption: String
        /// Its frame on KWin's global (logical) space.
        public var x: Int, y: Int, width: Int, height: Int
        /// Whether it has the focus (KWin's active window).
        public var active: Bool
        /// Whether it is fullscreen.
        public var fullScreen: Bool
    }

    /// Every client window, from KWin itself: a KWin script (see ``script(_:)``) prints `workspace.clientList()`.
    public func windows() throws -> [Window] {
        try script("""
        var cs = workspace.clientList();
        for (var i = 0; i < cs.length; i++) {
            var c = cs[i], g = c.frameGeometry;
            say(c.caption + "\\t" + g.x + "\\t" + g.y + "\\t" + g.width + "\\t" + g.height + "\\t" + c.active + "\\t" + c.fullScreen);
        }
        """).compactMap { f in
            guard f.count == 7, let x = Double(f[1]), let y = Double(f[2]), let w = Double(f[3]), let h = Double(f[4]) else {
                return nil
            }
            return Window(caption: f[0], x: Int(x), y: Int(y), width: Int(w), height: Int(h), active: f[5] == "true",
                          fullScreen: f[6] == "true")
        }
    }

    /// Runs `body` as a KWin script (loaded through `org.kde.kwin.Scripting` with `busctl`, then unloaded): the
    /// script's `say(text)` lines come back, split at tabs, read from KWin's log (KWin's `print` writes there).
    /// Throws when the script does not finish within 10 s (a hang guard), with what KWin logged.
    public func script(_ body: String) throws -> [[String]] {
        let marker = "edk-\(UUID().uuidString)"
        let file = runtimeDirectory + "/\(marker).js"
        try """
        function say(text) { print("\(marker)\\t" + text); }
        \(body)
        print("\(marker)\\tend");
        """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let base = ["--address=\(busAddress)", "call", "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting"]
        for call in [["loadScript", "ss", file, marker], ["start"]] {
            let result = try runToEnd("/usr/bin/busctl", base + call)
            guard result.status == 0 else { throw SupportError("KWin scripting \(call[0]) failed: \(result.stderr)") }
        }
        defer { _ = try? runToEnd("/usr/bin/busctl", base + ["unloadScript", "s", marker]) }
        var lines: [[String]] = []
        guard poll(10, every: 0.02, {
            lines = log.split(separator: "\n").compactMap { line in
                guard let start = line.range(of: marker + "\t") else { return nil }
                return line[start.upperBound...].components(separatedBy: "\t")
            }
            return lines.last == ["end"]
        }) else { throw SupportError("KWin's script did not finish: \(log.suffix(500))") }
        return Array(lines.dropLast())
    }

    /// The script expression of the client window whose caption contains `caption` (JavaScript-quoted).
    private func find(_ caption: String) -> String {
        let quoted = caption.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "(function () { var all = workspace.clientList(), found = []; for (var i = 0; i < all.length; i++) "
            + "{ if (all[i].caption.indexOf(\"\(quoted)\") >= 0) found.push(all[i]); } return found; })()"
    }

    /// Runs `statement` on the one window whose caption contains `caption` (as `c`) and returns what it `say`s;
    /// throws when no window or more than one has such a caption.
    private func onWindow(_ caption: String, _ statement: String) throws -> [[String]] {
        let lines = try script("""
        var found = \(find(caption));
        if (found.length != 1) { say("count\\t" + found.length); } else { var c = found[0]; \(statement) }
        """)
        if let count = lines.first, count.first == "count" {
            throw SupportError("\(count.last ?? "?") windows have \"\(caption)\" in their caption: \((try? windows()) ?? [])")
        }
        return lines
    }

    /// KWin's handle of the window whose caption contains `caption`: its internal id (a UUID in braces), what
    /// `org.kde.KWin.ScreenShot2 CaptureWindow` takes.
    public func windowHandle(_ caption: String) throws -> String {
        guard let handle = try onWindow(caption, "say(\"id\\t\" + c.internalId);").first?.last, handle.hasPrefix("{") else {
            throw SupportError("KWin gave no internal id for \"\(caption)\"")
        }
        return handle
    }

    /// A window's state as KWin holds it: minimised, on which virtual desktop (1-based; -1 on all), the active one.
    public struct WindowState: Equatable, Sendable {
        /// Whether it is minimised.
        public var minimized: Bool
        /// Its virtual desktop (1-based; -1: on all of them).
        public var desktop: Int
        /// KWin's current virtual desktop.
        public var currentDesktop: Int
        /// Whether it has the focus.
        public var active: Bool
    }

    /// The state of the window whose caption contains `caption`.
    public func state(_ caption: String) throws -> WindowState {
        let lines = try onWindow(caption, """
        say("state\\t" + c.minimized + "\\t" + c.desktop + "\\t" + workspace.currentDesktop + "\\t" + c.active);
        """)
        guard let f = lines.first, f.count == 5, let desktop = Int(f[2]), let current = Int(f[3]) else {
            throw SupportError("KWin's script said \(lines) about \"\(caption)\"")
        }
        return WindowState(minimized: f[1] == "true", desktop: desktop, currentDesktop: current, active: f[4] == "true")
    }

    /// Minimises (or restores) the window whose caption contains `caption`, as its title bar's button would.
    public func setMinimized(_ caption: String, _ minimized: Bool) throws {
        _ = try onWindow(caption, "c.minimized = \(minimized);")
    }

    /// Makes the window whose caption contains `caption` the active one (KWin raises it and gives it the focus).
    public func activate(_ caption: String) throws {
        _ = try onWindow(caption, "workspace.activeClient = c;")
    }

    /// Gives KWin `count` virtual desktops (the headless KWin starts with one).
    public func setDesktopCount(_ count: Int) throws {
        _ = try script("workspace.desktops = \(count);")
    }

    /// Puts the window whose caption contains `caption` on virtual desktop `desktop` (1-based), leaving the
    /// current desktop as it is.
    public func moveToDesktop(_ caption: String, _ desktop: Int) throws {
        _ = try onWindow(caption, "c.desktop = \(desktop);")
    }

    /// Switches KWin to virtual desktop `desktop` (1-based).
    public func switchToDesktop(_ desktop: Int) throws {
        _ = try script("workspace.currentDesktop = \(desktop);")
    }

    /// Puts the window whose caption is exactly `cover` (the empty title of a ``CoverWindow``) over the window
    /// whose caption contains `target`: on its desktop, its top-left corner at the target's, kept above other
    /// windows (KWin's "keep above"), then gives `focus`'s window the focus back. Returns the cover's frame.
    public func cover(_ target: String, with cover: String, focus: String) throws -> Window {
        let lines = try onWindow(target, """
        var all = workspace.clientList(), covers = [];
        for (var i = 0; i < all.length; i++) { if (all[i].caption == "\(cover)") covers.push(all[i]); }
        if (covers.length != 1) { say("covers\\t" + covers.length); } else {
            var k = covers[0], g = c.frameGeometry, kg = k.frameGeometry;
            k.desktop = c.desktop;
            k.keepAbove = true;
            k.frameGeometry = { x: g.x, y: g.y, width: kg.width, height: kg.height };
            var n = k.frameGeometry;
            say("cover\\t" + n.x + "\\t" + n.y + "\\t" + n.width + "\\t" + n.height);
        }
        """)
        guard let f = lines.first, f.count == 5, f[0] == "cover", let x = Double(f[1]), let y = Double(f[2]),
              let w = Double(f[3]), let h = Double(f[4]) else {
            throw SupportError("KWin could not put \"\(cover)\" over \"\(target)\": \(lines)")
        }
        try activate(focus)
        return Window(caption: cover, x: Int(x), y: Int(y), width: Int(w), height: Int(h), active: false, fullScreen: false)
    }

    /// The captions of the client windows bottom to top (each window's `stackingOrder`) that are shown now: on
    /// the current desktop (or all), not minimised.
    public func shownStack() throws -> [String] {
        try script("""
        var cs = workspace.clientList();
        for (var i = 0; i < cs.length; i++) {
            var c = cs[i];
            if (!c.minimized && (c.desktop == -1 || c.desktop == workspace.currentDesktop)) say(c.stackingOrder + "\\t" + c.caption);
        }
        """).compactMap { f in f.count >= 2 ? Int(f[0]).map { ($0, f.dropFirst().joined(separator: "\t")) } : nil }
            .sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// A PNG of one window as KWin draws it (`org.kde.KWin.ScreenShot2 CaptureWindow` with the handle from
    /// ``windowHandle(_:)``), whatever covers it.
    public func screenshot(window handle: String) throws -> URL {
        try KWinScreenShot.capture(busAddress: busAddress, window: handle)
    }

    /// Switches output `name` on or off through `kde_output_management_v2`, as Plasma's display settings do: off,
    /// its `wl_output` goes away (an unplug, as clients see it); on again, it comes back. Returns once KWin has
    /// applied it.
    public func setOutput(_ name: String, enabled: Bool) throws {
        try testClient(["output", name, enabled ? "enable" : "disable"])
    }

    /// Runs kwin-test-client as KWin's own user: KWin offers fake-input only to a client whose executable it can
    /// read (with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1), which a root process's is not. The client is copied into
    /// the compositor's folder, where that user may run it.
    private func testClient(_ arguments: [String]) throws {
        let client = try installedTestClient()
        var command = ["/usr/bin/env", "WAYLAND_DISPLAY=\(waylandDisplay)", "XDG_RUNTIME_DIR=\(runtimeDirectory)",
                       client] + arguments
        let owner = try FileManager.default.attributesOfItem(atPath: runtimeDirectory)[.ownerAccountName] as? String
        if let owner, owner != NSUserName() { command = ["/usr/sbin/runuser", "-u", owner, "--"] + command }
        let result = try runToEnd(command[0], Array(command.dropFirst()))
        guard result.status == 0 else {
            throw SupportError("kwin-test-client \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }

    private func installedTestClient() throws -> String {
        let copy = runtimeDirectory + "/kwin-test-client"
        if FileManager.default.isExecutableFile(atPath: copy) { return copy }
        let nextToTests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("kwin-test-client").path
        let candidates = [nextToTests, Repository.desktop.appendingPathComponent(".build/debug/kwin-test-client").path]
        guard let built = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw SupportError("kwin-test-client is not built (looked at \(candidates.joined(separator: ", "))): "
                               + "run `swift build --build-tests` in Desktop/")
        }
        // Copied by `cp` in a child of its own: the only descriptor open for writing on the copy is cp's, closed
        // when it exits, so no child another test starts meanwhile can inherit it (and make running the copy fail
        // with "Text file busy").
        let copied = try runToEnd("/bin/cp", [built, copy])
        guard copied.status == 0 else {
            throw SupportError("could not copy kwin-test-client to \(copy): \(copied.stderr)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
        return copy
    }

    /// A PNG of one output as KWin composites it (`org.kde.KWin.ScreenShot2 CaptureScreen`).
    public func screenshot(_ output: String) throws -> URL {
        try KWinScreenShot.capture(busAddress: busAddress, output: output)
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
