import ExtDisplayTestSupport
import Foundation
import Testing

/// Zoom from the phone remote (issue 36, part 4) on a real `present --serve`: the remote open in headless Chromium at
/// 360×740 with touch emulation (`Input.dispatchTouchEvent` with two touch points), an audience page beside it. A
/// two-finger pinch on the current slide's picture zooms what the room sees (the core's zoom, read back from the
/// remote's state and the presenter's status line; the audience page paints the zoomed picture), a two-finger drag
/// pans it, a double tap shows the whole slide; hostile zoom messages are answered with an error, the socket stays
/// open and the zoom is kept. Part of the serialized ink suite; fails (never skips) when Chromium is missing.
extension ChromiumInkTests {
    /// The remote's `drawArea` once it satisfies `match` (the state follows the core's zoom).
    static func drawArea(_ chromium: Chromium, _ remote: Chromium.Page, _ what: String,
                         _ match: @escaping ([Double]) -> Bool) async throws -> [Double] {
        try await waitFor(what) { () async throws -> [Double]? in
            let area = try await Self.json(chromium, remote, "window.edkRemoteState && window.edkRemoteState.drawArea") as? [Double]
            return area.flatMap { $0.count == 8 && match($0) ? $0 : nil }
        }
    }

    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 0.02) -> Bool { abs(a - b) <= tolerance }

    @Test("the remote: a pinch zooms the room, a two-finger drag pans, a double tap shows the whole slide; hostile zoom")
    func zoomFromTheRemote() async throws {
        let chromium = try await Chromium.launch()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        do {
            let (audience, remote) = try await Self.audienceAndRemote(chromium, presenter)
            _ = try await Self.drawArea(chromium, remote, "the whole slide in the remote's picture") { $0 == [0, 0, 1, 1, 0, 0, 1, 1] }
            let box = try await Self.json(chromium, remote, "(() => { const r = document.getElementById('now-picture')"
                + ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height] })()") as? [Double] ?? []
            try #require(box.count == 4)
            func at(_ fx: Double, _ fy: Double) -> (x: Double, y: Double) { (box[0] + box[2] * fx, box[1] + box[3] * fy) }
            let before = try await ChromiumDisplayTests.screenshot(chromium, audience, "remote-zoom-before.png")
            let paintsBefore = try await chromium.paints(audience).last?.count ?? 0

            // A pinch about the picture's centre, the fingers' spread doubled: 2× about the centre, the rectangle
            // 0.25…0.75 both ways.
            var mark = presenter.console.all.count
            try await chromium.twoFingers(remote, from: [at(0.4, 0.5), at(0.6, 0.5)], to: [at(0.3, 0.5), at(0.7, 0.5)])
            let zoomed = try await Self.drawArea(chromium, remote, "the remote's picture zoomed 2×") { Self.near($0[2], 2) }
            #expect(Self.near(zoomed[0], -0.5) && Self.near(zoomed[1], -0.5) && Self.near(zoomed[3], 2), "\(zoomed)")
            _ = try await presenter.waitForLine(from: mark) { $0.contains("zoom 2x") }
            let sent = try await Self.json(chromium, remote, "window.edkZoomSent.map(t => JSON.parse(t))") as? [[String: Any]] ?? []
            let last = sent.last?["rect"] as? [Double] ?? []
            #expect(!sent.isEmpty && sent.count <= 10, "\(sent.count) zoom messages for one pinch of 8 moves")
            #expect(last.count == 4 && Self.near(last[0], 0.25) && Self.near(last[1], 0.25) && Self.near(last[2], 0.5), "\(last)")
            // The room's page paints the zoomed picture: not the whole slide's.
            _ = try await ChromiumDisplayTests.waitForPaint(chromium, audience, after: paintsBefore)
            let after = try await ChromiumDisplayTests.screenshot(chromium, audience, "remote-zoom-after.png")
            #expect(try Data(contentsOf: after) != Data(contentsOf: before), "the audience page did not change with the zoom")
            // No slide was turned and nothing was drawn by the two fingers.
            #expect(try await chromium.evaluate(remote, "window.edkRemoteSent.join(',') + window.edkInkSent.length") as? String == "0")

            // Two fingers dragged left by a quarter of the picture: the room's view moves right by a quarter of what
            // it shows (0.125 of the slide), the zoom kept.
            mark = presenter.console.all.count
            try await chromium.twoFingers(remote, from: [at(0.45, 0.5), at(0.65, 0.5)], to: [at(0.2, 0.5), at(0.4, 0.5)])
            let panned = try await Self.drawArea(chromium, remote, "the remote's picture panned") { Self.near($0[0], -0.75) }
            #expect(Self.near(panned[2], 2) && Self.near(panned[1], -0.5), "\(panned)")

            // Hostile zoom messages on the remote's own socket: each answered with an error, the socket open, the
            // zoom kept.
            for hostile in [#"{"type":"zoom","rect":[0.1,0.1,0.5,1e300]}"#, #"{"type":"zoom","rect":["a",0,1,1]}"#,
                            #"{"type":"zoom","rect":[0.6,0.1,0.5,0.5]}"#, #"{"type":"zoom","whole":"yes"}"#,
                            #"{"type":"zoom","rect":[0.1,0.1,0.5]}"#, #"{"type":"zoom"}"#] {
                let answer = try await Self.sendOnOwnSocket(chromium, remote, hostile)
                #expect(answer.hasPrefix("1 zoom") || answer.hasPrefix("1 a zoom message"), "\(hostile): \(answer)")
            }
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("remote: a message was refused: zoom") }
            #expect(try await Self.drawArea(chromium, remote, "the zoom kept") { _ in true } == panned)

            // A double tap: the whole slide again.
            mark = presenter.console.all.count
            try await chromium.touch(remote, from: at(0.5, 0.5), to: at(0.5, 0.5))
            try await chromium.touch(remote, from: at(0.5, 0.5), to: at(0.5, 0.5))
            _ = try await Self.drawArea(chromium, remote, "the whole slide again") { $0 == [0, 0, 1, 1, 0, 0, 1, 1] }
            #expect(try await chromium.evaluate(remote, "window.edkZoomSent[window.edkZoomSent.length - 1]") as? String
                    == #"{"type":"zoom","whole":true}"#)
            #expect(try await chromium.evaluate(remote, "window.edkRemoteSent.join(',')") as? String == "")
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
    }
}
