import DesktopImages
import CSDL2

/// Scales a rendered run by area averaging in premultiplied alpha: how a colour emoji's fixed 109-pixel
/// bitmap strike is brought to the text size without the jagged edges of nearest-neighbour scaling or the
/// dark fringes of blending unpremultiplied colour.
enum SurfaceScaling {
    /// A new ARGB8888 surface `scale` times the size of `source` (the caller frees it); nil when SDL fails.
    static func scaled(_ source: UnsafeMutablePointer<SDL_Surface>, by scale: Double) -> UnsafeMutablePointer<SDL_Surface>? {
        guard scale.isFinite, scale > 0,
              let src = SDL_ConvertSurfaceFormat(source, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else { return nil }
        defer { SDL_FreeSurface(src) }
        let sw = Int(src.pointee.w), sh = Int(src.pointee.h)
        let width = (Double(sw) * scale).rounded(), height = (Double(sh) * scale).rounded()
        // Past the largest image the package draws, there is nothing sensible to make (and no trap).
        guard width <= Double(ImageLimits.maxSide), height <= Double(ImageLimits.maxSide) else { return nil }
        let dw = max(1, Int(width)), dh = max(1, Int(height))
        guard let dst = SDL_CreateRGBSurfaceWithFormat(0, Int32(dw), Int32(dh), 32,
                                                       SDL_PIXELFORMAT_ARGB8888.rawValue) else { return nil }
        SDL_LockSurface(src)
        SDL_LockSurface(dst)
        defer { SDL_UnlockSurface(src); SDL_UnlockSurface(dst) }
        let sp = src.pointee.pixels.assumingMemoryBound(to: UInt32.self), spitch = Int(src.pointee.pitch) / 4
        let dp = dst.pointee.pixels.assumingMemoryBound(to: UInt32.self), dpitch = Int(dst.pointee.pitch) / 4
        let fx = Double(sw) / Double(dw), fy = Double(sh) / Double(dh)
        for y in 0..<dh {
            let y0 = Double(y) * fy, y1 = y0 + fy
            for x in 0..<dw {
                let x0 = Double(x) * fx, x1 = x0 + fx
                var a = 0.0, r = 0.0, g = 0.0, b = 0.0, area = 0.0
                for sy in Int(y0)..<min(sh, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(sy + 1)) - max(y0, Double(sy))
                    guard wy > 0 else { continue }
                    for sx in Int(x0)..<min(sw, Int(x1.rounded(.up))) {
                        let wx = min(x1, Double(sx + 1)) - max(x0, Double(sx))
                        guard wx > 0 else { continue }
                        let w = wx * wy, p = sp[sy * spitch + sx]
                        let pa = Double(p >> 24) / 255 * w
                        a += pa
                        r += Double((p >> 16) & 0xFF) * pa
                        g += Double((p >> 8) & 0xFF) * pa
                        b += Double(p & 0xFF) * pa
                        area += w
                    }
                }
                guard area > 0, a > 0 else { dp[y * dpitch + x] = 0; continue }
                let alpha = UInt32(min(255, (a / area * 255).rounded()))
                let red = UInt32(min(255, (r / a).rounded())), green = UInt32(min(255, (g / a).rounded()))
                let blue = UInt32(min(255, (b / a).rounded()))
                dp[y * dpitch + x] = alpha << 24 | red << 16 | green << 8 | blue
            }
        }
        return dst
    }
}
