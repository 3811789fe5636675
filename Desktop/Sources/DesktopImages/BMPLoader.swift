import CSDL2

/// BMP files through SDL.
enum BMPLoader {
    static func load(path: String) throws(CanvasError) -> Bitmap {
        guard let loaded = edk_load_bmp(path) else {
            throw .unreadableImage(path: path, reason: String(cString: SDL_GetError()))
        }
        defer { SDL_FreeSurface(loaded) }
        guard let rgba = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ABGR8888.rawValue, 0) else {
            throw .unreadableImage(path: path, reason: String(cString: SDL_GetError()))
        }
        defer { SDL_FreeSurface(rgba) }
        let s = rgba.pointee
        let width = Int(s.w), height = Int(s.h), pitch = Int(s.pitch)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let base = s.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<(width * 4) { pixels[y * width * 4 + x] = base[y * pitch + x] }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }
}
