import Foundation

/// A sway nested inside a headless sway (its wayland backend: each output is a window of the parent), so an
/// output can really be unplugged: sway 1.7's headless backend cannot switch an output off (`output … disable`
/// fails to commit: "Unsupported output state fields") and has no `unplug` (sway 1.9+), but closing the
/// parent's window of a nested output destroys that output and its `wl_output` global. `create_output` plugs a
/// new one; the wayland backend never reuses a name (WL-1, WL-2, then WL-3).
///
/// Outputs: WL-1 1280×720 at (0,0) (the console's) and WL-2 1280×720 at (1280,0).
final class NestedSway {
    /// The parent compositor.
    let parent: SwayCompositor
    /// The nested compositor's runtime folder (holds its socket `wayland-1` and `sway-ipc.sock`).
    let runtime: String
    private let process: Spawned
    private var stopped = false

    /// Clients of the nested compositor.
    var client: WaylandClientEnvironment { WaylandClientEnvironment(runtime: runtime, socket: "wayland-1") }

    /// Starts the nested compositor as the user the parent runs as; fails with what is missing.
    init(in parent: SwayCompositor) throws {
        self.parent = parent
        var info = stat()
        guard stat(parent.runtimeDirectory, &info) == 0, let user = getpwuid(info.st_uid)?.pointee.pw_name else {
            throw WaylandTestFailure("cannot read the owner of \(parent.runtimeDirectory)")
        }
        let owner = String(cString: user)
        // The parent lets the nested outputs keep the size they ask for.
        try parent.swaymsg("for_window [app_id=\"wlroots\"] floating enable")
        var template = Array("/tmp/edk-nested-sway.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw WaylandTestFailure("mkdtemp failed: errno \(errno)") }
        runtime = String(cString: made)
        let config = "\(runtime)/config"
        try """
            output WL-1 mode --custom 1280x720@60Hz pos 0 0
            output WL-2 mode --custom 1280x720@60Hz pos 1280 0
            default_border none
            focus_follows_mouse no
            """.write(toFile: config, atomically: true, encoding: .utf8)
        chown(runtime, info.st_uid, info.st_gid)
        chown(config, info.st_uid, info.st_gid)
        chmod(runtime, 0o700)
        let parentSocket = "\(parent.runtimeDirectory)/\(parent.waylandDisplay)"
        let sway = ["-i", "PATH=/usr/bin:/bin", "HOME=\(runtime)", "XDG_RUNTIME_DIR=\(runtime)",
                    "WAYLAND_DISPLAY=\(parentSocket)", "WLR_BACKENDS=wayland", "WLR_WL_OUTPUTS=2",
                    "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER_ALLOW_SOFTWARE=1", "SWAYSOCK=\(runtime)/sway-ipc.sock",
                    "/usr/bin/sway", "-c", config]
        // sway refuses to run as root: as root, run it as the parent's user.
        process = getuid() == 0
            ? try Spawned("/usr/sbin/runuser", ["-u", owner, "--", "/usr/bin/env"] + sway)
            : try Spawned("/usr/bin/env", sway)
        let ready = poll {
            FileManager.default.fileExists(atPath: "\(runtime)/wayland-1")
                && (try? self.swaymsg(["-t", "get_outputs"]))?.contains("WL-2") == true
        }
        guard ready else {
            throw WaylandTestFailure("nested sway did not come up with WL-2: \(process.stderr.suffix(600))")
        }
        // A client running as another user (root in CI) may connect.
        chmod(runtime, 0o755)
        chmod("\(runtime)/wayland-1", 0o777)
        chmod("\(runtime)/sway-ipc.sock", 0o777)
    }

    /// `swaymsg` on the nested compositor.
    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> String {
        let result = try runToEnd("/usr/bin/swaymsg", ["-s", "\(runtime)/sway-ipc.sock"] + arguments)
        guard result.status == 0 else { throw WaylandTestFailure("swaymsg \(arguments) failed: \(result.stderr)") }
        return result.stdout
    }

    /// Unplugs `output`: closes its window in the parent, which destroys the output.
    func unplug(_ output: String) throws {
        try parent.swaymsg("[title=\"wlroots - \(output)\"] kill")
        guard try poll(timeout: 10, { try !self.swaymsg(["-t", "get_outputs"]).contains("\"\(output)\"") }) else {
            throw WaylandTestFailure("\(output) is still there after its window was closed")
        }
    }

    /// Plugs a new 1280×720 output right of WL-1; returns its name.
    func plug() throws -> String {
        let before = try outputNames()
        try swaymsg(["--", "create_output"])
        var added: String?
        _ = try poll(timeout: 10) {
            added = try self.outputNames().first { !before.contains($0) }
            return added != nil
        }
        guard let added else { throw WaylandTestFailure("create_output added no output") }
        try swaymsg(["--", "output", added, "mode", "--custom", "1280x720@60Hz", "pos", "1280", "0"])
        return added
    }

    private func outputNames() throws -> [String] {
        let text = try swaymsg(["-t", "get_outputs", "-r"])
        guard let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw WaylandTestFailure("swaymsg -t get_outputs -r printed no JSON array: \(text)")
        }
        return list.compactMap { $0["name"] as? String }
    }

    /// Ends the nested compositor and removes its folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? swaymsg(["exit"])
        if !poll(timeout: 5, { self.process.hasEnded }) { process.signal(SIGKILL) }
        try? FileManager.default.removeItem(atPath: runtime)
    }

    deinit { stop() }
}
