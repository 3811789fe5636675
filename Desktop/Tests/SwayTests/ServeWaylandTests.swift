#if canImport(CSDL2)
import ExtDisplayTestSupport
import ExternalDisplayPresenter
import Foundation
import Testing

/// `extdisplay present --serve` beside the Wayland presenter (headless sway): browser viewers (the load client's
/// emulated pages, speaking the audience page's protocol) are displays of the same talk as the output's window:
/// they get the current slide on connect, a key on the Wayland console flips the output and every viewer, and
/// a viewer that closes is reported gone while the output keeps the talk.
@Suite("Serve beside the Wayland presenter (headless sway)", .serialized)
struct ServeWaylandTests {
    @Test func viewersAndTheOutputShowTheSameTalkAndFlipTogether() async throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let run = try PresentRun(on: sway, ["--display", "HEADLESS-2", "--serve", "127.0.0.1:0"], external: "HEADLESS-2")
        defer { run.stop() }
        let (client, reference, presenter) = (run.client, run.reference, run.presenter)
        let prefix = "serving the audience view at "
        #expect(await eventually { presenter.lines.contains { $0.hasPrefix(prefix) } }, "lines: \(presenter.lines)")
        let serving = try #require(presenter.lines.first { $0.hasPrefix(prefix) })
        let url = String(serving.dropFirst(prefix.count).prefix { $0 != " " })

        let viewers = try await LoadClient.connect(count: 3, to: url, timeout: 20)
        // Every viewer is a display of the talk: connected, listed beside the output, shown slide 1's picture.
        #expect(await viewers.wait(timeout: 20) { $0.lastFrame != nil && $0.lastPNG != nil },
                "viewers: \(viewers.snapshot.map { ($0.isOpen, $0.lastFrame as Any) })")
        #expect(await eventually { presenter.lines.filter { $0.contains(" connected: 1280×720") }.count == 3 }, "lines: \(presenter.lines)")
        #expect(await eventually { presenter.lines.contains { $0.hasPrefix("slide 1 of 3") && $0.contains("HEADLESS-2") && $0.contains("browser-") } },
                "lines: \(presenter.lines)")
        let firstFrames = viewers.snapshot.map(\.lastFrame)
        #expect(Set(firstFrames).count == 1, "viewers of one mode show different frames: \(firstFrames)")

        // A key on the Wayland console: the output and every viewer flip to slide 2.
        try client.key("Right")
        #expect(await eventually { presenter.lines.contains { $0.hasPrefix("slide 2 of 3") } }, "lines: \(presenter.lines)")
        #expect(await viewers.wait(timeout: 20) { $0.lastFrame != nil && $0.lastFrame != firstFrames.first ?? nil },
                "viewers did not get slide 2: \(viewers.snapshot.map { $0.lastFrame as Any })")
        var shot = try client.screenshot("HEADLESS-2")
        _ = try await eventually { shot = try client.screenshot("HEADLESS-2"); return try reference.compare(shot, slide: 1).matches }
        let comparison = try reference.compare(shot, slide: 1)
        #expect(comparison.matches, "HEADLESS-2 differs from the headless view of slide 2 in regions \(comparison.differing)")
        #expect(comparison.notesPixels == 0)

        // The viewers close: each reported gone; the output keeps the talk.
        await viewers.close()
        #expect(await eventually { presenter.lines.filter { $0.contains(" gone: ") }.count == 3 }, "lines: \(presenter.lines)")
        #expect(await eventually { presenter.lines.contains { $0.hasPrefix("slide 2 of 3") && $0.hasSuffix("external: HEADLESS-2") } },
                "lines: \(presenter.lines)")
        try client.key("q", modifier: "ctrl")
        #expect(await eventually { presenter.hasEnded }, "still running after Ctrl-Q")
        #expect(presenter.wait() == 0, "stderr: \(presenter.stderr)")
    }
}
#endif
