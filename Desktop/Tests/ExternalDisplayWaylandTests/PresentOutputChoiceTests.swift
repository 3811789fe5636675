#if canImport(CSDL2)
import ExternalDisplayKit
import Testing
@testable import ExternalDisplayWayland

/// Which output gets the console, and which SDL display is a given output: the two choices the Wayland
/// presenter makes before any window opens.
@Suite("Wayland present: output choice")
@MainActor
struct PresentOutputChoiceTests {
    static func output(_ name: String, _ description: String, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> WaylandPresentOutput {
        let mode = DisplayMode(width: w, height: h, refreshRate: 60)
        return WaylandPresentOutput(name: name, description: description, logical: Rect(x: x, y: y, width: w, height: h),
                                    display: Display(id: DisplayID(name), name: description, connection: .virtual,
                                                     modes: [mode], preferredMode: mode, currentMode: mode))
    }

    let laptop = output("eDP-1", "Laptop panel", 0, 0, 1920, 1080)
    let projector = output("HDMI-A-1", "Epson projector", 1920, 0, 1280, 720)
    let left = output("DP-2", "Dell monitor", -1280, 0, 1280, 1024)

    @Test func theConsoleGoesOnTheOutputAtTheOriginUnlessThatIsTheAudienceOutput() {
        #expect(WaylandPresentOutput.consoleOutput(of: [projector, laptop], audience: nil)?.name == "eDP-1")
        #expect(WaylandPresentOutput.consoleOutput(of: [projector, laptop], audience: "HDMI-A-1")?.name == "eDP-1")
        // The audience output is at the origin: the console takes the top-left-most other output.
        #expect(WaylandPresentOutput.consoleOutput(of: [laptop, projector, left], audience: "eDP-1")?.name == "DP-2")
        // Nothing at the origin: top-left-most.
        #expect(WaylandPresentOutput.consoleOutput(of: [projector, left], audience: nil)?.name == "DP-2")
        #expect(WaylandPresentOutput.consoleOutput(of: [laptop], audience: "eDP-1") == nil)
        // The output API's main display wins, unless the audience is to go there.
        var mainProjector = projector
        mainProjector.isMain = true
        #expect(WaylandPresentOutput.consoleOutput(of: [laptop, mainProjector], audience: nil)?.name == "HDMI-A-1")
        #expect(WaylandPresentOutput.consoleOutput(of: [laptop, mainProjector], audience: "HDMI-A-1")?.name == "eDP-1")
        #expect(WaylandPresentOutput.consoleOutput(of: [], audience: nil) == nil)
    }

    @Test func anOutputIsTheSDLDisplayWithItsLogicalRectangleThenItsDescription() {
        let displays = [WaylandFullscreen.SDLDisplay(name: "Laptop panel", bounds: laptop.logical),
                        WaylandFullscreen.SDLDisplay(name: "Epson projector", bounds: projector.logical)]
        #expect(WaylandFullscreen.index(of: projector, among: displays) == 1)
        #expect(WaylandFullscreen.index(of: laptop, among: displays) == 0)
        // Moved, but SDL has not heard yet: the description decides.
        var moved = projector
        moved.logical = Rect(x: 0, y: 1080, width: 1280, height: 720)
        #expect(WaylandFullscreen.index(of: moved, among: displays) == 1)
        // Mirrored outputs share a rectangle: the description tells them apart.
        let mirrored = [WaylandFullscreen.SDLDisplay(name: "Laptop panel", bounds: laptop.logical),
                        WaylandFullscreen.SDLDisplay(name: "Twin", bounds: laptop.logical)]
        #expect(WaylandFullscreen.index(of: laptop, among: mirrored) == 0)
        // Unknown to SDL, or ambiguous: no display (the caller waits or reports).
        #expect(WaylandFullscreen.index(of: left, among: displays) == nil)
        let twins = [WaylandFullscreen.SDLDisplay(name: "X", bounds: Rect(x: 5, y: 5, width: 1, height: 1)),
                     WaylandFullscreen.SDLDisplay(name: "X", bounds: Rect(x: 6, y: 5, width: 1, height: 1))]
        var x = left
        x.description = "X"
        #expect(WaylandFullscreen.index(of: x, among: twins) == nil)
    }
}
#endif
