#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs

extension SDLPresenterCanvas {
    /// Draws a PDF page rendered (by the shared ``PageRasterCache``) at exactly `rect`'s pixel size.
    public func page(_ page: PDFPage, in rect: Rect) -> Bool {
        guard rect.width > 0, rect.height > 0 else { return false }
        noteDrawn(page, width: rect.width, height: rect.height)
        var asked = false
        let drawn = drawPage(PageRasterCache.key(page, width: rect.width, height: rect.height), in: rect) {
            asked = true
            guard case .success(let raster) = PageRasterCache.shared.raster(for: page, width: rect.width,
                                                                           height: rect.height) else { return nil }
            return raster
        }
        // Drawn from a texture made earlier: the cache was not asked, so keep it rendering ahead of this page.
        if !asked { PageRasterCache.shared.prefetchNeighbours(of: page, width: rect.width, height: rect.height) }
        return drawn
    }
}

extension SoftwareCanvas {
    /// Draws a PDF page rendered (by the shared ``PageRasterCache``) at exactly `rect`'s pixel size.
    public func page(_ page: PDFPage, in rect: Rect) -> Bool {
        guard rect.width > 0, rect.height > 0,
              case .success(let raster) = PageRasterCache.shared.raster(for: page, width: rect.width, height: rect.height)
        else { return false }
        let (w, h) = (raster.width, raster.height)
        // The cache's pixels are only read: a mutable access would copy all of them first (copy on write).
        return raster.rgba.withUnsafeBytes { bytes -> Bool in
            guard let source = SDL_CreateRGBSurfaceWithFormatFrom(UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                                  Int32(w), Int32(h), 32, Int32(w * 4),
                                                                  SDL_PIXELFORMAT_ABGR8888.rawValue)
            else { return false }
            defer { SDL_FreeSurface(source) }
            // A page is opaque: copy it, do not blend it (a surface with alpha blends by default, per pixel).
            SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_NONE)
            var dst = SDL_Rect(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height))
            return SDL_UpperBlitScaled(source, nil, surface, &dst) == 0
        }
    }
}
#endif
