import Foundation
import Testing
@testable import DesktopImages
@testable import DesktopFiles
@testable import DesktopModeState
@testable import DesktopText
@testable import SDLWindows
@testable import X11Outputs

/// Untrusted image and file bytes: sizes refused from the header before any allocation, every PNG bit depth
/// decoded against pixels written by an encoder of the test's own (stored deflate blocks, no zlib), JPEG through
/// libjpeg-turbo, other formats named, FIFOs and devices refused without blocking, atomic writes.
@Suite("Hostile images and files")
struct HostileImageTests {
    // MARK: A PNG writer of the test's own: raw scanlines, zlib stored blocks, no compression library.

    static func png(width: UInt32, height: UInt32, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0,
                    rows: [[UInt8]], palette: [UInt8]? = nil, idat: [UInt8]? = nil, end: Bool = true) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) { out += be(UInt32(body.count)) + Array(type.utf8) + body + [0, 0, 0, 0] }
        chunk("IHDR", be(width) + be(height) + [depth, colorType, 0, 0, interlace])
        if let palette { chunk("PLTE", palette) }
        let raw: [UInt8] = rows.flatMap { (row: [UInt8]) -> [UInt8] in [0] + row }
        chunk("IDAT", idat ?? stored(raw))
        if end { chunk("IEND", []) }
        return out
    }

    /// A zlib stream of stored (uncompressed) blocks with its Adler-32.
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65_535, data.count - at)
            let final: UInt8 = at + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[at..<at + n]
            at += n
        } while at < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    func decode(_ bytes: [UInt8]) -> Result<Bitmap, CanvasError> {
        do { return .success(try Bitmap(decoding: bytes, path: "x.png")) } catch { return .failure(error) }
    }

    func reason(_ bytes: [UInt8]) -> String {
        if case .failure(.unreadableImage(_, let reason)) = decode(bytes) { return reason }
        return "decoded"
    }

    // MARK: Sizes

    @Test(arguments: [(UInt32(100_000), UInt32(100_000)), (0xFFFF_FFFF, 0xFFFF_FFFF), (8193, 1), (1, 8193),
                      (8192, 8193), (0, 10), (10, 0)])
    func declaredSizesOutsideTheLimitAreRefusedBeforeDecoding(width: UInt32, height: UInt32) {
        let bytes = Self.png(width: width, height: height, depth: 8, colorType: 6, rows: [[0, 0, 0, 0]])
        let why = reason(bytes)
        #expect(why.contains("limit of 8192×8192") || why.contains("empty image"), "\(why)")
    }

    @Test func anHonestImageAtTheLimitIsNotRefusedForItsSize() {
        // 8192×1 is inside the limit: it decodes.
        let bytes = Self.png(width: 8192, height: 1, depth: 8, colorType: 0, rows: [[UInt8](repeating: 7, count: 8192)])
        guard case .success(let image) = decode(bytes) else { Issue.record("\(reason(bytes))"); return }
        #expect(image.width == 8192 && image.pixel(x: 8191, y: 0) == Color(red: 7, green: 7, blue: 7))
    }

    @Test func aTinyFileClaimingAHugeImageNeedsLittleMemory() {
        // 4000×4000 RGBA is inside the limit; the 60-byte file holds almost no data: refused as truncated,
        // without allocating 64 MB first (the inflater grows with real data only).
        let before = Self.residentBytes()
        let bytes = Self.png(width: 4000, height: 4000, depth: 8, colorType: 6, rows: [[0, 0, 0, 0]])
        #expect(reason(bytes).contains("image data"), "\(reason(bytes))")
        #expect(Self.residentBytes() - before < 32 << 20)
    }

    static func residentBytes() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        return (Int(text.split(separator: " ")[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    // MARK: Bit depths, against pixels chosen here

    @Test func onetwoAndFourBitPalettesDecode() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]
        // 1-bit: pixels 1,0,1 → 0b1010_0000.
        let one = try #require(try? Bitmap(decoding: Self.png(width: 3, height: 1, depth: 1, colorType: 3,
                                                              rows: [[0b1010_0000]], palette: palette), path: "p1"))
        #expect(one.pixel(x: 0, y: 0) == Color(red: 0, green: 255, blue: 0))
        #expect(one.pixel(x: 1, y: 0) == Color(red: 255, green: 0, blue: 0))
        // 2-bit: indices 3,2,1,0 → 0b11_10_01_00.
        let two = try #require(try? Bitmap(decoding: Self.png(width: 4, height: 1, depth: 2, colorType: 3,
                                                              rows: [[0b1110_0100]], palette: palette), path: "p2"))
        #expect(two.pixel(x: 0, y: 0) == Color(red: 9, green: 9, blue: 9))
        #expect(two.pixel(x: 1, y: 0) == Color(red: 0, green: 0, blue: 255))
        #expect(two.pixel(x: 3, y: 0) == Color(red: 255, green: 0, blue: 0))
        // 4-bit over two rows: indices 2,1 then 0,3.
        let four = try #require(try? Bitmap(decoding: Self.png(width: 2, height: 2, depth: 4, colorType: 3,
                                                               rows: [[0x21], [0x03]], palette: palette), path: "p4"))
        #expect(four.pixel(x: 0, y: 0) == Color(red: 0, green: 0, blue: 255))
        #expect(four.pixel(x: 1, y: 1) == Color(red: 9, green: 9, blue: 9))
    }

    @Test func lowDepthGreyAndSixteenBitDecode() throws {
        // 1-bit grey: 1,0 → white, black.
        let grey = try #require(try? Bitmap(decoding: Self.png(width: 2, height: 1, depth: 1, colorType: 0,
                                                               rows: [[0b1000_0000]]), path: "g1"))
        #expect(grey.pixel(x: 0, y: 0) == .white && grey.pixel(x: 1, y: 0) == .black)
        // 16-bit RGB: high bytes 0x12, 0x34, 0x56.
        let deep = try #require(try? Bitmap(decoding: Self.png(width: 1, height: 1, depth: 16, colorType: 2,
                                                               rows: [[0x12, 0xFF, 0x34, 0x00, 0x56, 0x80]]), path: "d16"))
        #expect(deep.pixel(x: 0, y: 0) == Color(red: 0x12, green: 0x34, blue: 0x56))
    }

    @Test func corruptTruncatedInterlacedAndInvalidPNGsSayWhy() {
        let good = Self.png(width: 1, height: 1, depth: 8, colorType: 6, rows: [[1, 2, 3, 4]])
        #expect(reason(Array(good.prefix(good.count - 20))).contains("truncated"))
        #expect(reason(Self.png(width: 1, height: 1, depth: 8, colorType: 6, interlace: 1, rows: [[1, 2, 3, 4]]))
                    .contains("interlaced"))
        #expect(reason(Self.png(width: 1, height: 1, depth: 3, colorType: 6, rows: [[1, 2, 3, 4]])).contains("bit depth"))
        #expect(reason(Self.png(width: 1, height: 1, depth: 8, colorType: 5, rows: [[1, 2, 3, 4]])).contains("colour type"))
        #expect(reason(Self.png(width: 1, height: 1, depth: 8, colorType: 6, rows: [[1, 2, 3, 4]], idat: [1, 2, 3]))
                    .contains("corrupt"))
        #expect(reason(Self.png(width: 1, height: 1, depth: 8, colorType: 6, rows: [])).contains("corrupt"))
        var filter = Self.png(width: 1, height: 1, depth: 8, colorType: 6, rows: [[1, 2, 3, 4]], idat: Self.stored([9, 1, 2, 3, 4]))
        #expect(reason(filter).contains("row filter 9"))
        filter[20] = 0  // no longer matters: a damaged length is caught as truncation or corruption, never a trap
        _ = decode(filter)
        #expect(reason(Self.png(width: 1, height: 1, depth: 8, colorType: 3, rows: [[0]])).contains("PLTE"))
    }

    // MARK: JPEG and other formats

    /// 16×8, left half red, right half blue; baseline and progressive (written with libjpeg's encoder).
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAIABADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD4vr5Door+qP2Zf/NV/wDcj/7uH9qftDP+aZ/7nf8A3UP/2Q==")!
    static let progressiveJPEG = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wgARCAAIABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUAQEAAAAAAAAAAAAAAAAAAAAH/9oADAMBAAIQAxAAAAGLyEVGr//EABQQAQAAAAAAAAAAAAAAAAAAABD/2gAIAQEAAQUCP//EABgRAAIDAAAAAAAAAAAAAAAAAAAIRYPD/9oACAEDAQE/AWGjLsj/xAAYEQACAwAAAAAAAAAAAAAAAAAACEWDw//aAAgBAgEBPwFZZWjY/8QAFBABAAAAAAAAAAAAAAAAAAAAEP/aAAgBAQAGPwI//8QAFBABAAAAAAAAAAAAAAAAAAAAEP/aAAgBAQABPyE//9oADAMBAAIAAwAAABAD/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAgBAwEBPxAf/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAgBAgEBPxAn/8QAFBABAAAAAAAAAAAAAAAAAAAAEP/aAAgBAQABPxA//9k=")!

    @Test(arguments: [jpeg, progressiveJPEG])
    func jpegDecodesThroughLibjpeg(_ data: Data) throws {
        let image = try Bitmap(decoding: Array(data), path: "rb.jpg")
        #expect(image.width == 16 && image.height == 8)
        let left = image.pixel(x: 2, y: 4), right = image.pixel(x: 13, y: 4)
        #expect(left.red > 200 && left.blue < 60, "\(left)")
        #expect(right.blue > 200 && right.red < 60, "\(right)")
        #expect(ImageInfo.pixelSize(header: Array(data))! == (16, 8))
    }

    @Test func truncatedAndHugeJPEGsSayWhy() {
        let bytes = Array(Self.jpeg)
        #expect(reason(Array(bytes.prefix(40))).contains("JPEG"))
        // Patch the SOF0 height and width to 60000×60000.
        var huge = bytes
        if let sof = (2..<huge.count - 9).first(where: { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 }) {
            huge[sof + 5] = 0xEA; huge[sof + 6] = 0x60; huge[sof + 7] = 0xEA; huge[sof + 8] = 0x60
        }
        #expect(reason(huge).contains("limit of 8192×8192"), "\(reason(huge))")
    }

    @Test func otherFormatsAreNamed() {
        #expect(reason(Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)).contains("SVG"))
        #expect(reason(Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8)).contains("GIF"))
        #expect(reason(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)).contains("WebP"))
        #expect(reason([]).contains("empty"))
        #expect(reason([1, 2, 3]).contains("not a PNG, JPEG or BMP"))
    }

    // MARK: Files

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func fifoDevicesAndDirectoriesAreRefusedWithoutBlocking() throws {
        let dir = try Self.folder()
        let fifo = dir.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let zero = dir.appendingPathComponent("zero.png")
        try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
        func why(_ url: URL) -> String {
            do { _ = try UntrustedFile.read(url, limit: 1 << 20); return "read" } catch { return error.reason }
        }
        #expect(why(URL(fileURLWithPath: fifo)).contains("FIFO"))
        #expect(why(zero).contains("device"))
        #expect(why(dir).contains("directory"))
        #expect(why(dir.appendingPathComponent("missing")).contains("does not exist"))
        #expect(ImageInfo.pixelSize(of: URL(fileURLWithPath: fifo)) == nil)
        let big = dir.appendingPathComponent("big.md")
        try Data(count: 2048).write(to: big)
        do { _ = try UntrustedFile.read(big, limit: 1024); Issue.record("read past the limit") } catch {
            #expect(error.reason.contains("limit of 1024"))
        }
    }

    @Test func aFailedWriteLeavesNothingUnderTheFinalName() throws {
        let dir = try Self.folder()
        let target = dir.appendingPathComponent("snap.png")
        try AtomicFile.write(Data([1, 2, 3]), to: target)
        #expect(try Data(contentsOf: target) == Data([1, 2, 3]))
        // A folder that does not exist: the write fails and nothing appears.
        let nowhere = dir.appendingPathComponent("missing/snap.png")
        #expect(throws: AtomicWriteError.self) { try AtomicFile.write(Data([1]), to: nowhere) }
        #expect(!FileManager.default.fileExists(atPath: nowhere.path))
        // /dev/full-like failure is covered end to end by the presenter's snapshot test (a file-size limit).
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["snap.png"])
    }
}
