import CSDBus
import Foundation

/// Screenshots KWin takes itself, through its D-Bus API `org.kde.KWin.ScreenShot2` (version 4): `CaptureScreen`
/// (`sa{sv}h`: one output by name, options, a pipe) writes the raw image to the pipe whose write end travels with
/// the call; the reply describes it (`width`, `height`, `stride`, `format` — a
/// QImage format — and `type` `raw`). The headless KWin of the tests lets any bus client call it
/// (`KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1`; a real Plasma session allows only trusted programs). Written for
/// the tests only; the PNG is written by Python's zlib, apart from the code under test.
public enum KWinScreenShot {
    /// The image KWin describes in its reply.
    struct Description {
        var width = 0, height = 0, stride = 0, format = -1
        var type = ""
    }

    /// Captures output `output` on the KWin whose bus is `busAddress` into a new PNG.
    public static func capture(busAddress: String, output: String) throws -> URL {
        try capture(busAddress: busAddress, member: "CaptureScreen", output)
    }

    /// Captures one window (`CaptureWindow`, `sa{sv}h`: the window's handle — its internal id, a UUID in braces —
    /// options, a pipe) into a new PNG: the window alone, as KWin draws it offscreen, covered or not.
    public static func capture(busAddress: String, window handle: String) throws -> URL {
        try capture(busAddress: busAddress, member: "CaptureWindow", handle)
    }

    /// `member` (`CaptureScreen`, `CaptureWindow`) with `target` as its string argument, no options.
    private static func capture(busAddress: String, member: String, _ target: String) throws -> URL {
        let output = target
        let bus = try MutterBusCall.open(busAddress)
        defer { sd_bus_flush_close_unref(bus) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SupportError("pipe failed: \(String(cString: strerror(errno)))") }
        defer { close(ends[0]) }
        let reply: OpaquePointer
        do {
            reply = try MutterBusCall.call(bus, service: "org.kde.KWin.ScreenShot2", "/org/kde/KWin/ScreenShot2",
                                           "org.kde.KWin.ScreenShot2", member, timeoutMicroseconds: 10_000_000) { message in
                var result = output.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
                if result >= 0 { result = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}") }
                if result >= 0 { result = sd_bus_message_close_container(message) }
                var fd = ends[1]
                if result >= 0 { result = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "h")), &fd) }
                return result
            }
        } catch {
            close(ends[1])
            throw error
        }
        close(ends[1])
        defer { sd_bus_message_unref(reply) }
        let description = try read(reply)
        guard description.type == "raw", description.width > 0, description.height > 0,
              description.stride >= description.width * 4 else {
            throw SupportError("ScreenShot2 \(member) described an image this cannot read: \(description)")
        }
        let data = try drain(ends[0], expected: description.stride * description.height)
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("edk-kwin-\(UUID().uuidString).raw")
        let png = raw.deletingPathExtension().appendingPathExtension("png")
        try data.write(to: raw)
        defer { try? FileManager.default.removeItem(at: raw) }
        let result = try runToEnd("/usr/bin/python3", ["-c", toPNG, raw.path, png.path, String(description.width),
                                                       String(description.height), String(description.stride),
                                                       String(description.format)])
        guard result.status == 0 else { throw SupportError("the screenshot could not be written as PNG: \(result.stderr)") }
        return png
    }

    /// The reply's `a{sv}`: the numbers and the type.
    private static func read(_ reply: OpaquePointer) throws -> Description {
        var description = Description()
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "{sv}") > 0 else {
            throw SupportError("ScreenShot2 answered no a{sv}")
        }
        while sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "e")), "sv") > 0 {
            var key: UnsafePointer<CChar>?
            _ = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &key)
            var kind: CChar = 0
            var contents: UnsafePointer<CChar>?
            _ = sd_bus_message_peek_type(reply, &kind, &contents)
            let signature = contents.map { String(cString: $0) } ?? ""
            _ = sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), contents)
            var number: UInt32 = 0
            var text: UnsafePointer<CChar>?
            switch signature {
            case "u", "i":
                _ = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: signature == "u" ? "u" : "i")), &number)
                switch key.map({ String(cString: $0) }) {
                case "width": description.width = Int(number)
                case "height": description.height = Int(number)
                case "stride": description.stride = Int(number)
                case "format": description.format = Int(number)
                default: break
                }
            case "s":
                _ = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &text)
                if key.map({ String(cString: $0) }) == "type", let text { description.type = String(cString: text) }
            default:
                _ = sd_bus_message_skip(reply, contents)
            }
            _ = sd_bus_message_exit_container(reply)
            _ = sd_bus_message_exit_container(reply)
        }
        _ = sd_bus_message_exit_container(reply)
        return description
    }

    /// Reads the pipe to its end (KWin writes from a thread of its own once it has replied), 10 s at most.
    private static func drain(_ fd: Int32, expected: Int) throws -> Data {
        var data = Data()
        data.reserveCapacity(expected)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 500) >= 0 || errno == EINTR else { break }
            if ready.revents == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: buffer[0..<n]) } else if n == 0 || errno != EINTR { break }
        }
        guard data.count >= expected else {
            throw SupportError("ScreenShot2 wrote \(data.count) bytes of the \(expected) it described")
        }
        return data
    }

    /// Raw rows (QImage ARGB32 / RGB32 / premultiplied: B, G, R, A bytes; RGBX8888 / RGBA8888: R, G, B, A) to an
    /// RGB PNG.
    private static let toPNG = """
    import struct, sys, zlib
    raw, out = sys.argv[1], sys.argv[2]
    w, h, stride, fmt = map(int, sys.argv[3:7])
    order = {4: (2, 1, 0), 5: (2, 1, 0), 6: (2, 1, 0), 16: (0, 1, 2), 17: (0, 1, 2), 18: (0, 1, 2)}.get(fmt)
    if order is None:
        sys.exit(f"QImage format {fmt} is not one this reads (4, 5, 6, 16, 17, 18)")
    data = open(raw, "rb").read()
    rows = bytearray()
    for y in range(h):
        row = data[y * stride:y * stride + w * 4]
        pixels = bytearray(w * 3)
        pixels[0::3], pixels[1::3], pixels[2::3] = row[order[0]::4], row[order[1]::4], row[order[2]::4]
        rows += b"\\0" + pixels
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")
    open(out, "wb").write(png)
    """
}
