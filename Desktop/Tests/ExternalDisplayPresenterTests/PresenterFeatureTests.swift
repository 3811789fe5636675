import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The page cache size option, the pointer on the console's own preview, and countdown colours that tell
/// every pace apart.
@Suite("Cache size, console pointer, pace colours")
@MainActor
struct PresenterFeatureTests {
    // MARK: --cache-mb

    @Test func cacheSizesOutsideTheRangeAreRefusedWithTheRange() {
        #expect(PageCacheSize.bytes(megabytes: 16) == .success(16 << 20))
        #expect(PageCacheSize.bytes(megabytes: 16_384) == .success(16_384 << 20))
        for (bad, word) in [(15, "too small"), (0, "too small"), (-3, "too small"), (Int.min, "too small"),
                            (16_385, "too large"), (Int.max, "too large")] {
            guard case .failure(let refusal) = PageCacheSize.bytes(megabytes: bad) else {
                Issue.record("\(bad) accepted")
                continue
            }
            #expect(refusal.description.contains(word) && refusal.description.contains("16…16384 MB"), "\(refusal)")
        }
    }

    @Test func loweringTheBudgetDropsTheOldestPagesAtOnce() {
        let fake = PageRasterCacheTests.FakeRenderer()
        // Pages are held compressed: each fake page is one pixel of its own then one colour, a stretch of one
        // pixel (2 words) and a run (2 words).
        let pageBytes = 16
        let cache = PageRasterCache(byteBudget: pageBytes * 10, lookahead: (0, 0)) { p, w, h throws(PopplerRasterizer.Failure) in
            try fake.render(p, w, h)
        }
        for i in 0..<8 { _ = cache.raster(for: PageRasterCacheTests.page(i), width: 160, height: 90) }
        #expect(cache.bytesHeld == pageBytes * 8)
        cache.byteBudget = pageBytes * 3
        #expect(cache.byteBudget == pageBytes * 3)
        #expect(cache.bytesHeld == pageBytes * 3)
        #expect(Set(cache.keys.map(\.index)) == [5, 6, 7], "the most recent pages stay")
        cache.byteBudget = -1
        #expect(cache.byteBudget == 1 && cache.keys.count == 1, "one page is always kept")
    }

    @Test func theCacheOptionIsCheckedAndDocumented() throws {
        let url = try MiniPDF.write(MiniPDF.data(pages: [MiniPDF.quadrants()], width: 800, height: 600), name: "talk.pdf")
        let dir = url.deletingLastPathComponent().appendingPathComponent("shots").path
        let small = try PresentCommandPDFTests.present([url.path, "--cache-mb", "8", "--snapshot", dir])
        #expect(small.status == 2 && small.output.contains("--cache-mb 8 is too small"), "\(small.output)")
        let large = try PresentCommandPDFTests.present([url.path, "--cache-mb", "99999", "--snapshot", dir])
        #expect(large.status == 2 && large.output.contains("too large; accepted: 16…16384 MB"), "\(large.output)")
        let fine = try PresentCommandPDFTests.present([url.path, "--cache-mb", "64", "--snapshot", dir])
        #expect(fine.status == 0, "\(fine.output)")
        let help = try PresentCommandPDFTests.present(["--help"])
        #expect(help.output.contains("--cache-mb") && help.output.contains("16…16384, default 192"), "\(help.output)")
    }

    // MARK: The pointer on the console

    @Test func theConsolePreviewShowsThePointerWhereTheRoomSeesIt() throws {
        let deck = Deck(title: "d", slides: [Slide(number: 1, title: [InlineRun("One")]), Slide(number: 2)])
        let controller = PresenterController(deck: deck, startedAt: 0)
        controller.apply(.attached(PointerTests.display("tv", 1280, 720)), at: 0)
        let size = PixelSize(width: 1920, height: 1080)
        func dots() -> [Rect] {
            controller.mainList(size: size, at: 0, clock: "", metrics: ApproximateTextMetrics()).operations.compactMap {
                if case .fill(let r, PresenterLayout.pointerColour) = $0 { r } else { nil }
            }
        }
        #expect(dots().isEmpty, "no pointer before the mouse is over the slide")
        let point = try #require(controller.slidePoint(consoleX: 24 + 837, y: 128 + 157, consoleSize: size, at: 0))
        controller.apply(.pointer(point), at: 0)
        let dot = try #require(dots().first)
        #expect(dots().count == 1)
        // The console's slide box on 1920×1080 is 1116×628 at (24, 128): three quarters across, a quarter down.
        let cx: Double = Double(dot.x + dot.width / 2 - 24) / 1116
        let cy: Double = Double(dot.y + dot.height / 2 - 128) / 628
        #expect(abs(cx - 0.75) < 0.01 && abs(cy - 0.25) < 0.01, "\(cx), \(cy)")
        controller.apply(.key(.overview), at: 0)
        #expect(dots().isEmpty, "no pointer over the overview")
        controller.apply(.key(.overview), at: 0)
        controller.apply(.pointer(nil), at: 0)
        #expect(dots().isEmpty, "the pointer leaves with the mouse")
    }

    // MARK: Pace colours

    @Test func everyPaceHasItsOwnColourOnTheConsole() throws {
        let theme = PresenterTheme()
        let paces: [Countdown.Pace] = [.onPace, .ahead, .behind, .overtime]
        let colours = paces.map { ConsoleLayout.paceColour($0, theme: theme) }
        #expect(Set(colours).count == 4, "\(colours)")
        for other in [theme.notes, theme.consoleText, theme.muted, theme.console, PresenterLayout.pointerColour] {
            #expect(!colours.contains(other), "a pace shares \(other)")
        }
        #expect(ConsoleLayout.paceColour(.behind, theme: theme) != theme.warning, "behind looks like over time or paused")
        // Drawn: a 100-second talk of 10 slides, at these times and slides, shows each pace in its colour.
        let deck = Deck(title: "d", slides: (1...10).map { Slide(number: $0) })
        for (pace, at, slide) in [(Countdown.Pace.onPace, 30.0, 2), (.ahead, 10, 8), (.behind, 80, 1), (.overtime, 120, 9)] {
            let controller = PresenterController(deck: deck, startedAt: 0)
            controller.apply(.plan(duration: 100), at: 0)
            controller.apply(.goTo(slide), at: 0)
            let label = controller.mainList(size: PixelSize(width: 1920, height: 1080), at: at, clock: "",
                                            metrics: ApproximateTextMetrics()).operations.compactMap { op -> (String, RGBA)? in
                if case .text(let s, _, _, let style) = op, s.contains(" left  ·") || s.contains(" over  ·") { (s, style.color) } else { nil }
            }
            #expect(label.count == 1 && label.first?.0.hasSuffix(pace.rawValue) == true, "\(pace): \(label)")
            #expect(label.first?.1 == ConsoleLayout.paceColour(pace, theme: theme), "\(pace): \(label)")
        }
    }
}
