import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The ink message browser pages draw over their picture (``BrowserInkLayer``): coordinates, budget, the
/// speaker's marks never in it, and valid JSON whatever the strokes hold (JSONSerialization is the oracle).
@Suite("Ink messages for browser pages")
@MainActor
struct BrowserInkMessageTests {
    static let tv = AudienceDisplay(id: "tv", name: "TV", mode: DisplayMode(width: 1920, height: 1080),
                                    layout: DisplayLayout(mode: DisplayMode(width: 1920, height: 1080), overscan: 0,
                                                          compensation: .scale))

    /// The message decoded by Foundation's JSON parser (fails the test when it is not valid JSON).
    static func decode(_ message: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(message.utf8))
        return try #require(object as? [String: Any], "not an object: \(message)")
    }

    static func points(_ message: [String: Any]) -> [[[Double]]] {
        ((message["strokes"] as? [[String: Any]]) ?? []).map { ($0["p"] as? [[Double]]) ?? [] }
    }

    /// A 16:9 slide on a 1920×1080 display, a stroke from (0.2, 0.5) to (0.8, 0.5) with pressure 0.5.
    static func controller(strokes: [[InkPoint]] = [[InkPoint(x: 0.2, y: 0.5), InkPoint(x: 0.8, y: 0.5, pressure: 0.5)]],
                           privateStrokes: [[InkPoint]] = []) -> PresenterController {
        let deck = Deck(title: "t", slides: [Slide(number: 1, title: [InlineRun("Title")])])
        let controller = PresenterController(deck: deck, startedAt: 0)
        controller.handle(.attached(tv), at: 0)
        func draw(_ points: [InkPoint]) {
            guard let first = points.first else { return }
            controller.handle(controller.inkInput(.begin(first)), at: 0)
            for p in points.dropFirst() { controller.handle(controller.inkInput(.move(p)), at: 0) }
            controller.handle(controller.inkInput(.end), at: 0)
        }
        strokes.forEach(draw)
        if !privateStrokes.isEmpty {
            controller.handle(.key(.inkPrivate), at: 0)
            privateStrokes.forEach(draw)
        }
        return controller
    }

    @Test func theMessageSaysWhereTheSlideIsAndEachPointInSlideFractions() throws {
        let controller = Self.controller()
        let layer = try #require(PresenterLayout().browserInk(controller.scene(at: 0, clock: ""), on: Self.tv))
        let message = try Self.decode(layer.message(frame: 7))
        #expect(message["type"] as? String == "ink")
        #expect(message["frame"] as? Int == 7)
        // A 16:9 slide fills a 1920×1080 picture.
        #expect(message["slide"] as? [Double] == [0, 0, 1, 1])
        #expect(message["clip"] as? [Double] == [0, 0, 1, 1])
        // Where a 4:3 slide lies in 1920×1080: 1440×1080 at x 240, i.e. 0.125 of the width on each side.
        let framed = try #require(BrowserInkLayer.encode([], slide: Rect(x: 240, y: 0, width: 1440, height: 1080),
                                                         clip: Rect(x: 240, y: 0, width: 1440, height: 1080),
                                                         size: PixelSize(width: 1920, height: 1080)))
        #expect(try Self.decode(framed.message(frame: 1))["slide"] as? [Double] == [0.125, 0, 0.75, 1])
        let strokes = try #require(message["strokes"] as? [[String: Any]])
        #expect(strokes.count == 1)
        #expect(strokes.first?["c"] as? String == "#dc1e1eff")
        let points = Self.points(message)[0]
        #expect(points.count == 2)
        #expect(points[0] == [0.2, 0.5, 0.006])
        // Pressure 0.5: the width is 0.4 + 0.6 × 0.5 = 70 % of the pen's.
        #expect(points[1] == [0.8, 0.5, 0.0042])
        // The picture for pages leaves the ink out; the cable display's has it.
        let metrics = ApproximateTextMetrics()
        let scene = controller.scene(at: 0, clock: "")
        let inks = { (list: DisplayList) in list.operations.filter { if case .ink = $0 { true } else { false } }.count }
        #expect(inks(PresenterLayout(metrics: metrics).external(scene, on: Self.tv, inkInPicture: false)) == 0)
        #expect(inks(PresenterLayout(metrics: metrics).external(scene, on: Self.tv)) == 1)
    }

    @Test func zoomedTheSlideIsLargerThanThePictureAndTheClipIsTheSlidesArea() throws {
        let controller = Self.controller()
        controller.handle(.key(.zoomIn), at: 0)
        let layer = try #require(PresenterLayout().browserInk(controller.scene(at: 0, clock: ""), on: Self.tv))
        let message = try Self.decode(layer.message(frame: 1))
        let slide = try #require(message["slide"] as? [Double])
        #expect(slide[2] > 1.9 && slide[3] > 1.9 && slide[0] < 0, "zoomed 2×: \(slide)")
        #expect(message["clip"] as? [Double] == [0, 0, 1, 1])
    }

    /// Hostile assumption check: the speaker's marks (G) are in the core's state, and never in a page's message.
    @Test func theSpeakersMarksNeverReachAPage() throws {
        let marks = [InkPoint(x: 0.3137, y: 0.7071), InkPoint(x: 0.4142, y: 0.6931)]
        let controller = Self.controller(privateStrokes: [marks])
        #expect(controller.state.ink.strokes(onPage: 0, isPrivate: true).count == 1, "the marks were not drawn")
        // A growing private stroke too.
        controller.handle(controller.inkInput(.begin(InkPoint(x: 0.2718, y: 0.1414))), at: 0)
        controller.handle(controller.inkInput(.move(InkPoint(x: 0.5772, y: 0.1618))), at: 0)
        let layer = try #require(PresenterLayout().browserInk(controller.scene(at: 0, clock: ""), on: Self.tv))
        let message = layer.message(frame: 3)
        for mark in ["0.3137", "0.7071", "0.4142", "0.6931", "0.2718", "0.1414", "0.5772", "0.1618"] {
            #expect(!message.contains(mark), "a speaker's mark (\(mark)) is in the page's message: \(message)")
        }
        #expect(Self.points(try Self.decode(message)).count == 1, "the room's stroke only")
    }

    @Test func blankedOrMirroredThePageGetsNoStrokes() throws {
        let controller = Self.controller()
        controller.handle(.key(.blackout), at: 0)
        let blank = try #require(PresenterLayout().browserInk(controller.scene(at: 0, clock: ""), on: Self.tv))
        #expect(Self.points(try Self.decode(blank.message(frame: 1))).isEmpty)
    }

    @Test func nonFiniteAndHugeValuesNeverMakeInvalidJSON() throws {
        let bad: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, -0.0, 0.99999, 1e-9, -5]
        var points: [InkPoint] = []
        for x in bad { for y in bad { points.append(InkPoint(x: x, y: y, pressure: y)) } }
        var strokes: [InkStroke] = []
        for width in bad {
            strokes.append(InkStroke(points: points, tool: .pen, colour: InkColour(0, 0, 0), width: width))
            strokes.append(InkStroke(points: points, tool: .highlighter, colour: InkColour(255, 255, 255), width: width))
        }
        strokes.append(InkStroke(points: [], tool: .pen, colour: InkColour(1, 2, 3), width: 0.01))
        let layer = try #require(BrowserInkLayer.encode(strokes, slide: Rect(x: Int.min / 2, y: -5, width: Int.max / 2, height: 0),
                                                        clip: Rect(x: 0, y: 0, width: 0, height: 0),
                                                        size: PixelSize(width: 0, height: -3)))
        let message = try Self.decode(layer.message(frame: .max))
        #expect(message["frame"] as? UInt32 == .max)
        for stroke in Self.points(message) {
            for p in stroke {
                #expect(p.count == 3 && p[0] >= 0 && p[0] <= 1 && p[1] >= 0 && p[1] <= 1 && p[2] >= 0 && p[2] <= 1, "\(p)")
            }
        }
        let text = layer.message(frame: 0)
        #expect(!text.contains("-0,") && !text.contains("e+") && !text.contains("e-") && !text.contains("E"),
                "no negative zero, no exponent: \(text.prefix(200))")
    }

    @Test func numbersAreCompact() {
        #expect(BrowserInkLayer.number(0.5, digits: 4) == "0.5")
        #expect(BrowserInkLayer.number(0.12345, digits: 4) == "0.1235" || BrowserInkLayer.number(0.12345, digits: 4) == "0.1234")
        #expect(BrowserInkLayer.number(1, digits: 4) == "1")
        #expect(BrowserInkLayer.number(0.00004, digits: 4) == "0")
        #expect(BrowserInkLayer.number(-0.00004, digits: 4) == "0")
        #expect(BrowserInkLayer.number(-0.25, digits: 5) == "-0.25")
        #expect(BrowserInkLayer.number(0.0012, digits: 5) == "0.0012")
        #expect(BrowserInkLayer.number(.nan, digits: 4) == "0")
    }

    @Test func aMessageNeverExceedsItsBudgetAndInkThatDoesNotFitGoesIntoThePicture() throws {
        let long = (0..<50_000).map { InkPoint(x: Double($0 % 1000) / 1000, y: Double($0 % 777) / 777) }
        let stroke = InkStroke(points: long, tool: .pen, colour: InkColour(0, 0, 0), width: 0.006)
        let area = Rect(x: 240, y: 0, width: 1440, height: 1080), size = PixelSize(width: 1920, height: 1080)
        #expect(BrowserInkLayer.encode([stroke], slide: area, clip: area, size: size) == nil)
        #expect(BrowserInkLayer.encode([stroke], slide: area, clip: area, size: size, budget: .max) != nil)
        // Just under and just over a small budget.
        let small = InkStroke(points: Array(long.prefix(200)), tool: .pen, colour: InkColour(0, 0, 0), width: 0.006)
        let full = try #require(BrowserInkLayer.encode([small], slide: area, clip: area, size: size, budget: .max))
        let bytes = full.message(frame: .max).utf8.count
        #expect(BrowserInkLayer.encode([small], slide: area, clip: area, size: size, budget: bytes) != nil)
        #expect(BrowserInkLayer.encode([small], slide: area, clip: area, size: size, budget: bytes - 40) == nil)
        #expect(BrowserInkLayer.encode([stroke], slide: area, clip: area, size: size, budget: bytes).map { $0.message(frame: .max).utf8.count } == nil)

        // The host's choice: a slide whose ink does not fit has no message layer, and its picture keeps the ink.
        let deck = Deck(title: "t", slides: [Slide(number: 1, title: [InlineRun("Title")])])
        let controller = PresenterController(deck: deck, startedAt: 0)
        controller.handle(.attached(Self.tv), at: 0)
        controller.handle(controller.inkInput(.begin(long[0])), at: 0)
        for p in long.dropFirst().prefix(15_000) { controller.handle(controller.inkInput(.move(p)), at: 0) }
        #expect(PresenterLayout().browserInk(controller.scene(at: 0, clock: ""), on: Self.tv) == nil)
    }

    /// Before and after: the distinct pictures ten strokes make for a page (each distinct list is one render).
    @Test func tenStrokesMakeNoNewPictureForAPage() {
        let controller = Self.controller(strokes: [])
        let layout = PresenterLayout(metrics: ApproximateTextMetrics())
        var baked: Set<DisplayList> = [], vector: Set<DisplayList> = [], messages: Set<String> = []
        func record() {
            let scene = controller.scene(at: 0, clock: "")
            baked.insert(layout.external(scene, on: Self.tv))
            vector.insert(layout.external(scene, on: Self.tv, inkInPicture: false))
            if let ink = layout.browserInk(scene, on: Self.tv) { messages.insert(ink.message(frame: 1)) }
        }
        record()
        for i in 0..<10 {
            let y = 0.1 + 0.08 * Double(i)
            for input in controller.strokeInputs([InkPoint(x: 0.2, y: y), InkPoint(x: 0.8, y: y)]) {
                controller.handle(input, at: 0)
            }
            record()
        }
        print("pictures for 10 strokes on a page: \(baked.count - 1) new with the ink in the picture (before), "
              + "\(vector.count - 1) new with ink messages (after); \(messages.count - 1) new ink messages")
        #expect(baked.count == 11)
        #expect(vector.count == 1)
        #expect(messages.count == 11)
    }

    /// A stroke drawn as the mouse draws it (each event moves the pointer and the pen): while it grows, a page's
    /// picture has no pointer dot, so its moves make no new picture (the dot following every point made one a
    /// point: the ink waited for a picture render per move); the room's own display still shows the dot.
    @Test func aMouseStrokeMakesNoNewPictureForAPageWhileItGrows() {
        let controller = Self.controller(strokes: [])
        let layout = PresenterLayout(metrics: ApproximateTextMetrics())
        var pictures: Set<DisplayList> = [], room: Set<DisplayList> = [], messages: Set<String> = []
        let points = (0...20).map { InkPoint(x: 0.2 + 0.03 * Double($0), y: 0.5 + 0.01 * Double($0 % 2)) }
        controller.handle(.pointer(SlidePoint(x: points[0].x, y: points[0].y)), at: 0)
        controller.handle(controller.inkInput(.begin(points[0])), at: 0)
        for p in points.dropFirst() {
            controller.handle(.pointer(SlidePoint(x: p.x, y: p.y)), at: 0)
            controller.handle(controller.inkInput(.move(p)), at: 0)
            let scene = controller.scene(at: 0, clock: "")
            pictures.insert(layout.external(scene, on: Self.tv, inkInPicture: false))
            room.insert(layout.external(scene, on: Self.tv))
            if let ink = layout.browserInk(scene, on: Self.tv) { messages.insert(ink.message(frame: 1)) }
        }
        #expect(pictures.count == 1, "\(pictures.count) pictures for 20 moves")
        #expect(messages.count == 20)
        #expect(room.count == 20)
        // Lifted, the dot is back in the page's picture.
        controller.handle(controller.inkInput(.end), at: 0)
        #expect(!pictures.contains(layout.external(controller.scene(at: 0, clock: ""), on: Self.tv, inkInPicture: false)))
    }

    /// Prints the bytes of a typical stroke's message (a smoothed, simplified 120-point curve, the pen).
    @Test func aTypicalStrokesMessageIsSmall() throws {
        let curve = (0...120).map { i -> InkPoint in
            let t = Double(i) / 120
            return InkPoint(x: 0.2 + 0.6 * t, y: 0.5 + 0.2 * sin(t * 2 * .pi), pressure: 0.8)
        }
        let controller = Self.controller(strokes: [curve])
        let layer = try #require(PresenterLayout().browserInk(controller.scene(at: 0, clock: ""), on: Self.tv))
        let message = layer.message(frame: 12)
        let points = Self.points(try Self.decode(message))[0].count
        print("ink message for a typical stroke (121 input points, \(points) after smoothing and simplifying): "
              + "\(message.utf8.count) bytes")
        #expect(message.utf8.count < 2_000)
    }
}
