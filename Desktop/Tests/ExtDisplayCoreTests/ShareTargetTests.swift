import ExtDisplayCore
import Testing

@Suite("--share targets")
struct ShareTargetTests {
    @Test func theKindsAloneAre720pAtThirty() throws {
        let window = try ShareTarget.parse("window")
        #expect(window.kind == .window)
        #expect(window.size == ShareTarget.Size(width: 1280, height: 720))
        #expect(window.displayID.rawValue == "share-window")
        #expect(window.name == "share window 1280×720")
        let camera = try ShareTarget.parse("camera")
        #expect(camera.kind == .camera && camera.frameRate == 30)
        #expect(camera.displayID.rawValue == "share-camera")
        #expect(camera.name == "camera 1280×720")
        #expect(camera.mode.size.width == 1280 && camera.mode.size.height == 720 && camera.mode.refreshRate == 30)
    }

    @Test func aSizeAfterTheKind() throws {
        #expect(try ShareTarget.parse("window=1920x1080").size == ShareTarget.Size(width: 1920, height: 1080))
        #expect(try ShareTarget.parse("camera=640X480").size == ShareTarget.Size(width: 640, height: 480))
        #expect(try ShareTarget.parse("Window=800×600").size == ShareTarget.Size(width: 800, height: 600))
        #expect(try ShareTarget.parse(" camera = 160x120 ").size == ShareTarget.Size(width: 160, height: 120))
        #expect(try ShareTarget.parse("window=7680x4320").size == ShareTarget.Size(width: 7680, height: 4320))
        #expect(try ShareTarget.parse("window=1920x1080").description == "window=1920x1080")
    }

    @Test func unknownKindsAreRefusedWithTheFormsToWrite() {
        for text in ["", "=", "screen", "windows", "cam", "=1280x720", "webcam=1280x720", "window camera"] {
            #expect(throws: ShareTarget.ParseError.unknownKind(text), "\(text)") { try ShareTarget.parse(text) }
        }
        let message = ShareTarget.ParseError.unknownKind("screen").description
        #expect(message.contains("\"screen\"") && message.contains("--share window=1920x1080"))
    }

    @Test func badSizesAreRefused() {
        for size in ["", "1280", "1280x", "x720", "1280x720x2", "-1280x720", "1280x-720", "12.5x720", "1280 x 720",
                     "0x0x", "1e3x720", "１２８０x720", "99999999999999999999x720", "1280x720p"] {
            #expect(throws: ShareTarget.ParseError.badSize(size), "\(size)") { try ShareTarget.parse("window=\(size)") }
        }
        #expect(ShareTarget.ParseError.badSize("1280").description.contains("WIDTHxHEIGHT"))
    }

    @Test func zeroAndHugeSizesAreRefusedWithTheBounds() {
        for (width, height) in [(0, 0), (0, 720), (1280, 0), (159, 720), (1280, 119), (7681, 720), (1280, 4321),
                                (999_999, 999_999)] {
            #expect(throws: ShareTarget.ParseError.sizeOutOfRange(width: width, height: height)) {
                try ShareTarget.parse("camera=\(width)x\(height)")
            }
        }
        let message = ShareTarget.ParseError.sizeOutOfRange(width: 0, height: 0).description
        #expect(message.contains("160…7680") && message.contains("120…4320"))
    }

    @Test func eachKindAtMostOnce() throws {
        let both = try ShareTarget.parseAll(["camera", "window=640x480"])
        #expect(both.map(\.kind) == [.camera, .window])
        #expect(try ShareTarget.parseAll([]).isEmpty)
        #expect(throws: ShareTarget.ParseError.repeated(.window)) { try ShareTarget.parseAll(["window", "window=640x480"]) }
        #expect(throws: ShareTarget.ParseError.repeated(.camera)) { try ShareTarget.parseAll(["camera", "window", "CAMERA"]) }
    }

    @Test func hostileTextIsQuotedShortAndPrintable() {
        let long = String(repeating: "A", count: 10_000)
        let message = ShareTarget.ParseError.unknownKind(long).description
        #expect(message.count < 300)
        let escape = ShareTarget.ParseError.unknownKind("\u{1B}[2J\u{202E}x\n").description
        #expect(!escape.contains("\u{1B}") && !escape.contains("\n") && !escape.contains("\u{202E}"))
        #expect(throws: ShareTarget.ParseError.self) { try ShareTarget.parse("window=\(long)") }
        #expect(throws: ShareTarget.ParseError.self) { try ShareTarget.parse("window=\u{0}1280x720") }
    }
}

@Suite("--share displays and --display")
struct ShareDisplaysAndOnlyDisplayTests {
    @Test func aShareDisplayIsUsedWhateverDisplayNames() {
        let core = PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0), onlyDisplay: "HDMI-1")
        #expect(core.uses("share-window", kind: .cable))
        #expect(core.uses("share-camera", kind: .cable))
        #expect(core.uses("HDMI-1", kind: .cable))
        #expect(!core.uses("DP-2", kind: .cable))
        #expect(!core.uses("share-windows", kind: .cable))
        #expect(ShareTarget.isShareDisplay("share-window") && !ShareTarget.isShareDisplay("window"))
    }
}
