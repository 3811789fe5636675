import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// One encoded picture for browser displays: a PNG, numbered. Pages of one mode share one frame: the same
/// bytes go to every page (they are never copied per viewer).
///
/// ```swift
/// let frame = BrowserFrame(number: 7, png: canvas.pngData())
/// for surface in surfaces { surface.show(frame) }
/// ```
public final class BrowserFrame: Sendable {
    /// The frame's number (pages report it back when it is on screen).
    public let number: UInt32
    /// The PNG's size in bytes.
    public let byteCount: Int
    /// The message as sent: the number (4 bytes, big-endian) then the PNG.
    let message: ByteBuffer

    private static let live = NIOLockedValueBox(0)

    /// The PNG bytes of every frame alive in the process now: held by a host, queued for a page or being
    /// written to one (``PictureBudget`` counts them).
    public static var liveBytes: Int { live.withLockedValue { $0 } }

    /// A frame from a PNG file's bytes.
    public init(number: UInt32, png: Data) {
        self.number = number
        byteCount = png.count
        var buffer = ByteBufferAllocator().buffer(capacity: png.count + 4)
        buffer.writeInteger(number, endianness: .big)
        buffer.writeContiguousBytes(png)
        message = buffer
        Self.live.withLockedValue { $0 += png.count }
    }

    deinit { Self.live.withLockedValue { $0 -= byteCount } }
}
