import ExtDisplayTestSupport
import Foundation
import Testing

/// `present --serve` as a child process against pages that misbehave on purpose (issue 23 rows a and g): the
/// console's output stays bounded whatever the number of pages, and a page announcing a huge viewport gets a
/// picture of a display's size while keys are still answered. Outcomes only; times are hang guards.
@Suite(.serialized)
struct ServedHostileTests {
    /// The width and height in a PNG's header.
    static func pngSize(_ png: Data?) -> (Int, Int)? {
        guard let png, png.count >= 24 else { return nil }
        let bytes = [UInt8](png.prefix(24))
        func be(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    @Test("300 pages connecting and leaving: the console prints under 40 KB, no line over 300 characters")
    func threeHundredPages() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        let mark = presenter.console.all.count
        let load = try await LoadClient.connect(count: 300, to: presenter.url)
        #expect(await load.wait(timeout: 90) { $0.isOpen }, "every page connected")
        await load.close()
        // The summary of the pages that left is printed once the last window is over.
        _ = try await presenter.waitForLine(from: mark, timeout: 60) { $0.hasSuffix("0 connected now") || $0.contains("browser-300 gone") }
        try await Task.sleep(nanoseconds: 2_500_000_000)
        let printed = presenter.console.all[mark...]
        let bytes = printed.reduce(0) { $0 + $1.utf8.count + 1 }
        let longest = printed.map(\.count).max() ?? 0
        print("300 pages: \(printed.count) console lines, \(bytes) bytes, longest \(longest)")
        #expect(bytes < 40_000, "\(bytes) bytes printed for 300 pages")
        #expect(longest <= 300, "a line of \(longest) characters")
    }

    @Test("1,100 idle connections against a presenter started with a soft limit of 1,024 files: the remote connects")
    func idleFlood() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck(),
                                                               fileLimit: 1_024)
        defer { presenter.quit() }
        let port = Int(presenter.url.split(separator: ":").last!.prefix { $0.isNumber })!
        let remote = try #require(URL(string: presenter.remoteURL))
        let target = "/remote/ws?" + (remote.query ?? "")
        let status = try await onOwnThread {
            var idle: [RawSocket] = []
            for _ in 0..<1_100 { idle.append(try RawSocket(port: port)) }
            let socket = try RawSocket(port: port)
            socket.send(upgradeRequest(target, port: port))
            let (bytes, _) = socket.read(timeout: 20) { ConnectionGuardHeadEnd.find($0) != nil }
            return (RawSocket.status(bytes), idle.count)
        }
        #expect(status.0 == 101, "the remote's upgrade, with \(status.1) idle connections held, was answered \(status.0)")
        let mark = presenter.console.all.count
        presenter.type("n")
        _ = try await presenter.waitForLine(from: mark, timeout: 20) { $0.hasPrefix("slide 2 of 3") }
    }

    @Test("20 pages of 20 different near-4K sizes: pictures of at most four sizes are rendered; every page gets one")
    func manySizes() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        var pages: [LoadClient] = []
        for index in 0..<20 {
            pages.append(try await LoadClient.connect(count: 1, to: presenter.url, width: 3_840, height: 2_160 - index))
        }
        for page in pages { #expect(await page.wait(timeout: 120) { $0.lastPNG != nil }, "every page got a picture") }
        let mark = presenter.console.all.count
        presenter.type("s")
        let stats = try await presenter.waitForLine(from: mark) { $0.hasPrefix("stats: ") }
        let rendered = stats.range(of: "audience pictures rendered ").map { Int(stats[$0.upperBound...].prefix { $0.isNumber }) ?? 0 } ?? -1
        // Four sizes, each the slide shown and at most two ahead.
        #expect((0...12).contains(rendered), "\(stats)")
        for page in pages { await page.close() }
    }

    @Test("a page announcing 16384×16384 gets a picture of at most 3840×2160 pixels' worth; keys are answered")
    func hugeViewport() async throws {
        let presenter = try await ServedPresenterProcess.start(binary: try Repository.extdisplay(), deck: try writeDeck())
        defer { presenter.quit() }
        let huge = try await LoadClient.connect(count: 1, to: presenter.url, width: 16_384, height: 16_384, dpr: 1)
        let normal = try await LoadClient.connect(count: 1, to: presenter.url)
        #expect(await huge.wait(timeout: 120) { $0.lastPNG != nil }, "the huge page got a picture")
        let size = try #require(Self.pngSize(huge.snapshot[0].lastPNG))
        #expect(size.0 <= 4_096 && size.1 <= 4_096 && size.0 * size.1 <= 3_840 * 2_160, "a picture of \(size)")
        for key in ["n", "n", "\u{7f}"] {
            let mark = presenter.console.all.count
            let previous = normal.snapshot[0].lastFrame
            presenter.type(key)
            _ = try await presenter.waitForLine(from: mark, timeout: 20) { $0.hasPrefix("slide ") }
            #expect(await normal.wait(timeout: 20) { $0.lastFrame != previous }, "the other page got the slide after '\(key)'")
        }
        await huge.close()
        await normal.close()
    }
}
