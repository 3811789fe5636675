#if canImport(CSDL2)
import DesktopImages
import ExtDisplayTestSupport
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation
import PresenterRuntime
import Testing

/// Video on slides, headless: `extdisplay present --simulate --snapshot` on a deck whose slide is a clip the test
/// made (one colour a second), read back from the snapshots at the steps' virtual times; a PDF page given a clip
/// by hand plays inside the page where its rectangle says; a file that is not a video gets a message and the
/// talk goes on.
@Suite("Video on slides, headless", .serialized)
struct SlideClipTests {
    /// The colour of each of the clip's 25 seconds (the palette over and over).
    static let seconds = (0..<25).map { TestClip.palette[$0 % TestClip.palette.count] }

    /// Runs `extdisplay present DECK --simulate laptop,hdmi-tv-1080p --snapshot shots --keys KEYS` headless.
    static func present(_ deck: URL, keys: String) throws -> PlayCommandTests.Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("present-clip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = try Repository.extdisplay().path
        let errors = folder.appendingPathComponent("stderr")
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = [binary, "present", deck.path, "--simulate", "laptop,hdmi-tv-1080p", "--snapshot",
                       folder.appendingPathComponent("shots").path, "--keys", keys].map(quote).joined(separator: " ")
        let result = try Shell.run(["sh", "-c", "DISPLAY= WAYLAND_DISPLAY= exec timeout -s KILL 120 \(command) 2>\(quote(errors.path))"])
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return PlayCommandTests.Run(status: result.status, output: result.output, errors: stderr, folder: folder)
    }

    /// How many pixels of `bitmap` match `color`.
    static func count(_ color: UInt32, in bitmap: Bitmap) -> Int {
        var n = 0
        for y in stride(from: 0, to: bitmap.height, by: 2) {
            for x in stride(from: 0, to: bitmap.width, by: 2) {
                let p = bitmap.pixel(x: x, y: y)
                if TestClip.matches(p.red, p.green, p.blue, color, tolerance: 30) { n += 1 }
            }
        }
        return n
    }

    @Test func theSlidesClipShowsTheSecondItsTimelineIsAtAndPausesOnV() throws {
        let clip = try TestClip.make(fps: 5, colors: Self.seconds)
        let deck = clip.url.deletingLastPathComponent().appendingPathComponent("talk.md")
        try "# Intro\nThe next slide plays a clip.\n---\n![the demo](clip.webm)\n".write(to: deck, atomically: true, encoding: .utf8)
        // Each step is one refresh period (1/60 s) of virtual time, wait:S S seconds more. Step 1 enters the clip's
        // slide (the clip at 0 s); step 2 lets 2.5 s pass (the clip at 2.5 s); V pauses it there; 5 s later it still
        // shows second 2; then wait:10.6 with the clip playing again (V) shows second 13.
        let run = try Self.present(deck, keys: "next,wait:2.5,v,wait:5,v,wait:10.6")
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let expected: [(step: Int, second: Int)] = [(1, 0), (2, 2), (3, 2), (4, 2), (6, 13)]
        for (step, second) in expected {
            let tv = try run.snapshot(step, "hdmi-tv-1080p")
            PlayCommandTests.expectCentre(tv, Self.seconds[second], "step \(step), clip second \(second)")
            // A block of the clip, not a stray pixel: a quarter of the TV at least.
            #expect(Self.count(Self.seconds[second], in: tv) > 1920 * 1080 / 4 / 4, "step \(step)")
            // The console shows it in its current slide.
            let console = try run.snapshot(step, "console")
            #expect(Self.count(Self.seconds[second], in: console) > 2000, "console, step \(step)")
        }
        // Before its slide the clip is not on the TV.
        let before = try run.snapshot(0, "hdmi-tv-1080p")
        #expect(Self.count(Self.seconds[0], in: before) < 100)
    }

