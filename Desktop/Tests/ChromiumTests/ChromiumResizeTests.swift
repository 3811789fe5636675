import ExtDisplayTestSupport
import Foundation
import Testing

/// A real page resized (CDP `Emulation.setDeviceMetricsOverride`) is a mode change of the same display: the
/// console reports the new mode, the display is never reported gone or connected again, and the page shows
/// exactly the audience PNG rendered headless for a display in that mode. Fails (never skips) when Chromium is
/// missing. Part of the serialized Chromium suite: one headless Chromium at a time beside the load test.
extension ChromiumDisplayTests {
    @Test("resizing a page changes its mode; it shows the picture at the new size, same display")
    func resizedPageShowsThePictureAtItsNewSize() async throws {
        let deck = try writeDeck()
        let directory = deck.deletingLastPathComponent().appendingPathComponent("snapshots-1024")
        try run([try Repository.extdisplay().path, "present", deck.path, "--simulate", "laptop,hdmi-monitor-1080p",
                 "--mode", "1024x768", "--snapshot", directory.path])
        let expected1024 = directory.appendingPathComponent("000-start-hdmi-monitor-1080p.png")
        let expected720 = try Self.audienceSnapshots(deck)[0]

        let chromium = try await Chromium.launch()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: deck)
        defer { presenter.quit() }
        do {
            let page = try await chromium.open(presenter.url, width: 1280, height: 720)
            let connected = try await presenter.waitForLine { $0.contains("connected: 1280×720") }
            let id = String(connected.prefix { $0 != " " })
            let first = try await Self.waitForPaint(chromium, page)
            let shot720 = try await Self.screenshot(chromium, page, "before-resize.png")
            #expect(try comparePNGs(shot720, expected720).differing == 0)

            let mark = presenter.console.all.count
            try await chromium.resize(page, width: 1024, height: 768)
            _ = try await presenter.waitForLine(from: mark) { $0 == "\(id) resized: 1024×768@60" }
            _ = try await Self.waitForPaint(chromium, page, after: first.count)
            let shot = try await Self.screenshot(chromium, page, "after-resize.png")
            let same = try comparePNGs(shot, expected1024)
            #expect(same.sizeA == "1024x768" && same.differing == 0, "the resized page differs from the 1024×768 PNG: \(same)")
            // The canvas shown (the page keeps one per held picture and shows one) holds device pixels, not a
            // scaled 1280×720 picture.
            let canvas = try await chromium.evaluate(page, "(() => { const shown = [...document.querySelectorAll('canvas')]"
                                                      + ".filter(c => c.style.opacity === '1'); "
                                                      + "return shown.map(c => c.width + 'x' + c.height).join(',') })()") as? String
            #expect(canvas == "1024x768")
            // The same display throughout: never gone, never connected again.
            let lines = Array(presenter.console.all[mark...])
            #expect(!lines.contains { $0.hasPrefix("\(id) gone:") }, "lines: \(lines)")
            #expect(!lines.contains { $0.contains(" connected: ") }, "lines: \(lines)")
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
    }
}
