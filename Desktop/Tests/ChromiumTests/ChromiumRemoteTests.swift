import ExtDisplayTestSupport
import Foundation
import Testing

/// The speaker's remote in a real page shows the next slide as a picture, beside the current one: after a key,
/// the new "now" picture is exactly the previous "next" picture, and after the last slide "next" is empty (one
/// colour). Neither picture ever holds a notes-colour pixel (the pictures are audience views; notes are text).
/// Part of the serialized Chromium suite: one headless Chromium at a time beside the load test.
extension ChromiumDisplayTests {
    /// Both canvases as PNG data URLs, once the page has drawn at least `count` pictures (hang guard 30 s).
    static func pictures(_ chromium: Chromium, _ page: Chromium.Page, count: Int) async throws -> (now: String, next: String) {
        try await waitUntil("the remote page drawing \(count) pictures", every: 0.05) {
            (try await chromium.evaluate(page, "window.edkRemotePictures || 0") as? Int ?? 0) >= count
        }
        let now = try await chromium.evaluate(page, "document.getElementById('now-picture').toDataURL()") as? String
        let next = try await chromium.evaluate(page, "document.getElementById('next-picture').toDataURL()") as? String
        return (now ?? "", next ?? "")
    }

    /// Distinct colours in a canvas (capped), counted by the page.
    static func colours(_ chromium: Chromium, _ page: Chromium.Page, _ id: String) async throws -> Int {
        let script = "(() => { const c = document.getElementById('\(id)'); "
            + "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; const seen = new Set(); "
            + "for (let i = 0; i < d.length && seen.size < 50; i += 4) seen.add(d[i] << 16 | d[i + 1] << 8 | d[i + 2]); "
            + "return seen.size })()"
        return try await chromium.evaluate(page, script) as? Int ?? -1
    }

    @Test("the remote shows the current and the next slide as pictures")
    func nextSlideIsAPicture() async throws {
        let chromium = try await Chromium.launch()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        do {
            let page = try await chromium.open(presenter.remoteURL, width: 800, height: 1000)
            let first = try await Self.pictures(chromium, page, count: 1)
            #expect(first.now.hasPrefix("data:image/png") && first.now != first.next, "now and next look the same")
            #expect(try await Self.colours(chromium, page, "next-picture") > 2, "the next slide's picture is empty")

            presenter.type("n")
            _ = try await presenter.waitForLine { $0.hasPrefix("slide 2 of 3") }
            let second = try await Self.pictures(chromium, page, count: 2)
            #expect(second.now == first.next, "slide 2 on the remote is not the picture it showed as next")
            presenter.type("n")
            _ = try await presenter.waitForLine { $0.hasPrefix("slide 3 of 3") }
            let third = try await Self.pictures(chromium, page, count: 3)
            #expect(third.now == second.next)
            #expect(try await Self.colours(chromium, page, "next-picture") == 1, "after the last slide, next is not empty")
            let label = try await chromium.evaluate(page, "document.getElementById('next-slide').textContent") as? String
            #expect(label == "(last slide)")
            // No notes colour in either picture: the page counts #ffd60a pixels.
            for id in ["now-picture", "next-picture"] {
                let notes = try await chromium.evaluate(page, "(() => { const c = document.getElementById('\(id)'); "
                    + "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; "
                    + "for (let i = 0; i < d.length; i += 4) if (d[i] == 0xff && d[i + 1] == 0xd6 && d[i + 2] == 0x0a) n++; "
                    + "return n })()") as? Int
                #expect(notes == 0, "\(id) has notes-colour pixels")
            }
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
    }
}
