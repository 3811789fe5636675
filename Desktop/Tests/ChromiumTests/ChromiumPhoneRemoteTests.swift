import ExtDisplayTestSupport
import Foundation
import Testing

/// The speaker's remote on a phone: a real `present --serve` with per-slide times and a planned length, its remote
/// opened in headless Chromium at 360×740 with touch emulation. The targets are thumb-sized and in reach, taps
/// and swipes drive the talk (the console's status line says where it is), the notes and the pace are shown, A+
/// makes the notes larger and the browser remembers it, and hostile messages on the remote's socket are still
/// closed with a reason. Part of the serialized Chromium suite. `EDK_REMOTE_SCREENSHOT=PATH` keeps the
/// screenshot (docs/images/remote-360x740.png comes from it).
extension ChromiumDisplayTests {
    /// A three-slide deck with a time per slide and notes long enough to scroll.
    static func writeTimedDeck() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edk-phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let deck = directory.appendingPathComponent("deck.md")
        let long = (1...12).map { "Point \($0): say why it matters, then show it." }.joined(separator: " ")
        try """
        # Browsers are displays

        Every page that opens the URL

        <!-- time: 1:00 -->

        Note: Welcome everyone. Ask who has presented from a phone before. \(long)

        ---

        # Second slide

        - a bullet
        - another bullet

        <!-- time: 2:00 -->

        Note: The demo: open the remote, swipe, watch the room follow. \(long)

        ---

        # Third slide

        The end

        <!-- time: 1:00 -->

        Note: Thank the organisers. Questions.
        """.write(to: deck, atomically: true, encoding: .utf8)
        return deck
    }

    /// The centre of an element, in CSS pixels.
    static func centre(_ chromium: Chromium, _ page: Chromium.Page, _ id: String) async throws -> (x: Double, y: Double) {
        let value = try await chromium.evaluate(page, "(() => { const r = document.getElementById('\(id)')"
            + ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2] })()") as? [Double] ?? []
        guard value.count == 2 else { throw SupportError("no element '\(id)' on the remote") }
        return (value[0], value[1])
    }

    /// Taps an element's centre with one finger.
    static func tap(_ chromium: Chromium, _ page: Chromium.Page, _ id: String) async throws {
        let point = try await centre(chromium, page, id)
        try await chromium.touch(page, from: point, to: point)
    }

    /// A string the page computes, once it is what `matches` wants (hang guard 30 s).
    static func waitForPage(_ chromium: Chromium, _ page: Chromium.Page, _ expression: String,
                            _ what: String, _ matches: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await waitUntil(what, every: 0.05) {
            matches(try await chromium.evaluate(page, expression) as? String ?? "")
        }
        return try await chromium.evaluate(page, expression) as? String ?? ""
    }

    @Test("the remote on a 360×740 phone: thumb targets, taps and swipes drive the talk, notes, pace, A+, hostile messages")
    func phoneRemote() async throws {
        let chromium = try await Chromium.launch()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try Self.writeTimedDeck(),
                                                               extraArguments: ["--duration", "4"])
        defer { presenter.quit() }
        do {
            let page = try await chromium.open(presenter.remoteURL, width: 360, height: 740)
            try await chromium.emulateTouch(page)
            _ = try await Self.pictures(chromium, page, count: 1)

            // Every target at least 48 px tall and wide, all of it on the screen (nothing to scroll to), and
            // previous and next in the bottom third, where the thumb is.
            let boxes = try await chromium.evaluate(page, "JSON.stringify(['previous','next','blank','freeze','pause','smaller','larger']"
                + ".map(id => { const r = document.getElementById(id).getBoundingClientRect(); return [id, r.top, r.bottom, r.width, r.height] }))")
                as? String ?? "[]"
            let rows = try JSONSerialization.jsonObject(with: Data(boxes.utf8)) as? [[Any]] ?? []
            #expect(rows.count == 7)
            for row in rows {
                let id = row[0] as? String ?? "?", numbers = row.dropFirst().compactMap { ($0 as? NSNumber)?.doubleValue }
                guard numbers.count == 4 else { Issue.record("no box for \(id)"); continue }
                #expect(numbers[3] >= 48 && numbers[2] >= 48, "\(id) is \(numbers[2])×\(numbers[3])")
                #expect(numbers[0] >= 0 && numbers[1] <= 740, "\(id) is off the screen: \(numbers)")
                if id == "next" || id == "previous" { #expect(numbers[0] >= 740 * 2 / 3, "\(id) is out of the thumb's reach at y \(numbers[0])") }
            }
            #expect(try await chromium.evaluate(page, "document.documentElement.scrollHeight") as? Int == 740)

            // The notes and the pace (a shape, a word and a standing), the notes scrollable within the page.
            let notes = try await chromium.evaluate(page, "document.getElementById('notes').textContent") as? String ?? ""
            #expect(notes.hasPrefix("Welcome everyone."))
            #expect(try await chromium.evaluate(page, "(() => { const n = document.getElementById('notes'); "
                + "return n.getBoundingClientRect().height >= 60 && n.scrollHeight > n.clientHeight })()") as? Bool == true,
                "the notes are not a scrollable box of readable height")
            let pace = try await Self.waitForPage(chromium, page, "document.getElementById('pace').hidden ? '' : "
                + "document.getElementById('pace').className + '|' + document.getElementById('pace').textContent", "the pace cue") { !$0.isEmpty }
            #expect(["ahead|", "onPace|", "behind|", "overtime|"].contains { pace.hasPrefix($0) }, "\(pace)")
            #expect(pace.contains("● on pace") || pace.contains("▲") || pace.contains("▼"), "\(pace)")
            #expect(pace.contains("left") && pace.contains("of 4:00"), "\(pace)")

            // A+ makes the notes larger; the size is remembered when the page is opened again.
            let size = "getComputedStyle(document.getElementById('notes')).fontSize"
            #expect(try await chromium.evaluate(page, size) as? String == "20px")
            try await Self.tap(chromium, page, "larger")
            try await Self.tap(chromium, page, "larger")
            #expect(try await chromium.evaluate(page, size) as? String == "24px")
            try await Self.tap(chromium, page, "smaller")
            #expect(try await chromium.evaluate(page, size) as? String == "22px")
            try await chromium.reload(page)
            _ = try await Self.pictures(chromium, page, count: 1)
            #expect(try await chromium.evaluate(page, size) as? String == "22px", "the notes' size was not remembered")

            // A tap on next: the presenter goes on; a swipe left on the picture goes on, right goes back.
            var mark = presenter.console.all.count
            try await Self.tap(chromium, page, "next")
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 2 of 3") }
            let picture = try await Self.centre(chromium, page, "now-picture")
            let drawn = "window.edkRemotePictures || 0"
            mark = presenter.console.all.count
            var pictures = try await chromium.evaluate(page, drawn) as? Int ?? 0
            try await chromium.touch(page, from: (picture.x + 50, picture.y), to: (picture.x - 50, picture.y + 5))
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 3 of 3") }
            _ = try await Self.pictures(chromium, page, count: pictures + 1)
            mark = presenter.console.all.count
            pictures = try await chromium.evaluate(page, drawn) as? Int ?? 0
            try await chromium.touch(page, from: (picture.x - 50, picture.y), to: (picture.x + 50, picture.y))
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 2 of 3") }
            // A short or mostly vertical move is not a swipe.
            try await chromium.touch(page, from: (picture.x, picture.y - 20), to: (picture.x + 20, picture.y + 30))
            let sent = try await chromium.evaluate(page, "window.edkRemoteSent.join(',')") as? String
            #expect(sent == "next,next,previous", "the page sent \(sent ?? "nothing")")
            _ = try await Self.waitForPage(chromium, page, "document.getElementById('notes').textContent", "slide 2's notes") {
                $0.hasPrefix("The demo:")
            }
            // A picture drawn since the swipe back: slide 2 and the next one (a render a newer one replaced is
            // never sent, so only "one more" can be waited for).
            _ = try await Self.pictures(chromium, page, count: pictures + 1)
            if let path = ProcessInfo.processInfo.environment["EDK_REMOTE_SCREENSHOT"], !path.isEmpty {
                try await chromium.screenshot(page).write(to: URL(fileURLWithPath: path))
            }
            #expect(ServedHostileTests.pngSize(try await chromium.screenshot(page)).map { [$0.0, $0.1] } == [360, 740])

            // Freeze, blank and the clock's pause: the core acts (the status line says so), the page shows it
            // with a word as well as a look.
            for (id, word, label) in [("freeze", "frozen on slide 2", "Unfreeze"), ("blank", "blackout", "Show"),
                                      ("pause", "(paused)", "Resume clock")] {
                mark = presenter.console.all.count
                try await Self.tap(chromium, page, id)
                _ = try await presenter.waitForLine(from: mark) { $0.contains(word) }
                let shown = try await Self.waitForPage(chromium, page, "document.getElementById('\(id)').getAttribute('aria-pressed') + "
                    + "' ' + document.getElementById('\(id)').textContent", "\(id) pressed") { $0.hasPrefix("true") }
                #expect(shown == "true " + label)
                mark = presenter.console.all.count
                try await Self.tap(chromium, page, id)
                _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 2 of 3") && !$0.contains(word) }
            }

            // Hostile messages on the remote's own socket (with the token) are closed with a reason.
            for message in ["{\"type\":\"command\",\"name\":\"Freeze\"}", "{\"type\":\"command\",\"name\":1}",
                            "{\"type\":\"command\",\"name\":\"quit\"}", "not json",
                            "{\"type\":\"command\",\"name\":\"freeze\",\"pad\":\"" + String(repeating: "x", count: 400) + "\"}"] {
                let literal = String(data: try JSONSerialization.data(withJSONObject: [message]), encoding: .utf8) ?? "[]"
                let closed = try await chromium.evaluate(page, "new Promise(done => { const token = new URLSearchParams(location.search)"
                    + ".get('token'); const ws = new WebSocket('ws://' + location.host + '/remote/ws?token=' + encodeURIComponent(token)); "
                    + "ws.onopen = () => ws.send(\(literal)[0]); ws.onclose = e => done(e.code + ' ' + e.reason) })",
                    awaitPromise: true) as? String ?? ""
                let parts = closed.split(separator: " ", maxSplits: 1)
                #expect(["1003", "1009"].contains(parts.first.map(String.init) ?? ""), "\(message.prefix(40)): closed \(closed)")
                #expect(parts.count == 2 && parts[1].count > 5, "\(message.prefix(40)): no reason in \(closed)")
            }
            // The speaker's page is untouched and still drives the talk.
            mark = presenter.console.all.count
            try await Self.tap(chromium, page, "next")
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 3 of 3") }
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
    }
}
