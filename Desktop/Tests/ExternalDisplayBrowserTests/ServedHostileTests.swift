import ExtDisplayTestSupport
import Foundation
import Testing

/// `present --serve` as a child process against pages that misbehave on purpose (issue 23): the console's
/// output stays bounded whatever the number of pages (row g). Outcomes only; times are hang guards.
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
        let presenter = try await ServedPresenterProcess.start(binary: try extdisplayBinary(), deck: try writeDeck())
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
}
