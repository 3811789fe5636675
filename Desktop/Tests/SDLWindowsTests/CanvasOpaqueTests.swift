import DesktopImages
import ExternalDisplayKit
import SDLWindows
import Testing

/// `Canvas.drawOpaque` headless: pictures in both byte orders land with their colours, copied at their size or
/// scaled, within the clip, with alpha ignored; too few pixels draw nothing. Expected colours written by hand.
@Suite("Canvas opaque pictures (headless)", .serialized)
struct CanvasOpaqueTests {
    /// A 2×2 picture: red, green / blue, white, in `order`, every alpha byte 0 (it must not matter).
    static func quad(_ order: Canvas.PixelOrder) -> [UInt8] {
        let colors: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        return colors.flatMap { r, g, b in order == .rgba ? [r, g, b, 0] : [b, g, r, 0] }
    }

    @Test func bothByteOrdersLandWithTheirColoursAtTheirSizeAndScaled() throws {
        for order in [Canvas.PixelOrder.rgba, .bgrx] {
            let canvas = try Canvas(width: 40, height: 40)
            canvas.clear(.black)
            canvas.drawOpaque(Self.quad(order), width: 2, height: 2, order: order, in: Rect(x: 3, y: 4, width: 2, height: 2))
            #expect(canvas.pixel(x: 3, y: 4) == .red, "\(order)")
            #expect(canvas.pixel(x: 4, y: 4) == .green, "\(order)")
            #expect(canvas.pixel(x: 3, y: 5) == .blue, "\(order)")
            #expect(canvas.pixel(x: 4, y: 5) == .white, "\(order)")
            #expect(canvas.pixel(x: 5, y: 5) == .black, "\(order): nothing outside the rectangle")
            // Scaled to 20×20 at (20, 20): each source pixel becomes a 10×10 block.
            canvas.drawOpaque(Self.quad(order), width: 2, height: 2, order: order, in: Rect(x: 20, y: 20, width: 20, height: 20))
            #expect(canvas.pixel(x: 25, y: 25) == .red, "\(order)")
            #expect(canvas.pixel(x: 35, y: 25) == .green, "\(order)")
            #expect(canvas.pixel(x: 25, y: 35) == .blue, "\(order)")
            #expect(canvas.pixel(x: 35, y: 35) == .white, "\(order)")
            #expect(canvas.pixel(x: 19, y: 19) == .black, "\(order)")
        }
    }

    @Test func theClipLimitsItAndTooFewPixelsDrawNothing() throws {
        let canvas = try Canvas(width: 20, height: 20)
        canvas.clear(.black)
        canvas.clip = Rect(x: 0, y: 0, width: 10, height: 20)
        canvas.drawOpaque(Self.quad(.bgrx), width: 2, height: 2, order: .bgrx, in: Rect(x: 0, y: 0, width: 20, height: 20))
        canvas.clip = nil
        #expect(canvas.pixel(x: 5, y: 5) == .red)
        #expect(canvas.pixel(x: 15, y: 5) == .black, "outside the clip")
        canvas.drawOpaque([1, 2, 3], width: 2, height: 2, order: .rgba, in: Rect(x: 0, y: 0, width: 20, height: 20))
        canvas.drawOpaque(Self.quad(.rgba), width: 0, height: 2, order: .rgba, in: Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(canvas.pixel(x: 15, y: 15) == .black, "a short or empty picture draws nothing")
    }
}
