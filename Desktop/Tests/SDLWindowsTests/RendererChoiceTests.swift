import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation
import Testing

/// Which SDL renderer a display's window gets: the GPU's (OpenGL, vsync) when there is a GPU, SDL's software
/// renderer when OpenGL could only be Mesa's software rasteriser.
@Suite("Renderer choice")
struct RendererChoiceTests {
    @Test func aDRMDeviceMeansAGPUAndNoDeviceMeansSoftware() {
        #expect(DesktopSurface.hasGPU(devices: ["card0", "renderD128", "by-path"], environment: [:]))
        #expect(DesktopSurface.hasGPU(devices: ["renderD128"], environment: [:]))
        #expect(!DesktopSurface.hasGPU(devices: [], environment: [:]))
        #expect(!DesktopSurface.hasGPU(devices: ["by-path", "by-id"], environment: [:]))
        #expect(!DesktopSurface.hasGPU(devices: [], environment: ["SDL_RENDER_DRIVER": ""]))
    }

    @Test func sdlRenderDriverInTheEnvironmentLetsSDLChoose() {
        #expect(DesktopSurface.hasGPU(devices: [], environment: ["SDL_RENDER_DRIVER": "opengl"]))
        #expect(DesktopSurface.hasGPU(devices: [], environment: ["SDL_RENDER_DRIVER": "software"]))
    }
}
