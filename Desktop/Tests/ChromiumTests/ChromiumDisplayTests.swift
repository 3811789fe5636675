import ExtDisplayTestSupport
import Foundation
import Testing

/// Real pages in headless Chromium are external displays of `extdisplay present --serve`: they show exactly the
/// audience PNG of the current slide, never a notes pixel, follow slide changes, go away when closed and come
/// back on the current slide. Fails (never skips) when Chromium is missing.
@Suite(.serialized)
struct ChromiumDisplayTests {
    static let notesColour = "ffd60a"

    /// The audience PNGs the headless presenter writes for a 1280×720 display without overscan:
    /// step 0 = slide 1, step 1 = slide 2.
    static func audienceSnapshots(_ deck: URL) throws -> [URL] {
        let directory = deck.deletingLastPathComponent().appendingPathComponent("snapshots")
        try run([try Repository.extdisplay().path, "present", deck.path, "--simulate", "laptop,hdmi-monitor-1080p",
                 "--mode", "1280x720", "--keys", "next", "--snapshot", directory.path])
        return [directory.appendingPathComponent("000-start-hdmi-monitor-1080p.png"),
                directory.appendingPathComponent("001-next-hdmi-monitor-1080p.png"),
                directory.appendingPathComponent("001-next-console.png")]
    }

    /// Waits until the page reports a paint after its paint number `after`, and returns that paint.
    static func waitForPaint(_ chromium: Chromium, _ page: Chromium.Page, after: Int = 0) async throws -> Chromium.Paint {
        try await waitFor("the page painting a new frame after paint \(after)") {
            try await chromium.paints(page).last.flatMap { $0.count > after ? $0 : nil }
        }
    }

    static func screenshot(_ chromium: Chromium, _ page: Chromium.Page, _ name: String) async throws -> URL {
        try temporaryFile(try await chromium.screenshot(page), name)
    }

    @Test("a Chromium page shows exactly the audience PNG, no notes, follows slides, goes away, comes back")
    func pageIsAnExternalDisplay() async throws {
        let deck = try writeDeck()
        let expected = try Self.audienceSnapshots(deck)
        // The oracle can fail: the console of the same step does show notes in the notes colour.
        #expect(try countColours(expected[2], [Self.notesColour])[0] > 100)

        let chromium = try await Chromium.launch()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: deck)
        defer { presenter.quit() }
        do {
            let page = try await chromium.open(presenter.url, width: 1280, height: 720)
            _ = try await presenter.waitForLine { $0.contains("connected: 1280×720") }
            let first = try await Self.waitForPaint(chromium, page)
            let shot1 = try await Self.screenshot(chromium, page, "slide1.png")
            let same1 = try comparePNGs(shot1, expected[0])
            #expect(same1.sizeA == "1280x720" && same1.differing == 0, "slide 1 differs from the audience PNG: \(same1)")
            #expect(try countColours(shot1, [Self.notesColour])[0] == 0)

            // Slide 2's picture reaches the page ahead of the key and is decoded there.
            try await waitUntil("slide 2 held ahead") { try await chromium.pictureStats(page).decoded >= 2 }
            let ahead = try await chromium.pictureStats(page)
            #expect(ahead.pictures == 2 && ahead.shows == 1, "slide 1 shown, slide 2 held: \(ahead)")

            // A key on the console: the page shows slide 2, exactly, from the picture it held.
            presenter.type("n")
            _ = try await presenter.waitForLine { $0.hasPrefix("slide 2 of 3") }
            let second = try await Self.waitForPaint(chromium, page, after: first.count)
            #expect(second.frame != first.frame)
            let shot2 = try await Self.screenshot(chromium, page, "slide2.png")
            let same2 = try comparePNGs(shot2, expected[1])
            #expect(same2.differing == 0, "slide 2 differs from the audience PNG: \(same2)")
            #expect(try countColours(shot2, [Self.notesColour])[0] == 0)
            let flipped = try await chromium.pictureStats(page)
            // Only the first show (slide 1, sent with its picture) may have waited for a decode.
            #expect(flipped.shows == ahead.shows + 1 && flipped.waited == ahead.waited && flipped.missing == 0,
                    "the flip drew the picture held ahead: \(ahead) → \(flipped)")

            // Closing the page: the console reports the display gone.
            let mark = presenter.console.all.count
            try await chromium.close(page)
            let gone = try await presenter.waitForLine(from: mark) { $0.contains(" gone: ") }
            _ = try await presenter.waitForLine(from: mark) { $0.contains("external: none") }
            #expect(gone.hasPrefix("browser-"))

            // A new page (a reconnect) shows the current slide (2) at once.
            let again = try await chromium.open(presenter.url, width: 1280, height: 720)
            _ = try await Self.waitForPaint(chromium, again)
            let shot3 = try await Self.screenshot(chromium, again, "reconnect.png")
            #expect(try comparePNGs(shot3, expected[1]).differing == 0)
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
    }
}
