import ExternalDisplayKit
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation
import Testing

/// The canvas headless: an off-screen software surface, no video driver, no X server.
@Suite("Canvas (headless)", .serialized)
struct CanvasTests {
    @Test("fill, rectangles and lines land on the right pixels; the PNG decodes to the same pixels")
    func drawAndSnapshot() throws {
        let canvas = try Canvas(width: 320, height: 200)
        #expect(canvas.isOffscreen)
        canvas.clear(Color(hex: 0x102030))
        canvas.fill(Rect(x: 10, y: 10, width: 50, height: 40), .red)
        canvas.stroke(Rect(x: 100, y: 10, width: 60, height: 60), .green, lineWidth: 4)
        canvas.line(x1: 0, y1: 150, x2: 319, y2: 150, .blue)
        canvas.line(x1: 200, y1: 100, x2: 300, y2: 100, .white, lineWidth: 6)
        let pixels = canvas.readPixels()
        #expect(pixels.pixel(x: 0, y: 0) == Color(hex: 0x102030))
        #expect(pixels.pixel(x: 30, y: 30) == .red)
        #expect(pixels.pixel(x: 101, y: 40) == .green)
        #expect(pixels.pixel(x: 130, y: 40) == Color(hex: 0x102030))
        #expect(pixels.pixel(x: 160, y: 150) == .blue)
        #expect(pixels.pixel(x: 250, y: 101) == .white)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("edk-canvas-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try canvas.readPixels().writePNG(to: url)
        let decoded = try Bitmap(contentsOf: url)
        #expect(decoded == pixels)
        #expect(canvas.snapshotPNG().starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("a clip rectangle limits drawing; pixel(x:y:) reads one pixel; an empty rectangle draws nothing")
    func clipAndPixel() throws {
        let canvas = try Canvas(width: 200, height: 100)
        canvas.clear(.black)
        canvas.clip = Rect(x: 50, y: 20, width: 40, height: 30)
        canvas.fill(Rect(x: 0, y: 0, width: 200, height: 100), .red)
        canvas.clip = nil
        #expect(canvas.pixel(x: 50, y: 20) == .red)
        #expect(canvas.pixel(x: 89, y: 49) == .red)
        #expect(canvas.pixel(x: 90, y: 20) == .black && canvas.pixel(x: 50, y: 50) == .black)
        #expect(canvas.pixel(x: 49, y: 19) == .black)
        #expect(canvas.pixel(x: -1, y: 0) == Color(red: 0, green: 0, blue: 0, alpha: 0), "outside: transparent")
        #expect(canvas.pixel(x: 60, y: 30) == canvas.readPixels().pixel(x: 60, y: 30))
        // SDL's software renderer would widen these to one pixel.
        canvas.fill(Rect(x: 10, y: 10, width: 0, height: 50), .white)
        canvas.fill(Rect(x: 20, y: 10, width: -5, height: 50), .white)
        #expect(canvas.pixel(x: 10, y: 30) == .black && canvas.pixel(x: 19, y: 30) == .black)
    }

    @Test("DejaVu is looked for in EXTDISPLAY_FONT_DIR first, then in the system's font folders")
    func fontDirectory() throws {
        let system = CanvasFont.fontDirectoryCandidates(environment: [:])
        #expect(system.first == CanvasFont.systemFontDirectory)
        #expect(CanvasFont.fontDirectoryCandidates(environment: ["EXTDISPLAY_FONT_DIR": "/opt/fonts"])
                == ["/opt/fonts"] + system)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("edk-fonts-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(CanvasFont.findFontDirectory(environment: ["EXTDISPLAY_FONT_DIR": dir.path]) != dir.path,
                "a folder without DejaVuSans.ttf is skipped")
        try Data().write(to: dir.appendingPathComponent("DejaVuSans.ttf"))
        #expect(CanvasFont.findFontDirectory(environment: ["EXTDISPLAY_FONT_DIR": dir.path]) == dir.path)
        #expect(CanvasFont(size: 12).resolvedPath == CanvasFont.fontDirectory + "/DejaVuSans.ttf")
        #expect(CanvasFont(size: 12, path: "/x.ttf").resolvedPath == "/x.ttf")
    }