    @Test func aTextFileNamedWebmGetsAMessageAndTheTalkGoesOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-clip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "this is not a video\n".write(to: folder.appendingPathComponent("bad.webm"), atomically: true, encoding: .utf8)
        let truncated = try TestClip.make(fps: 5, colors: [0xFF0000, 0x00FF00]).truncated(to: 0.05)
        try FileManager.default.copyItem(at: truncated, to: folder.appendingPathComponent("cut.webm"))
        let deck = folder.appendingPathComponent("talk.md")
        try "# Bad\n![bad](bad.webm)\n---\n# Cut\n![cut](cut.webm)\n---\n# After\nstill here\n"
            .write(to: deck, atomically: true, encoding: .utf8)
        let run = try Self.present(deck, keys: "v,next,next")
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let problems = run.output.split(separator: "\n").filter { $0.hasPrefix("slide video: ") }
        #expect(problems.count == 2 && problems.allSatisfy { $0.hasSuffix("(the talk goes on without it)") }, "\(run.output)")
        #expect(problems.contains { $0.contains("bad.webm cannot be played") }, "\(run.output)")
        #expect(problems.contains { $0.contains("cut.webm") }, "\(run.output)")
        #expect(run.output.contains("003 next: slide 3 of 3"), "\(run.output)")
    }

    /// The whole path from a PDF file: a link annotation naming the clip with pdfpc's `?autostart`, read by the
    /// deck reader (`mutool show`), played by `present` headless where its rectangle is on the page.
    @Test func aPDFLinkToAClipPlaysOnItsPage() throws {
        let clip = try TestClip.make(fps: 5, colors: Self.seconds)
        let folder = clip.url.deletingLastPathComponent()
        // 800×600 points of grey; the link's /Rect [400 60 720 300] (PDF points, origin bottom left) is, as
        // fractions of the page from the top left, x 0.5, y 0.5, width 0.4, height 0.4.
        let page = MiniPDF.solid(40, 40, 40, width: 800, height: 600)
        let content = page.map { b in String(format: "%.4f %.4f %.4f rg %.2f %.2f %.2f %.2f re f", Double(b.r) / 255,
                                             Double(b.g) / 255, Double(b.b) / 255, b.x, b.y, b.width, b.height) }
            .joined(separator: "\n")
        let pdf = MiniPDF.assemble([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 800 600] /Contents 4 0 R /Annots [5 0 R] >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /Type /Annot /Subtype /Link /Rect [400 60 720 300] /Border [0 0 0] "
                + "/A << /S /URI /URI (\(clip.url.lastPathComponent)?autostart) >> >>"])
        let url = folder.appendingPathComponent("talk.pdf")
        try pdf.write(to: url)
        // Step 0 at 0 s shows the clip's second 0; wait:12.5 makes step 1 at 12.5 s (a step takes 1/60 s, a wait
        // its seconds more).
        let run = try Self.present(url, keys: "wait:12.5")
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        for (step, second) in [(0, 0), (1, 12)] {
            let tv = try run.snapshot(step, "hdmi-tv-1080p")
            // The clip's rectangle on the TV, by hand as in the test below: its middle (1233, 745).
            for (x, y) in [(1233, 745), (990, 745), (1480, 745)] {
                let p = tv.pixel(x: x, y: y)
                #expect(TestClip.matches(p.red, p.green, p.blue, Self.seconds[second], tolerance: 30),
                        "step \(step) at \(x),\(y): \(p), want \(TestClip.hex(Self.seconds[second]))")
            }
            let outside = tv.pixel(x: 500, y: 300)
            #expect(TestClip.matches(outside.red, outside.green, outside.blue, 0x282828, tolerance: 12),
                    "step \(step): the page outside the clip: \(outside)")
        }
    }

    /// A PDF page given a clip by hand (as the PDF readers fill ``PDFPage/clips``): its frames fill the clip's
    /// rectangle of the page as the TV draws it; the rest of the page is the page.
    @MainActor
    @Test func aPDFPagesClipPlaysWhereItsRectangleIsOnThePage() async throws {
        let clip = try TestClip.make(fps: 5, colors: [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00])
        let pdf = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.solid(40, 40, 40, width: 800, height: 600)],
                                                 width: 800, height: 600), name: "talk.pdf")
        let slideClip = SlideClip(url: clip.url, pageRect: SlideClip.Rect(x: 0.5, y: 0.5, width: 0.4, height: 0.4),
                                  autoplay: true)
        let page = PDFPage(document: pdf, index: 0, width: 800, height: 600, pageCount: 1, clips: [slideClip])
        let deck = Deck(title: "pdf", slides: [Slide(number: 1, blocks: [.page(page)])])
        let shots = try await HeadlessPresenter(deck: deck, displays: ["laptop", "hdmi-tv-1080p"],
                                                steps: [.wait(0.5), .wait(1)], secondsPerStep: 1).run()
        // The TV's safe frame, by hand: 2.5 % overscan of 1920×1080 is about 1824×1026 at (48, 27); the 4:3 page in
        // it about 1368×1026 at (276, 27); the clip's rectangle about x 960…1507, y 540…950 — its middle (1233, 745);
        // the 16:9 frames letterboxed in it about 547×308, y 591…899, black bars above and below.
        let expected: [(step: Int, color: UInt32)] = [(0, 0xFF0000), (1, 0x00FF00), (2, 0xFFFF00)]
        for (step, color) in expected {
            let tv = try #require(shots.first { $0.step == step && $0.display == "hdmi-tv-1080p" })
            let inside = tv.canvas.pixel(x: 1233, y: 745)
            #expect(TestClip.matches(inside.r, inside.g, inside.b, color), "step \(step): \(inside), want \(TestClip.hex(color))")
            for (x, y) in [(990, 745), (1480, 745), (1233, 620), (1233, 870)] {
                let p = tv.canvas.pixel(x: x, y: y)
                #expect(TestClip.matches(p.r, p.g, p.b, color), "step \(step) at \(x),\(y): \(p)")
            }
            // The letterbox bars inside the clip's rectangle.
            for (x, y) in [(1233, 555), (1233, 940)] {
                let p = tv.canvas.pixel(x: x, y: y)
                #expect(p.r < 16 && p.g < 16 && p.b < 16, "step \(step): no bar at \(x),\(y): \(p)")
            }
            // Outside the clip: the page's own grey.
            for (x, y) in [(500, 300), (900, 745), (1233, 500), (1560, 745)] {
                let p = tv.canvas.pixel(x: x, y: y)
                #expect(TestClip.matches(p.r, p.g, p.b, 0x282828, tolerance: 12), "step \(step) at \(x),\(y): \(p)")
            }
        }
    }
}
#endif
