#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A fast clicker at 4K on a real X server: 29 PageDown keys 0.25 s apart (one `xdotool key --delay 250`) into a
/// 50-page PDF talk whose audience output runs 3840×2160. The audience must end on the last page and show it soon
/// after the last key — a hang guard, not a speed test (the issue's harness saw up to 4.2 s of backlog; the
/// benchmark measures the figure) — with the pages on the way dropped or their renders stopped. Read from the
/// screen; then the output is unplugged and plugged back twice and page 30 returns each time. Part of the
/// serialized Xorg suite.
extension XorgPresenterTests {
    /// The colour of page `index` (0-based): distinct for 50 pages, never grey or black.
    static func clickerColour(_ index: Int) -> RGBA {
        RGBA(UInt8(40 + (index * 37) % 200), UInt8(30 + (index * 71) % 200), UInt8(50 + (index * 113) % 180))
    }

    /// A 16:9 PDF of `pages` solid pages, page i in ``clickerColour(_:)``.
    static func colourDeck(pages: Int, name: String) throws -> URL {
        let boxes = (0..<pages).map { i in
            let c = clickerColour(i)
            return MiniPDF.solid(Int(c.r), Int(c.g), Int(c.b), width: 960, height: 540)
        }
        return try MiniPDF.write(MiniPDF.data(pages: boxes, width: 960, height: 540), name: name)
    }

    /// Whether the 4K audience output (DUMMY1 at +1920+0) shows `colour` at nine points spread over it.
    static func audience4KShows(_ image: XWDImage, _ colour: RGBA) -> Bool {
        let points = [(0.1, 0.1), (0.5, 0.1), (0.9, 0.1), (0.1, 0.5), (0.6, 0.5), (0.9, 0.5), (0.1, 0.9), (0.5, 0.9), (0.9, 0.9)]
        return points.allSatisfy { fx, fy in
            let (r, g, b) = image.pixel(1920 + Int(3840 * fx), Int(2160 * fy))
            return abs(r - Int(colour.r)) <= 2 && abs(g - Int(colour.g)) <= 2 && abs(b - Int(colour.b)) <= 2
        }
    }

    /// The page (1-based) a `pdftoppm` command line renders first (its `-f N`).
    static func firstPage(_ commandLine: String) -> Int? {
        let words = commandLine.split(separator: " ")
        guard let i = words.firstIndex(of: "-f"), i + 1 < words.count else { return nil }
        return Int(words[i + 1])
    }

    @Test func aFastClickerAt4KEndsOnTheLastPageSoonAfterTheLastKey() throws {
        let pdf = try Self.colourDeck(pages: 50, name: "clicker.pdf")
        let server = try XorgServer.start()
        defer { server.stop() }
        try server.setUHD("DUMMY1", rate: 60)
        let mark = ProcessMark()
        let presenter = try ChildProcess([try Self.extdisplay, "present", pdf.path],
                                         environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11",
                                                       ProcessMark.variable: mark.value])
        #expect(poll(20) { presenter.lines.contains { $0.contains("external: DUMMY1") } }, "stderr: \(presenter.stderr)")
        try server.waitForWindow("extdisplay present: console")
        #expect(try poll(30) { Self.audience4KShows(try server.captureRoot(), Self.clickerColour(0)) },
                "page 1 never reached the 4K audience; lines: \(presenter.lines)")

        let env = ["DISPLAY": server.display]
        let console = try Shell.run(["xdotool", "search", "--name", "extdisplay present: console"], environment: env)
            .output.split(separator: "\n").first.map(String.init) ?? ""
        try #require(!console.isEmpty, "no console window")
        try Shell.run(["xdotool", "windowfocus", "--sync", console], environment: env)
        let keys = try Shell.run(["xdotool", "key", "--delay", "250"] + Array(repeating: "Next", count: 29), environment: env)
        #expect(keys.status == 0)
        let lastKey = Date()
        let last = Self.clickerColour(29)
        let shown = try poll(20, every: 0.05) { Self.audience4KShows(try server.captureRoot(), last) }
        let after = Date().timeIntervalSince(lastKey)
        #expect(shown, "the audience never showed page 30 after 29 keys; lines: \(presenter.lines.suffix(3))")
        #expect(presenter.lines.contains { $0.hasPrefix("slide 30 of 50") }, "lines: \(presenter.lines.suffix(3))")
        // Hang guard (generous: a loaded 2-core machine renders a 4K page in 0.4–2 s), not a speed test.
        #expect(after < 10, "page 30 reached the audience \(after) s after the last key")
        print("fast clicker at 4K: page 30 on the audience \(String(format: "%.2f", after)) s after the last key "
              + "(load \(String((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.prefix(14) ?? "?")))")
        // The renders on the way were not all run: once the talk idles on page 30, pdftoppm renders only the pages
        // around it (29, the one behind, and those after it, rendered ahead while idle), none the speaker passed.
        #expect(try poll(10) {
            try mark.processes().allSatisfy { $0.name != "pdftoppm" || Self.firstPage($0.commandLine).map { $0 >= 29 } == true }
        }, "pdftoppm still rendering passed pages after the burst: \((try? mark.processes()) ?? [])")
        // Right after the burst, the 4K output goes off and on again (as the issue's harness did after its rapid
        // keys): page 30 is back every time.
        for cycle in 0..<2 {
            try server.xrandr(["--output", "DUMMY1", "--off"])
            usleep(500_000)
            try server.xrandr(["--output", "DUMMY1", "--mode", "3840x2160_60", "--right-of", "DUMMY0"])
            #expect(try poll(20, every: 0.05) { Self.audience4KShows(try server.captureRoot(), last) },
                    "replug \(cycle) after the burst: page 30 did not come back; lines: \(presenter.lines.suffix(3))")
        }
        try server.key("ctrl+q")
        #expect(presenter.exitStatus(timeout: 10) == 0)
    }
}
#endif
