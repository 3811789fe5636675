/// One decoded picture: 8 bits per channel, 4 bytes a pixel, rows top to bottom, no padding, in the byte order
/// ``layout`` says (RGBA, the layout of `DesktopImages.Bitmap`, unless the decoder was asked for the X server's
/// own), and when it is shown.
public struct VideoFrame: Sendable, Hashable {
    /// The byte order of a pixel.
    public enum Layout: String, Sendable, Hashable {
        /// Red, green, blue, alpha.
        case rgba = "RGBA"
        /// Blue, green, red, one unused byte: a 24-bit X visual's (and SDL's `RGB888`) order on a little-endian
        /// machine, copied to a window without a swizzle.
        case bgrx = "BGRx"
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes in ``layout``'s order.
    public var pixels: [UInt8]
    /// The frame's presentation time in seconds from the start of the video (after a seek, the time sought when
    /// it falls inside the frame: GStreamer clips the first frame to the seek's segment).
    public var time: Double
    /// The byte order of ``pixels``.
    public var layout: Layout

    /// Creates a frame (`pixels.count` should be `width * height * 4`).
    public init(width: Int, height: Int, pixels: [UInt8], time: Double, layout: Layout = .rgba) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.time = time
        self.layout = layout
    }

    /// The colour at a pixel (0,0 = top left) as red, green, blue, alpha (255 for ``Layout/bgrx``); `nil`
    /// outside the picture.
    public func rgba(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        guard i + 3 < pixels.count else { return nil }
        switch layout {
        case .rgba: return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        case .bgrx: return (pixels[i + 2], pixels[i + 1], pixels[i], 255)
        }
    }
}
