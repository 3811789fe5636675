import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// `present --serve` on a desktop: the normal presenter (SDL console, the cable display DUMMY1 through RandR)
/// and a headless Chromium page as one more external display, both driven by the one presenter state. A key on
/// the desktop console flips the cable display and the page; the page shows what DUMMY1 shows (anti-aliased text
/// edges within 3 levels). Part of
/// the serialized Xorg suite (one X server at a time). Fails (never skips) when Xorg-dummy or Chromium is missing.
extension XorgPresenterTests {
    /// Pixels that differ (RGB) between a region of one image and the whole of another of that size; -1 when
    /// the sizes differ. Read with the project's independent decoder (scripts/present-pngscan.py).
    static func differing(_ a: URL, region: String, _ b: URL, tolerance: Int = 0) throws -> Int {
        let script = """
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("scan", sys.argv[1])
        scan = importlib.util.module_from_spec(spec); spec.loader.exec_module(scan)
        x0, y0, w, h = [int(v) for v in sys.argv[3].split(",")]
        wa, ha, ba, ra = scan.read_image(sys.argv[2]); wb, hb, bb, rb = scan.read_image(sys.argv[4])
        if (wb, hb) != (w, h) or x0 + w > wa or y0 + h > ha:
            print(-1); sys.exit(0)
        n = 0
        for y in range(h):
            la, lb = ra[y0 + y], rb[y]
            for x in range(w):
                pa, pb = la[(x0 + x) * ba:(x0 + x) * ba + 3], lb[x * bb:x * bb + 3]
                if max(abs(pa[0] - pb[0]), abs(pa[1] - pb[1]), abs(pa[2] - pb[2])) > int(sys.argv[5]): n += 1
        print(n)
        """
        let result = try Shell.run(["python3", "-c", script,
                                    Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                    a.path, region, b.path, String(tolerance)])
        guard result.status == 0, let n = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw XorgTestError("pixel comparison failed (status \(result.status)): \(result.output)")
        }
        return n
    }

    /// Every QR code zbarimg finds on a screenshot (converted to PNG by scripts/present-pngscan.py).
    static func qrCodes(_ shot: URL) throws -> [String] {
        let png = shot.deletingPathExtension().appendingPathExtension("png")
        let converted = try Shell.run(["python3", Shell.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                       "--png", png.path, shot.path])
        guard converted.status == 0 else { throw XorgTestError("converting \(shot.path) failed: \(converted.output)") }
        guard Shell.has("zbarimg") else { throw XorgTestError("zbarimg is missing: run scripts/install-deps.sh (zbar-tools)") }
        let result = try Shell.run(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", png.path])
        return result.output.split(separator: "\n").map(String.init)
    }

    /// The newest frame number the page reports painted, once it is newer than `after` (hang guard 30 s).
    static func paint(_ chromium: Chromium, _ page: Chromium.Page, after: UInt32? = nil) async throws -> UInt32 {
        try await waitFor("the page painting a frame after \(after.map(String.init) ?? "none")") {
            try await chromium.paints(page).last.flatMap { last in after.map { last.frame > $0 } ?? true ? last.frame : nil }
        }
    }

    /// `present DECK --serve 127.0.0.1:0` on `server`'s desktop (the console and DUMMY1 through RandR).
    static func served(on server: XorgServer) throws -> RunningProcess {
        try RunningProcess([try Repository.extdisplay().path, "present", try writeDeck().path, "--serve", "127.0.0.1:0"],
                           environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
    }

    @Test func serveOnADesktopDrivesTheCableDisplayAndBrowsersTogether() async throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try Self.served(on: server)
        defer { presenter.terminate() }
        let serving = try #require(presenter.waitForLine { $0.hasPrefix("serving the audience view at ") },
                                   "lines: \(presenter.lines)")
        let url = String(serving.dropFirst("serving the audience view at ".count).prefix { $0 != " " })
        #expect(presenter.waitForLine { $0.hasPrefix("speaker remote") } != nil)
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("external: DUMMY1") } != nil)
        try server.waitForWindow("extdisplay present: console")

        let chromium = try await Chromium.launch()
        do {
            let page = try await chromium.open(url, width: 1280, height: 720)
            let connected = try #require(presenter.waitForLine { $0.contains(" connected: 1280×720") }, "lines: \(presenter.lines)")
            let id = String(connected.prefix { $0 != " " })
            #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("DUMMY1") && $0.contains(id) } != nil,
                    "the status line never listed both displays: \(presenter.lines)")
            let first = try await Self.paint(chromium, page)

            let external = "1920,0,1280,720"
            let slide = PresenterTheme().slideBackground
            let shot1 = try server.screenshot { try Self.scan($0, region: external, slide) > 100_000 }
            let page1 = try temporary(try await chromium.screenshot(page), "page1.png")
            // The same picture: the window surface blends anti-aliased text over an opaque (XRGB) surface while the
            // page's frame is the off-screen canvas made opaque afterwards, so text edges may differ by a few
            // levels (measured: ≤ 3, on about 0.3 % of the pixels); nothing else may differ.
            #expect(try Self.differing(shot1, region: external, page1, tolerance: 3) == 0,
                    "the page does not show what DUMMY1 shows (\(shot1.path), \(page1.path))")
            #expect(try Self.differing(shot1, region: external, page1) < 1280 * 720 / 100)

            // A key on the desktop console: both flip to slide 2.
            try server.key("Right")
            #expect(presenter.waitForLine { $0.hasPrefix("slide 2 of 3") } != nil)
            let before = try Self.digest(shot1, external)
            let shot2 = try server.screenshot { try Self.digest($0, external) != before }
            #expect(try Self.digest(shot2, external) != before, "DUMMY1 did not change")
            _ = try await Self.paint(chromium, page, after: first)
            let page2 = try temporary(try await chromium.screenshot(page), "page2.png")
            #expect(try Self.differing(shot2, region: external, page2, tolerance: 3) == 0,
                    "the page does not show slide 2 as DUMMY1 does")
            // The comparison can fail: slide 1 on DUMMY1 against the page on slide 2.
            #expect(try Self.differing(shot1, region: external, page2, tolerance: 3) > 1_000, "the page did not change")
            #expect(try Self.scan(page2, region: "0,0,1280,720", PresenterTheme().notes) == 0, "notes on the page")

            // The console's QR panel: the audience URL from the start; U shows the remote's (with its token);
            // mirroring (M) withdraws it from every screen.
            let remote = try #require(presenter.lines.first { $0.hasPrefix("speaker remote") }.flatMap { line in
                line.range(of: "http://").map { String(line[$0.lowerBound...]) }
            })
            #expect(try Self.qrCodes(shot2) == [url], "the console shows no QR code of the audience URL")
            try server.key("u")
            let remoteShown = try server.screenshot { try Self.qrCodes($0) == [remote] }
            #expect(try Self.qrCodes(remoteShown) == [remote], "U did not show the remote's QR code")
            try server.key("m")
            #expect(presenter.waitForLine { $0.contains("mirrored") } != nil)
            let mirrored = try server.screenshot { try !Self.qrCodes($0).contains(remote) }
            #expect(try !Self.qrCodes(mirrored).contains(remote), "the remote's token is on screen while mirrored")
            try server.key("m")

            // The page going away leaves the cable display on.
            try await chromium.close(page)
            #expect(presenter.waitForLine { $0.hasPrefix("\(id) gone:") } != nil)
            #expect(presenter.waitForLine { $0.contains("external: DUMMY1") && !$0.contains(id) } != nil)
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
        #expect(presenter.child.exitStatus(timeout: 0) == 0)
    }

    @Test func terminalConsoleOnADesktopOpensNoWindow() throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try RunningProcess(
            [try Repository.extdisplay().path, "present", try Self.writeDeck().path, "--serve", "127.0.0.1:0", "--terminal-console"],
            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"])
        defer { presenter.terminate() }
        // The terminal console's key line (the desktop one starts "keys on the console window").
        #expect(presenter.waitForLine { $0.hasPrefix("keys: Right/Space/Enter/n next") } != nil, "lines: \(presenter.lines)")
        let windows = try Shell.run(["xdotool", "search", "--name", "extdisplay present"], environment: ["DISPLAY": server.display])
        #expect(windows.status != 0, "a presenter window opened on the desktop: \(windows.output)")
        presenter.terminate()  // SIGTERM ends the talk cleanly
        #expect(presenter.waitForExit(timeout: 10))
        #expect(presenter.lines.contains { $0.hasPrefix("presented ") })
    }

    func temporary(_ data: Data, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)-\(name)")
        try data.write(to: url)
        return url
    }
}
