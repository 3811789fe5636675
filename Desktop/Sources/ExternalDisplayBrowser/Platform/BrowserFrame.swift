import Foundation
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

    /// A frame from a PNG file's bytes.
    public init(number: UInt32, png: Data) {
        self.number = number
        byteCount = png.count
        var buffer = ByteBufferAllocator().buffer(capacity: png.count + 4)
        buffer.writeInteger(number, endianness: .big)
        buffer.writeContiguousBytes(png)
        message = buffer
    }
}
