#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import ExternalDisplaySDL

extension SDLPresenterCanvas {
    /// Draws a PDF page rendered (by the shared ``PageRasterCache``) at exactly `rect`'s pixel size.
    public func page(_ page: PDFPage, in rect: Rect) -> Bool {
        guard rect.width > 0, rect.height > 0 else { return false }
        return drawPage(PageRasterCache.key(page, width: rect.width, height: rect.height), in: rect) {
            guard case .success(let raster) = PageRasterCache.shared.raster(for: page, width: rect.width,
                                                                           height: rect.height) else { return nil }
            return raster
        }
    }
}

extension SoftwareCanvas {
    /// Draws a PDF page rendered (by the shared ``PageRasterCache``) at exactly `rect`'s pixel size.
    public func page(_ page: PDFPage, in rect: Rect) -> Bool {
        guard rect.width > 0, rect.height > 0,
              case .success(var raster) = PageRasterCache.shared.raster(for: page, width: rect.width, height: rect.height)
        else { return false }
        let (w, h) = (raster.width, raster.height)
        return raster.rgba.withUnsafeMutableBytes { bytes -> Bool in
            guard let source = SDL_CreateRGBSurfaceWithFormatFrom(bytes.baseAddress, Int32(w), Int32(h), 32,
                                                                  Int32(w * 4), SDL_PIXELFORMAT_ABGR8888.rawValue)
            else { return false }
            defer { SDL_FreeSurface(source) }
            var dst = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
            return SDL_UpperBlitScaled(source, nil, surface, &dst) == 0
        }
    }
}
#endif
