import ExtDisplayTestSupport
import Foundation
import Testing

/// `present --serve` under load and over many connections, with emulated viewers (the load client): outcomes
/// only, never times.
@Suite(.serialized)
struct LoadAndLifecycleTests {
    /// Waits for a `stats:` line printed after index `mark` and returns it.
    static func stats(_ presenter: ServedPresenterProcess) async throws -> String {
        let mark = presenter.console.all.count
        presenter.type("s")
        return try await presenter.waitForLine(from: mark) { $0.hasPrefix("stats: ") }
    }

    static func number(after label: String, in line: String) -> Int? {
        guard let range = line.range(of: label + " ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("100 viewers and 3 stalled ones: every live viewer gets the new slide, the console keeps drawing")
    func hundredViewers() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck(),
                                                               extraArguments: ["--console-fps", "30"])
        defer { presenter.quit() }
        let stalled = 3
        let load = try await LoadClient.connect(count: 100 + stalled, to: presenter.url, stalled: stalled)
        #expect(await load.wait(from: stalled, timeout: 60) { $0.lastFrame != nil },
                "every live viewer gets the first slide")
        let before = try await Self.stats(presenter)
        // The stalled viewers never answer the heartbeat, so they may already be gone; the live ones are all there.
        #expect((Self.number(after: "viewers", in: before) ?? 0) >= 100, "\(before)")
        let firstFrames = Set(load.snapshot[stalled...].compactMap(\.lastFrame))
        #expect(firstFrames.count == 1, "viewers of one mode share one picture: \(firstFrames)")

        // Flip slides several times; the stalled viewers never read, and nobody waits for them.
        for key in ["n", "n", "\u{7f}"] {
            let mark = presenter.console.all.count
            let previous = load.snapshot[stalled].lastFrame
            presenter.type(key)
            _ = try await presenter.waitForLine(from: mark) { $0.hasPrefix("slide ") }
            #expect(await load.wait(from: stalled, timeout: 60) { $0.lastFrame != previous && $0.lastFrame != nil },
                    "every live viewer got the picture after '\(key)'")
        }
        let frames = Set(load.snapshot[stalled...].compactMap(\.lastFrame))
        #expect(frames.count == 1, "all viewers end on the same picture: \(frames)")
        #expect(Set(load.snapshot[stalled...].compactMap(\.lastPNG)).count == 1)
        let after = try await Self.stats(presenter)
        let drawn = (Self.number(after: "console frames", in: before) ?? 0, Self.number(after: "console frames", in: after) ?? 0)
        #expect(drawn.1 > drawn.0, "the console kept drawing: \(before) → \(after)")
        // 4 slides' pictures were rendered once each for all 103 viewers, not once per viewer.
        #expect((Self.number(after: "audience pictures rendered", in: after) ?? 999) <= 6, "\(after)")
        await load.close()
    }

    @Test("1,000 connect/disconnect cycles: memory and open files after 1,000 within 5 % of after the first 100")
    func thousandCycles() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        var afterHundred: (rss: Int, fds: Int) = (0, 0)
        var partsAfterHundred = (anonymous: 0, file: 0, shared: 0)
        for batch in 0..<50 {
            // 20 viewers at a time, each gets the slide, then all leave.
            let load = try await LoadClient.connect(count: 20, to: presenter.url)
            #expect(await load.wait(timeout: 60) { $0.lastFrame != nil })
            await load.close()
            let line = try await Self.stats(presenter)
            if Self.number(after: "viewers", in: line) != 0 {
                // Disconnects are reported as the server notices them; poll until every viewer is gone.
                let viewers = try await eventuallyReading(30, every: 0.05, {
                    Self.number(after: "viewers", in: try await Self.stats(presenter))
                }, until: { $0 == 0 })
                #expect(viewers == 0, "viewers still counted after batch \(batch)'s viewers left")
            }
            if batch == 4 {
                afterHundred = (await Self.settledResidentKiB(presenter), presenter.openFiles)
                partsAfterHundred = presenter.residentParts
            }
        }
        let afterThousand = (rss: await Self.settledResidentKiB(presenter), fds: presenter.openFiles)
        let parts = presenter.residentParts
        print("cycles: resident after 100 / after 1,000, KiB: anonymous \(partsAfterHundred.anonymous) / \(parts.anonymous), "
              + "file-backed \(partsAfterHundred.file) / \(parts.file), shared \(partsAfterHundred.shared) / \(parts.shared)")
        // Lines about pages are a few a second; the others are counted in summary lines ("pages: …, 15 left (not listed)…").
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let gone = presenter.console.all.reduce(0) { total, line in
            if line.contains(" gone: ") { return total + 1 }
            guard line.hasPrefix("pages: "), let left = line.range(of: " left") else { return total }
            return total + (Int(line[..<left.lowerBound].reversed().prefix { $0.isNumber }.reversed().map(String.init).joined()) ?? 0)
        }
        #expect(gone == 1_000, "every one of the 1,000 pages was reported gone (\(gone))")
        #expect(Double(afterThousand.rss) <= Double(afterHundred.rss) * 1.05,
                "memory after 1,000 cycles \(afterThousand.rss) KiB vs after 100 \(afterHundred.rss) KiB")
        #expect(Double(afterThousand.fds) <= Double(afterHundred.fds) * 1.05,
                "open files after 1,000 cycles \(afterThousand.fds) vs after 100 \(afterHundred.fds)")
        print("cycles: after 100 rss \(afterHundred.rss) KiB fds \(afterHundred.fds); after 1,000 rss \(afterThousand.rss) KiB fds \(afterThousand.fds)")
    }

    /// The server's resident memory once the last cycle's buffers are released: read every 100 ms until two
    /// readings agree (at most 3 s), the same way at both points of comparison.
    static func settledResidentKiB(_ presenter: ServedPresenterProcess) async -> Int {
        var last: Int?
        return await eventuallyReading(3, every: 0.1, { () -> (kiB: Int, same: Bool) in
            let now = presenter.residentKiB
            defer { last = now }
            return (now, now == last)
        }, until: { $0.same }).kiB
    }
}
