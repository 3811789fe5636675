import DesktopImages
import Foundation

/// The newest decoded frame of each clip playing on a slide, by file: written by whatever decodes the clips (the
/// runtime's clip host), read by every canvas that draws a ``DrawOperation/video(_:_:frame:)``. Safe from any
/// thread.
///
/// ```swift
/// let frames = SlideClipFrames()                 // one per run, in its DrawingCaches
/// let stamp = frames.store(bitmap, for: clip.url)   // 1, 2, 3… for each new frame
/// frames.frame(for: clip.url)?.width
/// ```
public final class SlideClipFrames: @unchecked Sendable {

    private let lock = NSLock()
    private var frames: [URL: Bitmap] = [:]
    private var counter = 0

    /// An empty store.
    public init() {}

    /// Keeps `bitmap` as the newest frame of `url`; returns its number (a new one each call).
    @discardableResult
    public func store(_ bitmap: Bitmap, for url: URL) -> Int {
        lock.lock()
        defer { lock.unlock() }
        frames[url] = bitmap
        counter += 1
        return counter
    }

    /// The newest frame of `url`, if one was stored.
    public func frame(for url: URL) -> Bitmap? {
        lock.lock()
        defer { lock.unlock() }
        return frames[url]
    }

    /// Forgets the frame of `url` (the clip was closed).
    public func remove(_ url: URL) {
        lock.lock()
        defer { lock.unlock() }
        frames[url] = nil
    }
}
