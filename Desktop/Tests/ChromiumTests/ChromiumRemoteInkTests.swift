import ExtDisplayTestSupport
import Foundation
import Testing

/// Drawing from the phone remote (issue 36, item 1) on a real `present --serve`: the remote open in headless
/// Chromium at 360×740 with touch emulation, an audience page beside it. With Draw on, a horizontal finger drag on
/// the current slide's picture is a stroke — it reaches the core and the audience page draws it where it was
/// drawn (pixels of its screenshot), the remote's own next picture shows it — and never turns the page. The
/// tools are the core's keys; hostile drawing messages on the remote's socket are answered with an error, the
/// socket stays open and the talk is untouched. Part of the serialized ink suite; fails (never skips) when Chromium
/// is missing. `EDK_REMOTE_INK_SCREENSHOT=PATH` keeps the remote's screenshot after the stroke
/// (docs/images/remote-ink-360x740.png comes from it).
extension ChromiumInkTests {
    /// A value the remote page computes, as JSON text.
    static func json(_ chromium: Chromium, _ page: Chromium.Page, _ expression: String) async throws -> Any? {
        let text = try await chromium.evaluate(page, "JSON.stringify(\(expression))") as? String ?? "null"
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// An audience page at 1280×720 (connected and painted) and the remote at 360×740 with touch emulation (its first
    /// picture drawn).
    static func audienceAndRemote(_ chromium: Chromium, _ presenter: ServedPresenterProcess) async throws
        -> (audience: Chromium.Page, remote: Chromium.Page) {
        let audience = try await chromium.open(presenter.url, width: 1280, height: 720)
        _ = try await presenter.waitForLine { $0.contains("connected: 1280×720") }
        _ = try await ChromiumDisplayTests.waitForPaint(chromium, audience)
        let remote = try await chromium.open(presenter.remoteURL, width: 360, height: 740)
        try await chromium.emulateTouch(remote)
        _ = try await ChromiumDisplayTests.pictures(chromium, remote, count: 1)
        return (audience, remote)
    }

    /// Sends `text` on a remote socket of its own (opened from the remote page with its token) and returns the
    /// answer: `"1 MESSAGE"` for an error on a socket still open, `"closed CODE REASON"` when it was closed.
    static func sendOnOwnSocket(_ chromium: Chromium, _ remote: Chromium.Page, _ text: String) async throws -> String {
        let literal = String(data: try JSONSerialization.data(withJSONObject: [text]), encoding: .utf8) ?? "[]"
        return try await chromium.evaluate(remote, "new Promise(done => { const token = new URLSearchParams(location.search)"
            + ".get('token'); const ws = new WebSocket('ws://' + location.host + '/remote/ws?token=' + encodeURIComponent(token)); "
            + "ws.onopen = () => ws.send(\(literal)[0]); ws.onmessage = e => { const m = JSON.parse(e.data); "
            + "if (m.type === 'error') { done(ws.readyState + ' ' + m.message); ws.close(); } }; "
            + "ws.onclose = e => done('closed ' + e.code + ' ' + e.reason) })", awaitPromise: true) as? String ?? ""
    }

    /// How many red pixels (the pen's first colour, within a tolerance) the remote's current picture has in a column
    /// band around x = `fraction` of its width.
    static func redInRemotePicture(_ chromium: Chromium, _ page: Chromium.Page, atX fraction: Double) async throws -> Int {
        try await chromium.evaluate(page, "(() => { const c = document.getElementById('now-picture'); "
            + "const x = Math.round(c.width * \(fraction)); const d = c.getContext('2d').getImageData(x - 2, 0, 5, c.height).data; "
            + "let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] > 180 && d[i + 1] < 80 && d[i + 2] < 80) n++; return n })()")
            as? Int ?? -1
    }

    @Test("the remote at 360×740: Draw on, a drag on the picture draws on every display and never turns the page; tools; hostile ink")
    func drawingFromTheRemote() async throws {
        let chromium = try await Chromium.launch()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        do {
            let (audience, remote) = try await Self.audienceAndRemote(chromium, presenter)
            // The state says where the slide lies in the picture: a 16:9 slide fills the 16:9 picture.
            let area = try await waitFor("the remote's draw area") { () async throws -> [Double]? in
                try await Self.json(chromium, remote, "window.edkRemoteState && window.edkRemoteState.drawArea") as? [Double]
            }
            #expect(area == [0, 0, 1, 1, 0, 0, 1, 1], "\(area)")
            let blank = try await ChromiumDisplayTests.screenshot(chromium, audience, "remote-ink-before.png")
            #expect(try countColours(blank, [Self.red], region: "300,330,680,60")[0] == 0)

            // Draw on: the toggle says so, the tools appear, every target thumb-sized and nothing off the screen.
            try await ChromiumDisplayTests.tap(chromium, remote, "draw")
            #expect(try await chromium.evaluate(remote, "document.getElementById('draw').getAttribute('aria-pressed')") as? String == "true")
            let boxes = try await Self.json(chromium, remote, "['draw','tool-pen','tool-highlighter','tool-eraser','tool-colour','tool-undo','next']"
                + ".map(id => { const r = document.getElementById(id).getBoundingClientRect(); return [r.top, r.bottom, r.width, r.height] })")
                as? [[Double]] ?? []
            #expect(boxes.count == 7)
            for box in boxes where box.count == 4 {
                #expect(box[2] >= 48 && box[3] >= 48 && box[0] >= 0 && box[1] <= 740, "\(box)")
            }
            #expect(try await chromium.evaluate(remote, "document.documentElement.scrollHeight") as? Int == 740)
            #expect(try await chromium.evaluate(remote, "getComputedStyle(document.getElementById('now-picture')).touchAction") as? String == "none")

            // A horizontal drag across the picture's middle, from a fifth to four fifths of its width: a stroke, not
            // a swipe (it is far longer than one).
            let box = try await Self.json(chromium, remote, "(() => { const r = document.getElementById('now-picture')"
                + ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height] })()") as? [Double] ?? []
            try #require(box.count == 4)
            let picturesBefore = try await chromium.evaluate(remote, "window.edkRemotePictures || 0") as? Int ?? 0
            let y = box[1] + box[3] / 2
            try await chromium.touch(remote, from: (box[0] + box[2] * 0.2, y), to: (box[0] + box[2] * 0.8, y), steps: 12)
            let message = try await Self.waitForInk(chromium, audience, strokes: 1)
            let shot = try await ChromiumDisplayTests.screenshot(chromium, audience, "remote-ink-one.png")
            #expect(try countColours(shot, [Self.red], region: "300,330,680,60")[0] > 1_000, "the stroke is not on the audience page")
            #expect(try countColours(shot, [Self.red], region: "0,0,1280,300")[0] == 0, "red where nothing was drawn")
            #expect(try countColours(shot, [Self.red], region: "0,330,220,60")[0] == 0, "the stroke starts at a fifth")
            let object = try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
            let start = ((object?["strokes"] as? [[String: Any]])?.first?["p"] as? [[Double]])?.first ?? []
            #expect(start.count == 3 && abs(start[0] - 0.2) < 0.02 && abs(start[1] - 0.5) < 0.02,
                    "the stroke does not start where the finger touched: \(message.prefix(160))")

