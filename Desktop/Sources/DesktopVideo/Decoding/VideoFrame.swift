/// One decoded picture: RGBA, 8 bits per channel, rows top to bottom, no padding (the layout of
/// `DesktopImages.Bitmap`), and when it is shown.
public struct VideoFrame: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel.
    public var pixels: [UInt8]
    /// The frame's presentation time in seconds from the start of the video (after a seek, the time sought when
    /// it falls inside the frame: GStreamer clips the first frame to the seek's segment).
    public var time: Double

    /// Creates a frame (`pixels.count` should be `width * height * 4`).
    public init(width: Int, height: Int, pixels: [UInt8], time: Double) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.time = time
    }

    /// The colour at a pixel (0,0 = top left) as red, green, blue, alpha; `nil` outside the picture.
    public func rgba(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        guard i + 3 < pixels.count else { return nil }
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
