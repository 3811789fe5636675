import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import Foundation

/// Images decoded once per run (``DrawingCaches``) and shared: the deck reader's check, the console's preview and every
/// audience canvas get the same pixels (a `Bitmap` shares its storage), so the largest image accepted
/// (8192×8192, 256 MB as RGBA) is held once, not once per canvas. A file changed on disk (size or modification
/// time) is decoded again. Bounded: past 1 GiB of pixels the cache starts afresh.
final class DecodedImages: @unchecked Sendable {

    private struct Entry {
        var size: Int
        var modified: Double
        var result: Result<Bitmap, CanvasError>
    }

    private let lock = NSLock()
    private var entries: [URL: Entry] = [:]
    private var bytes = 0
    private let capacity = 1 << 30

    /// The decoded image at `url` for drawing, or nil with the reason added to `failures`.
    func drawable(_ url: URL, failures: inout [URL: CanvasError]) -> Bitmap? {
        switch bitmap(url) {
        case .success(let image): return image
        case .failure(let error):
            failures[url] = error
            return nil
        }
    }

    /// The decoded image at `url`, or why it cannot be decoded.
    func bitmap(_ url: URL) -> Result<Bitmap, CanvasError> {
        var info = stat()
        let found = stat(url.path, &info) == 0
        let size = found ? Int(info.st_size) : -1
        let modified = found ? Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9 : 0
        lock.lock()
        if let entry = entries[url], entry.size == size, entry.modified == modified {
            lock.unlock()
            return entry.result
        }
        lock.unlock()
        let result: Result<Bitmap, CanvasError>
        do { result = .success(try Bitmap(contentsOf: url)) } catch { result = .failure(error) }
        let cost = (try? result.get().pixels.count) ?? 0
        lock.lock()
        defer { lock.unlock() }
        if bytes + cost > capacity {
            entries = [:]
            bytes = 0
        }
        entries[url] = Entry(size: size, modified: modified, result: result)
        bytes += cost
        return result
    }
}