            // The page sent a few batched messages: the first presses, the last lifts, one stroke.
            let sent = try await Self.json(chromium, remote, "window.edkInkSent.map(t => JSON.parse(t))") as? [[String: Any]] ?? []
            #expect(!sent.isEmpty && sent.count <= 14, "\(sent.count) messages for 13 touch events")
            #expect(sent.first?["down"] as? Bool == true && sent.last?["end"] as? String == "up")
            #expect(Set(sent.compactMap { $0["stroke"] as? Int }).count == 1)
            #expect(sent.reduce(0) { $0 + (($1["points"] as? [Any])?.count ?? 0) } / 3 >= 2)
            let bytes = try await chromium.evaluate(remote, "window.edkInkSent.map(t => t.length).join(' ')") as? String ?? ""
            print("remote ink: a 14-event touch drag went out as \(sent.count) messages of \(bytes) bytes")

            // No slide was turned: the remote still says slide 1, sent no command, and the presenter did not move.
            #expect(try await chromium.evaluate(remote, "window.edkRemoteSent.join(',')") as? String == "")
            #expect(try await chromium.evaluate(remote, "document.getElementById('where').textContent") as? String == "Slide 1 of 3")
            #expect(!presenter.console.all.contains { $0.hasPrefix("slide 2 of") }, "the drag turned the page")

