import ExternalDisplayKit
import ExternalDisplayUIKit
import Testing

@Suite("UIScreen attributes to Display")
struct ScreenDescriptionTests {
    let hd = ScreenDescription.Mode(width: 1920, height: 1080)
    let hdReady = ScreenDescription.Mode(width: 1280, height: 720)

    @Test("Modes, preferred and current mode carry over; refresh comes from maximumFramesPerSecond")
    func modes() {
        let screen = ScreenDescription(modes: [hd, hdReady], preferredMode: hd, currentMode: hdReady,
                                       boundsWidth: 1280, boundsHeight: 720, maximumFramesPerSecond: 50)
        let display = screen.display(id: "screen-1", name: "TV")
        #expect(display.modes.map(\.size.description) == ["1280×720", "1920×1080"])
        #expect(display.preferredMode == DisplayMode(width: 1920, height: 1080, refreshRate: 50))
        #expect(display.currentMode == DisplayMode(width: 1280, height: 720, refreshRate: 50))
        #expect(display.maximumFramesPerSecond == 50)
        #expect(display.name == "TV" && display.id == "screen-1")
    }

    @Test("Without a current mode the preferred one is current; a screen that reports no rate gets 60")
    func fallbacks() {
        let screen = ScreenDescription(modes: [hd], preferredMode: hd, currentMode: nil,
                                       boundsWidth: 1920, boundsHeight: 1080, maximumFramesPerSecond: 0)
        #expect(screen.display(id: "a", name: "a").currentMode == DisplayMode(width: 1920, height: 1080))
    }

    @Test("Composite NTSC keeps its pixel aspect ratio: 720×480 at 8:9 lays out as 640×480 points")
    func nonSquarePixels() {
        let ntsc = ScreenDescription.Mode(width: 720, height: 480, pixelAspectRatio: 8.0 / 9.0)
        let screen = ScreenDescription(modes: [ntsc], preferredMode: ntsc, currentMode: ntsc,
                                       boundsWidth: 640, boundsHeight: 480)
        let display = screen.display(id: "c", name: "composite", connection: .composite)
        #expect(display.currentMode.boundsInPoints == PixelSize(width: 640, height: 480))
        #expect(display.connection == .composite)
    }

    @Test("Overscan insets become the fraction of each edge the panel crops")
    func overscan() {
        let tv = ScreenDescription(modes: [hdReady], preferredMode: hdReady, currentMode: hdReady,
                                   boundsWidth: 1280, boundsHeight: 720,
                                   overscanInsets: .init(top: 18, left: 32, bottom: 18, right: 32))
        #expect(abs(tv.overscanFraction - 0.025) < 1e-9)
        let layout = tv.display(id: "tv", name: "tv").layout(compensation: .none)
        #expect(layout.safeFrame == Rect(x: 32, y: 18, width: 1216, height: 684))
        let flat = ScreenDescription(modes: [hd], boundsWidth: 0, boundsHeight: 0,
                                     overscanInsets: .init(top: 5, left: 5, bottom: 5, right: 5))
        #expect(flat.overscanFraction == 0)
    }

    @Test("A requested mode is found by size and pixel aspect ratio, not by position")
    func modeLookup() {
        let screen = ScreenDescription(modes: [hd, hdReady], boundsWidth: 1920, boundsHeight: 1080)
        #expect(screen.indexOfMode(matching: DisplayMode(width: 1280, height: 720)) == 1)
        #expect(screen.indexOfMode(matching: DisplayMode(width: 640, height: 480)) == nil)
    }

    @Test("UIKit's overscan raw values: scale 0, insetBounds 1, none 2")
    func compensationRawValues() {
        #expect(OverscanCompensation.allCases.map(\.uiKitRawValue) == [0, 1, 2])
    }

    @Test("The audio route tells AirPlay from a cable")
    func connection() {
        #expect(ConnectionKind(audioRoutePortTypes: ["AirPlay"]) == .airplay)
        #expect(ConnectionKind(audioRoutePortTypes: ["HDMI"]) == .hdmi)
        #expect(ConnectionKind(audioRoutePortTypes: []) == .hdmi)
    }
}

@Suite("Screen identities")
struct DisplayIdentitiesTests {
    @Test("Ids follow arrival, survive lookups, and are never reused after a replug")
    func identities() {
        var ids = DisplayIdentities<Int>()
        #expect(ids.assign(10) == "screen-1")
        #expect(ids.assign(20) == "screen-2")
        #expect(ids.assign(10) == "screen-1")
        #expect(ids.key(for: "screen-2") == 20)
        #expect(ids.remove(10) == "screen-1")
        #expect(ids.id(for: 10) == nil)
        #expect(ids.assign(10) == "screen-3")
        #expect(ids.all == ["screen-2", "screen-3"])
    }
}
