@testable import ExternalDisplayBrowser
import ExternalDisplayKit
import Testing

/// A browser display's mode is bounded like any display's (issue 23 row a).
struct ViewportLimitTests {
    @Test("a viewport larger than a display is the largest mode of its shape; others are their own size")
    func viewportClamp() throws {
        let huge = try BrowserViewport(cssWidth: 16_384, cssHeight: 16_384, devicePixelRatio: 1)
        #expect(huge.isClamped)
        #expect(huge.mode.size.width * huge.mode.size.height <= BrowserViewport.largestArea)
        #expect(huge.mode.size.width == huge.mode.size.height)
        let wide = try BrowserViewport(cssWidth: 16_384, cssHeight: 100, devicePixelRatio: 1)
        #expect(wide.mode.size.width <= BrowserViewport.largestSide && wide.mode.size.height >= 24)
        let uhd = try BrowserViewport(cssWidth: 1920, cssHeight: 1080, devicePixelRatio: 2)
        #expect(!uhd.isClamped && uhd.mode.size == PixelSize(width: 3840, height: 2160))
        let phone = try BrowserViewport(cssWidth: 390, cssHeight: 844, devicePixelRatio: 3)
        #expect(!phone.isClamped && phone.mode.size == PixelSize(width: 1170, height: 2532))
    }
}