            // The remote's own next picture has the stroke (the presenter's rendering), where it was drawn.
            _ = try await ChromiumDisplayTests.pictures(chromium, remote, count: picturesBefore + 1)
            try await waitUntil("the stroke in the remote's picture") {
                try await Self.redInRemotePicture(chromium, remote, atX: 0.5) > 0
            }
            #expect(try await Self.redInRemotePicture(chromium, remote, atX: 0.1) == 0)
            if let path = ProcessInfo.processInfo.environment["EDK_REMOTE_INK_SCREENSHOT"], !path.isEmpty {
                try await chromium.screenshot(remote).write(to: URL(fileURLWithPath: path))
            }

            // The tools are the core's keys: the highlighter is chosen (the page shows it), undo takes the stroke back
            // from every display.
            try await ChromiumDisplayTests.tap(chromium, remote, "tool-highlighter")
            _ = try await ChromiumDisplayTests.waitForPage(chromium, remote, "document.getElementById('tool-highlighter')"
                + ".getAttribute('aria-pressed')", "the highlighter chosen") { $0 == "true" }
            #expect(try await chromium.evaluate(remote, "window.edkRemoteState.inkTool") as? String == "highlighter")
            try await ChromiumDisplayTests.tap(chromium, remote, "tool-undo")
            _ = try await Self.waitForInk(chromium, audience, strokes: 0)
            #expect(try await chromium.evaluate(remote, "window.edkRemoteKeys.join(',')") as? String == "highlighter,undo")

            // A lighter touch (the screen reports a force of 0.3) with the pen again: the page sends that pressure and
            // the pen's line is thinner where it was pressed lightly (40 % + 60 % of the pressure, as on every display).
            try await ChromiumDisplayTests.tap(chromium, remote, "tool-pen")
            _ = try await ChromiumDisplayTests.waitForPage(chromium, remote, "window.edkRemoteState.inkTool", "the pen chosen") { $0 == "pen" }
            let sentBefore = try await chromium.evaluate(remote, "window.edkInkSent.length") as? Int ?? 0
            try await chromium.touch(remote, from: (box[0] + box[2] * 0.3, box[1] + box[3] * 0.25),
                                     to: (box[0] + box[2] * 0.7, box[1] + box[3] * 0.25), steps: 8, force: 0.3)
            let light = try await Self.waitForInk(chromium, audience, strokes: 1)
            let pressures = try await Self.json(chromium, remote, "window.edkInkSent.slice(\(sentBefore)).flatMap(t => "
                + "JSON.parse(t).points.filter((v, i) => i % 3 === 2))") as? [Double] ?? []
            #expect(!pressures.isEmpty && pressures.allSatisfy { abs($0 - 0.3) < 0.011 }, "pressures sent: \(pressures)")
            let lightStroke = try JSONSerialization.jsonObject(with: Data(light.utf8)) as? [String: Any]
            let widths = ((lightStroke?["strokes"] as? [[String: Any]])?.first?["p"] as? [[Double]])?.map { $0[2] } ?? []
            #expect(!widths.isEmpty && widths.allSatisfy { abs($0 - 0.006 * (0.4 + 0.6 * 0.3)) < 0.0002 }, "widths: \(widths)")
            try await ChromiumDisplayTests.tap(chromium, remote, "tool-undo")
            _ = try await Self.waitForInk(chromium, audience, strokes: 0)

