import ExtDisplayTestSupport
import Foundation
import Testing

/// `present --serve` as a child process against pages at the largest mode a page may have (issue 23 row a): the
/// pictures for pages stay within the byte budget shared by every page, and their renders never take the
/// console's time. Memory is read from /proc (the presenter's own peak), keys from its console; times are
/// bounds that a render on the console's thread cannot meet, and hang guards.
@Suite(.serialized)
struct ServedRenderBudgetTests {
    /// Waits until the count of audience pictures rendered stays the same for 4 s (hang guard 120 s); returns it.
    static func rendersSettled(_ presenter: ServedPresenterProcess) async throws -> Int {
        func settled(_ counts: [Int]) -> Bool { counts.count >= 3 && Set(counts.suffix(3)).count == 1 }
        var read: [Int] = []
        let counts = try await eventuallyReading(120, every: 2, {
            read.append(try await picturesRendered(presenter))
            return read
        }, until: settled)
        guard settled(counts) else { throw SupportError("pictures were still being rendered after 120 s: \(counts)") }
        return counts.last ?? 0
    }

    /// The count of audience pictures rendered so far, from the console's statistics line (`s`).
    static func picturesRendered(_ presenter: ServedPresenterProcess) async throws -> Int {
        let mark = presenter.console.all.count
        presenter.type("s")
        let stats = try await presenter.waitForLine(from: mark) { $0.hasPrefix("stats: ") }
        guard let range = stats.range(of: "audience pictures rendered ") else { throw SupportError("no count in \(stats)") }
        return Int(stats[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }

    @Test("4 pages at 4 sizes near 4K with --serve-picture-mb 160: the presenter's peak grows by less than the budget")
    func pictureBudget() async throws {
        let deck = try NoiseDeck.write()
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: deck,
                                                               extraArguments: ["--serve-picture-mb", "160"])
        defer { presenter.quit() }
        // On the middle slide: a picture ahead on either side.
        let mark = presenter.console.all.count
        presenter.type("n")
        _ = try await presenter.waitForLine(from: mark, timeout: 20) { $0.hasPrefix("slide 2 of 3") }
        // A page of the deck's own size first: the decoded picture of the slide is then part of the baseline.
        let first = try await LoadClient.connect(count: 1, to: presenter.url, width: 1_280, height: 720)
        #expect(await first.wait(timeout: 120) { $0.lastPNG != nil }, "the first page got a picture")
        // Every picture of the deck decoded (the renders for the first page, ahead too): part of the baseline.
        _ = try await Self.rendersSettled(presenter)
        let baseline = presenter.peakResidentKiB
        var pages: [LoadClient] = []
        for index in 0..<4 {
            pages.append(try await LoadClient.connect(count: 1, to: presenter.url, width: 3_840, height: 2_160 - 8 * index))
        }
        for page in pages { #expect(await page.wait(timeout: 180) { $0.lastPNG != nil }, "every page got a picture") }
        // Let every render the budget admits finish.
        let rendered = try await Self.rendersSettled(presenter)
        let png = pages.compactMap { $0.snapshot[0].lastPNG?.count }.max() ?? 0
        let grown = (presenter.peakResidentKiB - baseline) / 1_024
        print("picture budget 160 MiB: peak grew \(grown) MiB (from \(baseline / 1_024) MiB); largest picture "
              + "\(png / 1_000_000) MB; \(rendered) pictures rendered")
        #expect(png > 20_000_000, "the noise deck's 4K pictures are large (\(png) bytes)")
        #expect(grown < 160, "peak resident memory grew \(grown) MiB with a 160 MiB picture budget")
        for page in pages + [first] { await page.close() }
        try? FileManager.default.removeItem(at: deck.deletingLastPathComponent())
    }

    @Test("--serve-picture-mb outside 160…16384, not a number, or without --serve: a message naming the range")
    func pictureBudgetArguments() throws {
        let deck = try writeDeck().path, binary = try Repository.extdisplay().path
        for (arguments, expected) in [(["--serve", "0", "--serve-picture-mb", "159"], "outside 160…16384 MiB"),
                                      (["--serve", "0", "--serve-picture-mb", "99999999999999999999"], "is invalid"),
                                      (["--serve", "0", "--serve-picture-mb=-5"], "outside 160…16384 MiB"),
                                      (["--serve-picture-mb", "512"], "--serve-picture-mb needs --serve")] {
            #expect {
                try run([binary, "present", deck] + arguments)
            } throws: { error in
                "\(error)".contains(expected) && !"\(error)".contains("Fatal error")
            }
        }
    }

    @Test("a page at 3840×2160 whose PDF page renders for 8 s: keys on the console are answered within 1.5 s")
    func keysWhileAPageRenders() async throws {
        let directory = try MiniPDF.write(MiniPDF.nestedForms(), name: "slow.pdf")
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: directory,
                                                               environment: ["EXTDISPLAY_PDFTOPPM_TIMEOUT": "8"])
        defer { presenter.quit() }
        let page = try await LoadClient.connect(count: 1, to: presenter.url, width: 3_840, height: 2_160)
        #expect(await page.wait(timeout: 30) { $0.isOpen }, "the page connected")
        // The page's first picture is being rendered now (pdftoppm on a page of 36 million rectangles).
        try await Task.sleep(nanoseconds: 1_000_000_000)
        var times: [Double] = []
        for (key, slide) in [("n", 2), ("n", 3), ("\u{7f}", 2), ("\u{7f}", 1)] {
            let mark = presenter.console.all.count
            let start = Date()
            presenter.type(key)
            _ = try await presenter.waitForLine(from: mark, timeout: 30) { $0.hasPrefix("slide \(slide) of 3") }
            times.append(Date().timeIntervalSince(start))
        }
        print("keys while a 4K page renders: " + times.map { String(format: "%.0f ms", $0 * 1_000) }.joined(separator: ", "))
        for (index, time) in times.enumerated() { #expect(time < 1.5, "key \(index + 1) was answered after \(time) s") }
        await page.close()
    }
}
