// present-bench flip-floor: where a 4K flip's time goes on this machine's software path, each step timed alone
// (medians), on its own Xorg-dummy server with DUMMY1 at 3840×2160:
//
//   swift build -c release --product present-bench && Desktop/.build/release/present-bench flip-floor [--size 3840x2160]
//
// The floor: a memcpy of the page's pixels, and the X server's copy of a whole window (XShmPutImage of SDL's window
// surface, with the XSync SDL waits on). Then what the presenter adds: pdftoppm's render (ahead of the flip), the PPM
// decode (ahead), the texture upload with its pixel conversion (ahead when prepared), and a flip of a page prepared
// as a texture (texture copy and present: what the key waits for).
#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation
import SDLWindows

#if canImport(Glibc)
import Glibc
#endif

/// The median of `count` timings of `body`, in milliseconds.
@MainActor
func medianMilliseconds(_ count: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<count {
        let start = SDLVideo.now()
        body()
        times.append((SDLVideo.now() - start) * 1000)
    }
    return times.sorted()[times.count / 2]
}

@MainActor
func flipFloorBench(_ arguments: [String]) {
    var width = 3840, height = 2160
    var args = arguments[...]
    while let arg = args.popFirst() {
        let sides = (args.popFirst() ?? "").split(separator: "x").compactMap { Int($0) }
        guard arg == "--size", sides.count == 2, (64...7680).contains(sides[0]), (64...4320).contains(sides[1]) else {
            FileHandle.standardError.write(Data("usage: present-bench flip-floor [--size WxH, 64…7680 × 64…4320]\n".utf8))
            exit(2)
        }
        (width, height) = (sides[0], sides[1])
    }
    do { try FlipFloor(width: width, height: height).run() } catch {
        FileHandle.standardError.write(Data("present-bench flip-floor: \(error)\n".utf8))
        exit(2)
    }
}

@MainActor
struct FlipFloor {
    let width: Int, height: Int

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-floor-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let pdf = work.appendingPathComponent("deck.pdf")
        try BenchDeck(pages: 4).pdf().write(to: pdf)
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let root = FileManager.default.fileExists(atPath: cwd.appendingPathComponent("scripts/xorg-dummy.sh").path)
            ? cwd : cwd.deletingLastPathComponent()
        let server = try BenchServer(packageRoot: root, workDirectory: work)
        defer { server.shutdown() }
        let mode = "\(width)x\(height)_floor"
        // CEA 4K timings scaled to the size asked for (the dummy driver takes any mode it is given).
        let clock = String(format: "%.2f", Double((width + 560) * (height + 90) * 30) / 1e6)
        try runTool("/usr/bin/xrandr", ["--newmode", mode, clock, "\(width)", "\(width + 176)", "\(width + 264)", "\(width + 560)",
                                        "\(height)", "\(height + 8)", "\(height + 18)", "\(height + 90)", "+hsync", "+vsync"],
                    environment: ["DISPLAY": server.display])
        try runTool("/usr/bin/xrandr", ["--addmode", "DUMMY1", mode], environment: ["DISPLAY": server.display])
        try server.xrandr("--output", "DUMMY1", "--mode", mode, "--right-of", "DUMMY0")
        setenv("DISPLAY", server.display, 1)
        setenv("SDL_VIDEODRIVER", "x11", 1)
        let bytes = width * height * 4
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
        print("flip floor at \(width)×\(height) (\(bytes >> 20) MiB a picture), load average \(load) at the start")

        // The floor: the page's pixels copied once.
        let source = [UInt8](repeating: 0x5A, count: bytes)
        var target = [UInt8](repeating: 0, count: bytes)
        let copy = medianMilliseconds(15) {
            source.withUnsafeBytes { s in target.withUnsafeMutableBytes { t in _ = memcpy(t.baseAddress!, s.baseAddress!, bytes) } }
        }
        print(String(format: "  memcpy of one picture: %.1f ms", copy))

        // Ahead of the flip: pdftoppm's render, then the PPM decode.
        let page = PDFPage(document: pdf, index: 0, width: Double(BenchDeck.width), height: Double(BenchDeck.height), pageCount: 4)
        var raster: PageRaster?
        let render = medianMilliseconds(3) { raster = try? PopplerRasterizer.render(page, width: width, height: height) }
        print(String(format: "  pdftoppm render (a process, ahead of the flip): %.0f ms", render))
        let ppm = try ToolProcess.run("pdftoppm", ["-f", "1", "-l", "1", "-singlefile", "-scale-to-x", "\(width)",
                                                   "-scale-to-y", "\(height)", pdf.path], outputLimit: bytes + 4096).output
        let decode = medianMilliseconds(5) { raster = PageRaster.decodePPM(ppm) }
        print(String(format: "  PPM decode to RGBA (ahead): %.1f ms", decode))
        guard let raster else { throw BenchError("pdftoppm rendered nothing: is poppler-utils installed?") }

        // The window: the audience's, on its window surface (X11's shared-memory image).
        let surface = try DesktopSurface(display: "DUMMY1", name: "floor", frame: Rect(x: 1920, y: 0, width: width, height: height),
                                         drawing: .windowSurface)
        defer { surface.destroy() }
        surface.show(.app)
        for _ in 0..<20 { SDL_PumpEvents(); usleep(20_000) }
        let format = SDL_GetWindowPixelFormat(surface.window)
        var converted = [UInt8](repeating: 0, count: bytes)
        let conversion = medianMilliseconds(9) {
            raster.rgba.withUnsafeBytes { s in
                converted.withUnsafeMutableBytes { t in
                    _ = SDL_ConvertPixels(Int32(width), Int32(height), SDL_PIXELFORMAT_ABGR8888.rawValue, s.baseAddress,
                                          Int32(width * 4), format, t.baseAddress, Int32(width * 4))
                }
            }
        }
        print(String(format: "  RGBA → the window's format (%@), the upload's conversion (ahead when prepared): %.1f ms",
                     String(cString: SDL_GetPixelFormatName(format)), conversion))
        let put = medianMilliseconds(15) {
            surface.display(changedRects: [Rect(x: 0, y: 0, width: width, height: height)]) { _, _ in }
        }
        print(String(format: "  the X server's copy of the whole window (XShmPutImage + XSync): %.1f ms", put))

        // A flip of pages prepared as textures: texture copy into the window surface, then the X server's copy.
        let canvas = SDLPresenterCanvas(surface.canvas, caches: benchCaches)
        var shown = 0
        let pages = (0..<2).map { i in
            PDFPage(document: pdf, index: i, width: Double(BenchDeck.width), height: Double(BenchDeck.height), pageCount: 4)
        }
        surface.onDraw = { _ in _ = canvas.page(pages[shown], in: Rect(x: 0, y: 0, width: width, height: height)) }
        for index in [0, 1, 0] {
            shown = index
            surface.setNeedsDisplay()
            surface.displayIfNeeded()
        }
        let flip = medianMilliseconds(15) {
            shown = 1 - shown
            surface.setNeedsDisplay()
            surface.displayIfNeeded()
        }
        print(String(format: "  a flip between pages prepared as textures (copy + present): %.1f ms", flip))
        print(String(format: "  floor (memcpy + X server's copy): %.1f ms; the flip is %.1f× that", copy + put, flip / (copy + put)))
    }
}
#endif