            // Pointer events of one frame share one message: a press, ten moves and the lift dispatched at once go out
            // as one message with eleven points, pressed and lifted.
            let batchBefore = try await chromium.evaluate(remote, "window.edkInkSent.length") as? Int ?? 0
            _ = try await chromium.evaluate(remote, "(() => { const c = document.getElementById('now-picture'), r = c.getBoundingClientRect(); "
                + "const at = (type, i) => c.dispatchEvent(new PointerEvent(type, {pointerId: 77, pointerType: 'touch', isPrimary: true, "
                + "bubbles: true, cancelable: true, pressure: 0.5, clientX: r.left + r.width * (0.3 + 0.04 * i), clientY: r.top + r.height * 0.75})); "
                + "at('pointerdown', 0); for (let i = 1; i <= 10; i++) at('pointermove', i); at('pointerup', 10); return 1 })()")
            _ = try await Self.waitForInk(chromium, audience, strokes: 1)
            let batch = try await Self.json(chromium, remote, "window.edkInkSent.slice(\(batchBefore)).map(t => JSON.parse(t))")
                as? [[String: Any]] ?? []
            #expect(batch.count == 1 && (batch.first?["points"] as? [Any])?.count == 33, "\(batch)")
            #expect(batch.first?["down"] as? Bool == true && batch.first?["end"] as? String == "up")
            try await ChromiumDisplayTests.tap(chromium, remote, "tool-undo")
            _ = try await Self.waitForInk(chromium, audience, strokes: 0)

            // Hostile drawing messages on the remote's own socket: each is answered with an error, the socket stays
            // open; the first is said on the presenter's output, once.
            var mark = presenter.console.all.count
            for hostile in [#"{"type":"ink","stroke":99,"points":[0.5,0.5,1]}"#, #"{"type":"ink","stroke":1,"down":true,"points":[0.5,1e300,1]}"#,
                            #"{"type":"ink","stroke":1,"down":true,"points":[0.5,0.5]}"#, #"{"type":"key","name":"quit"}"#,
                            #"{"type":"ink","stroke":"x","down":true,"points":[0.5,0.5,1]}"#,
                            #"{"type":"ink","stroke":1,"down":true,"points":["# + Array(repeating: "0,0,0", count: 200).joined(separator: ",") + "]}"] {
                let answer = try await Self.sendOnOwnSocket(chromium, remote, hostile)
                #expect(answer.hasPrefix("1 ") && answer.count > 12, "\(hostile.prefix(50)): \(answer)")
            }
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("remote: a message was refused: ink stroke 99") }
            // The talk is untouched: no ink on the slide, still slide 1, and the remote still drives it.
            #expect(try await Self.inkLog(chromium, audience).last.map { $0.contains("\"strokes\":[]") } == true)

            // Frozen on slide 1 while the speaker goes on to slide 2, the picture is not the slide ink would go to: a
            // drag draws nothing and the page says why.
            try await ChromiumDisplayTests.tap(chromium, remote, "freeze")
            mark = presenter.console.all.count
            try await ChromiumDisplayTests.tap(chromium, remote, "next")
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 2 of 3") && $0.contains("frozen on slide 1") }
            try await waitUntil("no draw area while frozen") {
                try await chromium.evaluate(remote, "window.edkRemoteState.slide === 2 && window.edkRemoteState.drawArea == null") as? Bool == true
            }
            let sentFrozen = try await chromium.evaluate(remote, "window.edkInkSent.length") as? Int ?? -1
            try await chromium.touch(remote, from: (box[0] + box[2] * 0.2, y), to: (box[0] + box[2] * 0.8, y))
            #expect(try await chromium.evaluate(remote, "window.edkInkSent.length") as? Int == sentFrozen)
            #expect(try await chromium.evaluate(remote, "window.edkRemoteSaid[window.edkRemoteSaid.length - 1]") as? String
                    == "Drawing works while the room sees the current slide")
            try await ChromiumDisplayTests.tap(chromium, remote, "freeze")
            mark = presenter.console.all.count
            try await ChromiumDisplayTests.tap(chromium, remote, "previous")
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 1 of 3") && !$0.contains("frozen") }
            try await ChromiumDisplayTests.tap(chromium, remote, "draw")
            mark = presenter.console.all.count
            try await chromium.touch(remote, from: (box[0] + box[2] * 0.8, y), to: (box[0] + box[2] * 0.2, y))
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide 2 of 3") }
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
    }
}
