import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A stroke drawn on the phone remote's page reaches the cable display (issue 36): `present --serve` on Xorg-dummy
/// (DUMMY1 1280×720 at +1920+0), its remote in headless Chromium at 360×740 with touch emulation; with Draw on, a
/// finger dragged across the current slide's picture draws a line that DUMMY1's pixels show where it was drawn, and
/// the talk stays on slide 1. Part of the serialized ink suite on Xorg-dummy; fails (never skips) when Xorg-dummy or
/// Chromium is missing.
extension XorgInkTests {
    @Test func aStrokeDrawnOnTheRemotePageReachesTheCableDisplay() async throws {
        let server = try XorgServer.start()
        defer { server.stop() }
        let presenter = try XorgPresenterTests.served(on: server)
        defer { presenter.terminate() }
        let line = try #require(presenter.waitForLine { $0.hasPrefix("speaker remote") }, "lines: \(presenter.lines)")
        let remoteURL = try #require(line.range(of: "http://").map { String(line[$0.lowerBound...]) })
        #expect(presenter.waitForLine { $0.hasPrefix("slide 1 of 3") && $0.contains("external: DUMMY1") } != nil)
        try server.waitForWindow("extdisplay present: console")
        #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,720", Self.red) == 0,
                "red on DUMMY1 before anything was drawn")

        let chromium = try await Chromium.launch()
        do {
            let remote = try await chromium.open(remoteURL, width: 360, height: 740)
            try await chromium.emulateTouch(remote)
            try await waitUntil("the remote's picture and draw area") {
                try await chromium.evaluate(remote, "!!(window.edkRemotePictures && window.edkRemoteState && window.edkRemoteState.drawArea)")
                    as? Bool == true
            }
            func box(_ id: String) async throws -> [Double] {
                try await chromium.evaluate(remote, "(() => { const r = document.getElementById('\(id)').getBoundingClientRect(); "
                    + "return [r.left, r.top, r.width, r.height] })()") as? [Double] ?? []
            }
            let draw = try await box("draw")
            try #require(draw.count == 4)
            try await chromium.touch(remote, from: (draw[0] + draw[2] / 2, draw[1] + draw[3] / 2), to: (draw[0] + draw[2] / 2, draw[1] + draw[3] / 2))
            try await waitUntil("Draw on") {
                try await chromium.evaluate(remote, "document.getElementById('draw').getAttribute('aria-pressed')") as? String == "true"
            }
            // Across the picture's middle from a fifth to four fifths of its width: on DUMMY1 the line at y 360
            // from x ≈ 1920 + 256 to 1920 + 1024.
            let picture = try await box("now-picture")
            try #require(picture.count == 4)
            let y = picture[1] + picture[3] / 2
            try await chromium.touch(remote, from: (picture[0] + picture[2] * 0.2, y), to: (picture[0] + picture[2] * 0.8, y), steps: 12)
            let drawn = try pollReading(15, every: 0.2, {
                try XorgPresenterTests.scan(try server.screenshot(), region: "2300,340,500,40", Self.red)
            }, until: { $0 >= 1_000 })
            #expect(drawn >= 1_000, "no ink line on DUMMY1: \(drawn) ink pixels; lines: \(presenter.lines.suffix(5))")
            #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "1920,0,1280,300", Self.red) == 0,
                    "ink where none was drawn")
            #expect(try XorgPresenterTests.scan(try server.screenshot(), region: "1920,330,200,60", Self.red) == 0,
                    "the line starts left of where the finger touched")
            #expect(!presenter.lines.contains { $0.hasPrefix("slide 2 of") }, "the stroke turned the page")
        } catch {
            await chromium.quit()
            throw error
        }
        await chromium.quit()
        try server.key("ctrl+q")
        #expect(presenter.waitForExit(timeout: 10))
    }
}
