import ExtDisplayTestSupport
import Foundation
import Testing

/// Ink on a browser page of `present --serve` (issue 36, item 2): strokes typed on the terminal console
/// (`:ink:X/Y;X/Y` then Enter) reach the page as small vector messages and are drawn over its picture — the
/// page's pixels show each stroke where it was drawn, while the pictures the page receives and the presenter
/// renders do not grow per stroke — and the speaker's marks never reach the page. Fails (never skips) when
/// Chromium is missing.
@Suite(.serialized)
struct ChromiumInkTests {
    static let red = "dc1e1e"

    /// The console's statistics line (`s`), read after everything typed before it was handled.
    static func stats(_ presenter: ServedPresenterProcess) async throws -> (rendered: Int, ink: Int) {
        let mark = presenter.console.all.count
        presenter.type("s")
        let line = try await presenter.waitForLine(from: mark) { $0.hasPrefix("stats: ") }
        func number(after label: String) -> Int {
            guard let range = line.range(of: label) else { return -1 }
            return Int(line[range.upperBound...].prefix { $0.isNumber }) ?? -1
        }
        return (number(after: "audience pictures rendered "), number(after: "ink messages "))
    }

    /// The page's ink messages (its last 100, as received).
    static func inkLog(_ chromium: Chromium, _ page: Chromium.Page) async throws -> [String] {
        let value = try await chromium.evaluate(page, "JSON.stringify(window.edkInkLog || [])") as? String ?? "[]"
        return try JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String] ?? []
    }

    /// Waits until the page has received an ink message with `strokes` strokes, then for the frame after it.
    static func waitForInk(_ chromium: Chromium, _ page: Chromium.Page, strokes: Int) async throws -> String {
        let message = try await waitFor("an ink message with \(strokes) strokes on the page") { () async throws -> String? in
            guard let last = try await inkLog(chromium, page).last,
                  let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any],
                  (object["strokes"] as? [Any])?.count == strokes else { return nil }
            return last
        }
        _ = try await chromium.evaluate(page, "new Promise(function (r) { requestAnimationFrame(function () { "
                                        + "requestAnimationFrame(function () { r(1); }); }); })", awaitPromise: true)
        return message
    }

    @Test("strokes reach the page as messages and show where drawn, no picture per stroke, no speaker's marks")
    func strokesAreMessagesNotPictures() async throws {
        let chromium = try await Chromium.launch()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        do {
            let page = try await chromium.open(presenter.url, width: 1280, height: 720)
            _ = try await presenter.waitForLine { $0.contains("connected: 1280×720") }
            _ = try await ChromiumDisplayTests.waitForPaint(chromium, page)
            try await waitUntil("slide 2 held ahead") { try await chromium.pictureStats(page).decoded >= 2 }
            // Renders settled: the same count three times in a row.
            var counts: [Int] = []
            try await waitUntil("the presenter's renders settling", timeout: 60, every: 0.3) {
                counts.append(try await Self.stats(presenter).rendered)
                return counts.count >= 3 && Set(counts.suffix(3)).count == 1
            }
            let before = try await Self.stats(presenter)
            let picturesBefore = try await chromium.pictureStats(page).pictures
            // The oracle can fail: no red across the middle before the stroke.
            let blank = try await ChromiumDisplayTests.screenshot(chromium, page, "ink-before.png")
            #expect(try countColours(blank, [Self.red], region: "300,330,680,60")[0] == 0)

            // One stroke across the middle, from a fifth to four fifths of the width.
            let typed = Date()
            presenter.type(":ink:0.2/0.5;0.8/0.5\n")
            let first = try await Self.waitForInk(chromium, page, strokes: 1)
            let latency = Date().timeIntervalSince(typed) * 1000
            let shot = try await ChromiumDisplayTests.screenshot(chromium, page, "ink-one.png")
            #expect(try countColours(shot, [Self.red], region: "300,330,680,60")[0] > 1_000, "the stroke is not on the page")
            #expect(try countColours(shot, [Self.red], region: "0,0,1280,300")[0] == 0, "red where nothing was drawn")
            #expect(try countColours(shot, [Self.red], region: "0,330,200,60")[0] == 0, "the stroke starts at a fifth")

            // The speaker's marks (g), then the room again (g) with a second stroke: the page's newest message has the
            // room's two strokes, and no message ever held a mark.
            presenter.type("g:ink:0.3137/0.8071;0.4142/0.8931\ng:ink:0.5/0.1;0.5/0.3\n")
            _ = try await Self.waitForInk(chromium, page, strokes: 2)
            for message in try await Self.inkLog(chromium, page) {
                for mark in ["0.3137", "0.8071", "0.4142", "0.8931"] {
                    #expect(!message.contains(mark), "the speaker's mark \(mark) reached the page: \(message)")
                }
            }
            let marks = try await ChromiumDisplayTests.screenshot(chromium, page, "ink-marks.png")
            #expect(try countColours(marks, [Self.red], region: "380,570,170,80")[0] == 0, "the speaker's marks on the page")
            #expect(try countColours(marks, [Self.red], region: "620,60,40,170")[0] > 100, "the second stroke is not on the page")

            // Eight more strokes: ten in all, and no new picture for any of them.
            for i in 0..<8 {
                let y = 0.55 + 0.04 * Double(i)
                presenter.type(":ink:0.1/\(y);0.3/\(y)\n")
                _ = try await Self.waitForInk(chromium, page, strokes: 3 + i)
            }
            let after = try await Self.stats(presenter)
            let picturesAfter = try await chromium.pictureStats(page).pictures
            #expect(picturesAfter == picturesBefore, "pictures received grew with the strokes: \(picturesBefore) → \(picturesAfter)")
            #expect(after.rendered == before.rendered, "pictures rendered grew with the strokes: \(before.rendered) → \(after.rendered)")
            #expect(after.ink > before.ink)
            let last = try #require(try await Self.inkLog(chromium, page).last)

            // Zoomed 2× at the centre (a new picture, as zoom is): the page draws the ink enlarged with the slide and
            // clipped to it. The middle stroke (0.2…0.8 at 0.5) crosses the whole width, from x 0 where it did not
            // reach before; the vertical one (0.5, 0.1…0.3) runs from the top to y 0.1 of the display.
            let paintsBefore = try await chromium.paints(page).last?.count ?? 0
            presenter.type("z")
            let zoomed = try await ChromiumDisplayTests.waitForPaint(chromium, page, after: paintsBefore)
            _ = try await waitFor("the ink of the zoomed picture") { () async throws -> String? in
                try await Self.inkLog(chromium, page).last.flatMap { $0.contains("\"frame\":\(zoomed.frame),") ? $0 : nil }
            }
            _ = try await Self.waitForInk(chromium, page, strokes: 10)
            let big = try await ChromiumDisplayTests.screenshot(chromium, page, "ink-zoomed.png")
            #expect(try countColours(big, [Self.red], region: "0,340,200,40")[0] > 400, "the zoomed stroke does not reach the left edge")
            #expect(try countColours(big, [Self.red], region: "1080,340,200,40")[0] > 400, "the zoomed stroke does not reach the right edge")
            #expect(try countColours(big, [Self.red], region: "620,0,40,60")[0] > 100, "the zoomed vertical stroke is not at the top")
            #expect(try countColours(big, [Self.red], region: "620,90,40,200")[0] == 0, "the vertical stroke is drawn unzoomed")
            print("ink on a page: first stroke typed → painted \(String(format: "%.0f", latency)) ms; "
                  + "a 2-point stroke's message \(first.utf8.count) bytes, 10 strokes' \(last.utf8.count) bytes; "
                  + "for 10 strokes: pictures rendered \(before.rendered) → \(after.rendered), pictures the page "
                  + "received \(picturesBefore) → \(picturesAfter), ink messages sent \(before.ink) → \(after.ink)")
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
    }
}
