#if canImport(CSDL2)
import Foundation
import Testing

/// `present --share window` on headless sway: the share window floats at its size, and keeps committing while it
/// sits on a workspace no output shows (where a compositor sends no frame callbacks). What it proves, measured for
/// each slide after the first:
///
/// - our process committed the share window's surface after the key while it was hidden (its `wl_surface.commit`
///   requests counted in `WAYLAND_DEBUG=client` on its standard error), and
/// - that commit held the new slide: the presenter is then stopped (SIGSTOP: it can draw nothing more), the hidden
///   workspace shown, and grim reads the slide's colour in the window — what sway kept is what was committed while
///   hidden, not a redraw on exposure.
@Suite("Share window on Wayland (headless sway)", .serialized)
struct ShareWindowWaylandTests {
    static let title = "extdisplay: audience (share this window)"
    /// Solid red, green and blue pages (16:9: each fills the window).
    static let colours = ["dc1e1e", "1ec828", "1e28d2"]

    @Test func theShareWindowCommitsNewSlidesWhileOnAHiddenWorkspace() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let client = WaylandClientEnvironment(runtime: sway.runtimeDirectory, socket: sway.waylandDisplay)
        let keyboard = try client.holdKeyboard()
        defer { keyboard.signal(SIGKILL) }
        let pages = Self.colours.map { hex -> [MiniPDF.Box] in
            let value = Int(hex, radix: 16) ?? 0
            return MiniPDF.solid(value >> 16, (value >> 8) & 0xFF, value & 0xFF, width: 1280, height: 720)
        }
        let deck = try MiniPDF.write(MiniPDF.data(pages: pages, width: 1280, height: 720), name: "share.pdf")
        var environment = client.environment
        environment["WAYLAND_DEBUG"] = "client"
        let presenter = try ChildProcess(try Repository.extdisplay().path,
                                         ["present", deck.path, "--share", "window=640x360"], environment: environment)
        defer { presenter.signal(SIGCONT); presenter.signal(SIGKILL) }
        #expect(poll { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") && $0.contains("share-window") } },
                "lines: \(presenter.lines)")
        // The share window floats at its size (its minimum and maximum size are its mode; sway's window_rect is
        // the window without its title bar and border).
        let floating = try #require(pollFirst(20) { try? Self.floatingRect(sway, titled: Self.title) }, "no floating share window")
        #expect(floating.width == 640 && floating.height == 360, "share window \(floating)")
        let surface = try #require(pollFirst(20) { Self.surfaceID(titled: Self.title, in: presenter.stderr) },
                                   "no share window surface in WAYLAND_DEBUG")

        // Keys go to the console: sway may focus the share window when it maps, and the console takes the focus
        // back (as PresentRun waits for too).
        #expect(poll { (try? focusedWindow(sway.swaymsg("-t", "get_tree"))) == consoleTitle },
                "focused: \(String(describing: try? focusedWindow(sway.swaymsg("-t", "get_tree"))))")
        try sway.swaymsg("[title=\"share this window\"]", "move", "to", "workspace", "9")
        #expect(poll { (try? Self.workspaceVisible(sway, "9")) == false }, "workspace 9 is shown")
        for (index, colour) in Self.colours.enumerated().dropFirst() {
            var seen = Self.commits(of: surface, in: presenter.stderr)
            #expect(poll { (try? focusedWindow(sway.swaymsg("-t", "get_tree"))) == consoleTitle }, "the console lost the focus")
            try client.key("Right")
            #expect(poll { presenter.lines.contains { $0.hasPrefix("slide \(index + 1) of 3") } }, "lines: \(presenter.lines)")
            // Each commit made while hidden is looked at: the first may be the page's placeholder ("rendering page
            // N…"), a later one the rendered page. At most 8 commits, each within 20 s.
            var pixels = 0, shots: [String] = []
            for _ in 0..<8 where pixels <= 640 * 360 * 9 / 10 {
                #expect(try Self.workspaceVisible(sway, "9") == false, "workspace 9 is shown")
                // Committed while hidden: no frame callback was waited for.
                guard poll(20, every: 0.05, { Self.commits(of: surface, in: presenter.stderr) > seen }) else { break }
                // Nothing more can be drawn: what sway shows of the window is what was committed while hidden.
                presenter.signal(SIGSTOP)
                seen = Self.commits(of: surface, in: presenter.stderr)
                try sway.swaymsg("workspace", "9")
                let shot = try client.screenshot("HEADLESS-1")
                pixels = try Self.count(shot, colour)
                shots.append(shot.path)
                try sway.swaymsg("workspace", "1")
                presenter.signal(SIGCONT)
                #expect(poll { (try? Self.workspaceVisible(sway, "9")) == false })
            }
            #expect(pixels > 640 * 360 * 9 / 10,
                    "slide \(index + 1): \(pixels) pixels of its colour in the share window as committed while hidden \(shots)")
        }
        try client.key("q", modifier: "ctrl")
        #expect(poll { presenter.hasEnded }, "still running after Ctrl-Q")
        #expect(presenter.wait() == 0)
    }

    /// The `wl_surface` id of the toplevel titled `title` in a `WAYLAND_DEBUG=client` log.
    static func surfaceID(titled title: String, in log: String) -> String? {
        var surfaceOfXDG: [String: String] = [:], xdgOfToplevel: [String: String] = [:]
        for line in log.split(separator: "\n") {
            if let range = line.range(of: "get_xdg_surface(new id xdg_surface@") {
                let rest = line[range.upperBound...]
                let xdg = rest.prefix { $0.isNumber }
                if let s = rest.range(of: "wl_surface@") {
                    surfaceOfXDG[String(xdg)] = String(rest[s.upperBound...].prefix { $0.isNumber })
                }
            } else if let range = line.range(of: ".get_toplevel(new id xdg_toplevel@"),
                      let x = line.range(of: "xdg_surface@") {
                let xdg = line[x.upperBound...].prefix { $0.isNumber }
                xdgOfToplevel[String(line[range.upperBound...].prefix { $0.isNumber })] = String(xdg)
            } else if line.contains(".set_title(\"\(title)\")"), let t = line.range(of: "xdg_toplevel@") {
                let toplevel = String(line[t.upperBound...].prefix { $0.isNumber })
                if let xdg = xdgOfToplevel[toplevel], let surface = surfaceOfXDG[xdg] { return surface }
            }
        }
        return nil
    }

    /// `wl_surface@ID.commit()` requests in the log.
    static func commits(of surface: String, in log: String) -> Int {
        log.components(separatedBy: "-> wl_surface@\(surface).commit()").count - 1
    }

    /// The rectangle of the floating window titled `title`, from sway's tree.
    static func floatingRect(_ sway: SwayCompositor, titled title: String) throws -> (width: Int, height: Int)? {
        let tree = try parseJSON(try sway.swaymsg("-t", "get_tree"))
        func search(_ node: [String: Any]) -> (width: Int, height: Int)? {
            if node["type"] as? String == "floating_con", node["name"] as? String == title,
               let rect = node["window_rect"] as? [String: Any], let w = rect["width"] as? Int,
               let h = rect["height"] as? Int {
                return (w, h)
            }
            let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            return children.lazy.compactMap(search).first
        }
        return (tree as? [String: Any]).flatMap(search)
    }

    /// Whether an output shows workspace `name`.
    static func workspaceVisible(_ sway: SwayCompositor, _ name: String) throws -> Bool {
        let workspaces = try parseJSON(try sway.swaymsg("-t", "get_workspaces")) as? [[String: Any]] ?? []
        guard let workspace = workspaces.first(where: { $0["name"] as? String == name }) else {
            throw WaylandTestFailure("no workspace \(name)")
        }
        return workspace["visible"] as? Bool == true
    }

    /// Pixels of exactly `hex` in a PNG (scripts/present-pngscan.py, independent of the code under test).
    static func count(_ png: URL, _ hex: String) throws -> Int {
        let result = try runToEnd("/usr/bin/python3", [packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                                       png.path, hex])
        guard result.status == 0, let n = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw WaylandTestFailure("present-pngscan.py \(png.path) \(hex) failed: \(result.stderr)")
        }
        return n
    }
}
#endif