    @Test("text is measured and drawn with DejaVu")
    func text() throws {
        let canvas = try Canvas(width: 400, height: 100)
        canvas.clear(.black)
        let font = CanvasFont(size: 32, weight: .bold)
        let measured = try canvas.measure("Hello", font: font)
        #expect(measured.width > 60 && measured.width < 200)
        #expect(measured.height >= 32 && measured.height < 60)
        let drawn = try canvas.text("Hello", x: 10, y: 10, font: font, color: .white)
        #expect(drawn == measured)
        let pixels = canvas.readPixels()
        var lit = 0
        for y in 10..<(10 + drawn.height) {
            for x in 10..<(10 + drawn.width) where pixels.pixel(x: x, y: y).red > 200 { lit += 1 }
        }
        #expect(lit > 100)
        #expect(pixels.pixel(x: 390, y: 90) == .black)
        #expect(throws: CanvasError.self) { try canvas.measure("x", font: CanvasFont(size: 10, path: "/nope.ttf")) }
    }

    @Test("images: a PNG is drawn scaled; a BMP loads")
    func images() throws {
        var quadrants = Bitmap(width: 2, height: 2, color: .red)
        quadrants.pixels.replaceSubrange(4..<8, with: [0, 0, 255, 255])
        let canvas = try Canvas(width: 100, height: 100)
        canvas.clear(.black)
        canvas.draw(quadrants, in: Rect(x: 0, y: 0, width: 100, height: 100))
        let pixels = canvas.readPixels()
        #expect(pixels.pixel(x: 25, y: 25) == .red)
        #expect(pixels.pixel(x: 75, y: 25) == .blue)

        let dir = FileManager.default.temporaryDirectory
        let png = dir.appendingPathComponent("edk-\(UUID()).png"), bmp = dir.appendingPathComponent("edk-\(UUID()).bmp")
        defer { try? FileManager.default.removeItem(at: png); try? FileManager.default.removeItem(at: bmp) }
        try quadrants.writePNG(to: png)
        #expect(try Bitmap(contentsOf: png) == quadrants)
        try Data(Self.bmp24(width: 2, height: 1, bgr: [0, 0, 255, 0, 255, 0])).write(to: bmp)
        let loaded = try Bitmap(contentsOf: bmp)
        #expect(loaded.pixel(x: 0, y: 0) == .red)
        #expect(loaded.pixel(x: 1, y: 0) == .green)
        #expect(throws: CanvasError.self) { try Bitmap(contentsOf: dir.appendingPathComponent("missing-\(UUID()).png")) }
    }

    @Test("EDID monitor names, sanitised names and connection kinds")
    func naming() {
        var edid = [UInt8](repeating: 0, count: 128)
        let descriptor: [UInt8] = [0, 0, 0, 0xFC, 0] + Array("DELL U2415\n  ".utf8)
        edid.replaceSubrange(72..<90, with: descriptor)
        #expect(DisplayNaming.edidMonitorName(edid) == "DELL U2415")
        #expect(DisplayNaming.edidMonitorName([UInt8](repeating: 0, count: 128)) == nil)
        #expect(DisplayNaming.sanitise("LG \"27\"\u{1}  TV") == "LG 27 TV")
        #expect(DisplayNaming.connection(forOutput: "HDMI-1") == .hdmi)
        #expect(DisplayNaming.connection(forOutput: "DP-2") == .displayPort)
        #expect(DisplayNaming.connection(forOutput: "eDP-1") == .builtIn)
        #expect(DisplayNaming.connection(forOutput: "LVDS1") == .builtIn)
        #expect(DisplayNaming.connection(forOutput: "VGA-1") == .vga)
        #expect(DisplayNaming.connection(forOutput: "DVI-I-1") == .dvi)
        #expect(DisplayNaming.connection(forOutput: "DUMMY3") == .virtual)
    }

    /// A minimal 24-bit BMP (rows bottom-up, padded to 4 bytes).
    static func bmp24(width: Int, height: Int, bgr: [UInt8]) -> [UInt8] {
        let rowSize = (width * 3 + 3) / 4 * 4
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
        var out: [UInt8] = [0x42, 0x4D] + le32(54 + rowSize * height) + le32(0) + le32(54)
        out += le32(40) + le32(width) + le32(height) + [1, 0, 24, 0] + le32(0) + le32(rowSize * height)
        out += le32(2835) + le32(2835) + le32(0) + le32(0)
        for row in (0..<height).reversed() {
            let start = row * width * 3
            out += bgr[start..<start + width * 3] + [UInt8](repeating: 0, count: rowSize - width * 3)
        }
        return out
    }
}
