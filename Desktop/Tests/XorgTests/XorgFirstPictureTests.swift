#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The first picture at 4K on a real X server: `extdisplay present` on a 3840×2160 audience output may show page 1
/// as a quick low-resolution render first, but it must end sharp — DUMMY1 read from the screen matches pdftoppm's
/// own render of the page at 3840×2160 — and the quick picture is never drawn after the sharp one (the presenter's
/// timing log says what it drew, in order). Part of the serialized Xorg suite.
extension XorgPresenterTests {
    /// Page 1: a light page with small dark squares at fractional positions (their edges fall between the pixels of
    /// a 1280×720 render scaled up: a blurry picture differs from the sharp one at every square); page 2 plain.
    static func fineDeck() throws -> URL {
        var boxes = MiniPDF.solid(235, 235, 225, width: 960, height: 540)
        for i in 0..<24 {
            boxes.append(MiniPDF.Box(x: 40.37 + Double(i % 6) * 150.13, y: 40.71 + Double(i / 6) * 120.29,
                                     width: 9.3, height: 7.7, r: 20, g: 30, b: 120))
        }
        return try MiniPDF.write(MiniPDF.data(pages: [boxes, MiniPDF.solid(0, 90, 0, width: 960, height: 540)],
                                              width: 960, height: 540), name: "fine.pdf")
    }

    /// pdftoppm's own render of `pdf`'s page 1 at 3840×2160 (run here, not through the presenter's renderer).
    static func referenceRender(_ pdf: URL) throws -> PageRaster {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("first-picture-\(UUID().uuidString)")
        let result = try Shell.run(["pdftoppm", "-cropbox", "-f", "1", "-l", "1", "-singlefile", "-scale-to-x", "3840",
                                    "-scale-to-y", "2160", pdf.path, out.path])
        defer { try? FileManager.default.removeItem(at: out.appendingPathExtension("ppm")) }
        guard result.status == 0, let data = FileManager.default.contents(atPath: out.appendingPathExtension("ppm").path),
              let raster = PageRaster.decodePPM(data), raster.width == 3840, raster.height == 2160 else {
            throw XorgTestError("pdftoppm did not render page 1 of \(pdf.path) at 3840×2160: \(result.output)")
        }
        return raster
    }

    /// Pixels of DUMMY1 (at +1920+0) on every 4th row and column that differ from `reference` by more than 24 in a
    /// channel.
    static func differing(_ image: XWDImage, _ reference: PageRaster) -> Int {
        var count = 0
        for y in stride(from: 0, to: 2160, by: 4) {
            for x in stride(from: 0, to: 3840, by: 4) {
                let (r, g, b) = image.pixel(1920 + x, y)
                let i = (y * 3840 + x) * 4
                let d = max(abs(r - Int(reference.rgba[i])), abs(g - Int(reference.rgba[i + 1])), abs(b - Int(reference.rgba[i + 2])))
                if d > 24 { count += 1 }
            }
        }
        return count
    }

    @Test func pageOneAt4KEndsSharpAndTheQuickPictureNeverFollowsIt() throws {
        let pdf = try Self.fineDeck()
        let reference = try Self.referenceRender(pdf)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("first-picture-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try XorgServer.start()
        defer { server.stop() }
        try server.setUHD("DUMMY1", rate: 30)
        let presenter = try ChildProcess([try Self.extdisplay, "present", pdf.path],
                                         environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11",
                                                       "EXTDISPLAY_TIMING_LOG": log.path,
                                                       "EXTDISPLAY_STATE_DIR": try stateFolder().path])
        #expect(poll(20) { presenter.lines.contains { $0.contains("external: DUMMY1") } }, "stderr: \(presenter.stderr)")
        // Sharp: every sampled pixel as pdftoppm renders it (a few allowed at the squares' antialiased edges).
        var last = -1
        let sharp = try poll(30, every: 0.1) {
            last = Self.differing(try server.captureRoot(), reference)
            return last <= 20
        }
        #expect(sharp, "DUMMY1 never matched pdftoppm's render of page 1: \(last) of 518,400 sampled pixels differ")
        try server.key("ctrl+q")
        #expect(presenter.exitStatus(timeout: 10) == 0)
        // The order drawn: quick pictures (if any) only before the first sharp page 1 at 3840×2160.
        let lines = (try String(contentsOf: log, encoding: .utf8)).split(separator: "\n")
        let sharpAt = lines.firstIndex { $0.contains("drawn page=1 size=3840x2160") }
        #expect(sharpAt != nil, "the timing log shows no sharp page 1 at 4K: \(lines.suffix(20))")
        let quick = lines.indices.filter { lines[$0].contains("drawn preview page=1") }
        if let sharpAt { #expect(quick.allSatisfy { $0 < sharpAt }, "a quick picture drawn after the sharp page: \(lines)") }
        if let first = quick.first, let sharpAt,
           let t0 = Double(lines[first].split(separator: " ").first ?? ""),
           let t1 = Double(lines[sharpAt].split(separator: " ").first ?? "") {
            print("first picture: quick picture drawn at \(t0) ms, sharp at \(t1) ms: blurry for \(t1 - t0) ms (debug build)")
        }
    }
}
#endif
