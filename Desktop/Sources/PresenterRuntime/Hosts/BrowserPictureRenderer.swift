#if canImport(CSDL2)
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import DesktopImages
import Foundation
import Synchronization

/// Renders the audience pictures of browser pages off the console's thread: one at a time, on a queue of its
/// own, each on an off-screen canvas made for it (SDL's software renderer on a surface, which needs no video
/// driver and no particular thread) and freed before its PNG is encoded. PDF pages are waited for there too
/// (`pdftoppm` through the run's page cache). A render is cancelled when it is no longer wanted: it stops at its
/// next step (before drawing, before reading the pixels back, before encoding) and delivers nothing.
///
/// The console's thread only lays pictures out (display lists, measured with its own canvas) and hands them
/// here; a page announcing the largest mode costs it nothing more.
final class BrowserPictureRenderer: Sendable {
    /// A picture to render: the size of each part and what each shows, stacked top to bottom (one list for a
    /// page's picture; the remote's shows two).
    struct Job: Sendable {
        let size: PixelSize
        let lists: [DisplayList]
    }

    /// A render under way; ``cancel()`` makes it stop at its next step.
    final class Ticket: Sendable {
        private let cancelled = Atomic(false)
        /// Stops the render at its next step; it delivers nothing.
        func cancel() { cancelled.store(true, ordering: .relaxed) }
        var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    }

    private let queue = DispatchQueue(label: "extdisplay.browser.pictures", qos: .utility)
    private let caches: DrawingCaches

    /// A renderer whose canvases draw from the run's `caches`.
    init(caches: DrawingCaches) { self.caches = caches }

    /// Starts rendering `job`; `done` is called on the main actor with the PNG (nil when the canvas could not be
    /// made), or never when the ticket is cancelled first.
    func render(_ job: Job, done: @escaping @MainActor @Sendable (Data?) -> Void) -> Ticket {
        let ticket = Ticket()
        queue.async {
            guard !ticket.isCancelled else { return }
            let png = Self.draw(job, caches: self.caches, unless: ticket)
            guard !ticket.isCancelled else { return }
            Task { @MainActor in
                guard !ticket.isCancelled else { return }
                done(png)
            }
        }
        return ticket
    }

    /// Draws the lists on a canvas made for them, stacks them and encodes the PNG, opaque; nil when the canvas
    /// cannot be made or the ticket was cancelled. A display shows colour, not transparency: the canvas leaves
    /// alpha just under 255 where text is blended, which a browser would composite over black, so pictures go
    /// out opaque.
    private static func draw(_ job: Job, caches: DrawingCaches, unless ticket: Ticket) -> Data? {
        var pixels: [UInt8] = []
        do {
            guard let canvas = try? SDLPresenterCanvas(size: job.size, caches: caches) else { return nil }
            for list in job.lists {
                canvas.draw(list)
                guard !ticket.isCancelled else { return nil }
                if pixels.isEmpty { pixels = canvas.canvas.readPixels().pixels } else { pixels += canvas.canvas.readPixels().pixels }
            }
        }
        // The canvas (and any page texture on it) is freed here, before encoding.
        guard !ticket.isCancelled else { return nil }
        pixels.withUnsafeMutableBufferPointer { bytes in
            for alpha in stride(from: 3, to: bytes.count, by: 4) { bytes[alpha] = 255 }
        }
        return Bitmap(width: job.size.width, height: job.size.height * job.lists.count, pixels: pixels).pngData()
    }
}
#endif
