import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation
import Testing
@testable import PresenterRuntime

/// The renderer of browser pages' pictures (issue 23 row a): a render cancelled before it is delivered never
/// arrives, the one after it does, and its picture is the lists stacked at their size.
@MainActor
struct BrowserPictureRendererTests {
    /// What arrived, in order.
    final class Arrivals {
        var names: [String] = []
        var png: Data?
    }

    /// The width and height in a PNG's header (read here, not by the project's decoder).
    static func pngSize(_ png: Data?) -> (Int, Int)? {
        guard let png, png.count >= 24, png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        let bytes = [UInt8](png.prefix(24))
        func be(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    @Test("a cancelled render delivers nothing; the next one delivers its lists stacked, as a PNG")
    func cancelledRendersDeliverNothing() async throws {
        let renderer = BrowserPictureRenderer(caches: DrawingCaches())
        let size = PixelSize(width: 64, height: 32)
        let list = DisplayList(size: size, operations: [.fill(Rect(x: 0, y: 0, width: 64, height: 32), RGBA(200, 30, 30))])
        let arrivals = Arrivals()
        var tickets: [BrowserPictureRenderer.Ticket] = []
        for index in 0..<5 {
            tickets.append(renderer.render(.init(size: size, lists: [list])) { _ in arrivals.names.append("cancelled \(index)") })
        }
        for ticket in tickets { ticket.cancel() }
        let (done, finish) = AsyncStream<Void>.makeStream()
        _ = renderer.render(.init(size: size, lists: [list, list])) { png in
            arrivals.names.append("kept")
            arrivals.png = png
            finish.yield()
            finish.finish()
        }
        let waited = Task {
            for await _ in done { return true }
            return false
        }
        let guardTask = Task {
            try await Task.sleep(nanoseconds: 30_000_000_000)
            finish.finish()
        }
        #expect(await waited.value, "the render that was not cancelled arrived (hang guard 30 s)")
        guardTask.cancel()
        // Anything cancelled would have been delivered before it (one queue, in order); give it one more turn.
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(arrivals.names == ["kept"])
        let stacked = try #require(Self.pngSize(arrivals.png))
        #expect(stacked == (64, 64))
    }
}
