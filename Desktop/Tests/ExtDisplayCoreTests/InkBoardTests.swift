import ExtDisplayCore
import ExternalDisplayTesting
import Foundation
import Testing

/// The ink layer as state of the presenter's core: strokes per page and layer, tools, undo and redo, the
/// speaker's marks, zoom, and hostile numbers.
@Suite("ink in the presenter's core")
struct InkBoardTests {
    static let aspect = 16.0 / 9
    /// Seeds per random test: `EXTDISPLAY_FUZZ_COUNT` for a long run (default 40).
    static let seeds = UInt64(ProcessInfo.processInfo.environment["EXTDISPLAY_FUZZ_COUNT"] ?? "") ?? 40

    static func core(slides: Int = 5) -> PresenterCore {
        PresenterCore(state: PresenterState(slideCount: slides, startedAt: 0))
    }

    /// Draws a stroke through `points` (x, y pairs) with the current tool; returns what the core said.
    @discardableResult
    static func draw(_ core: inout PresenterCore, _ points: [(Double, Double)], pressure: Double = 1) -> [String] {
        var said: [String] = []
        func run(_ input: InkInput) {
            for case .say(let line) in core.handle(.ink(input, aspect: aspect), at: 1) { said.append(line) }
        }
        guard let first = points.first else { return said }
        run(.begin(InkPoint(x: first.0, y: first.1, pressure: pressure)))
        for p in points.dropFirst() { run(.move(InkPoint(x: p.0, y: p.1, pressure: pressure))) }
        run(.end)
        return said
    }

    static func press(_ core: inout PresenterCore, _ key: PresenterKey) { core.handle(.key(key), at: 1) }

    @Test func aStrokeBelongsToItsPageAndStaysWhenGoingBackAndForth() {
        var core = Self.core()
        Self.draw(&core, [(0.1, 0.1), (0.5, 0.5)])
        Self.press(&core, .next)
        #expect(core.state.ink.strokes(onPage: 1, isPrivate: false).isEmpty)
        Self.draw(&core, [(0.2, 0.8), (0.3, 0.8)])
        Self.press(&core, .previous)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 1)
        #expect(core.state.ink.strokes(onPage: 1, isPrivate: false).count == 1)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).first?.points.first == InkPoint(x: 0.1, y: 0.1))
    }

    @Test func undoAndRedoWalkTheChangesOfThisPage() {
        var core = Self.core()
        Self.draw(&core, [(0.1, 0.1), (0.2, 0.2)])
        Self.draw(&core, [(0.6, 0.6), (0.7, 0.7)])
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 2)
        Self.press(&core, .undo)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 1)
        Self.press(&core, .undo)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).isEmpty)
        Self.press(&core, .undo)  // nothing left: nothing happens
        Self.press(&core, .redo)
        Self.press(&core, .redo)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 2)
        Self.press(&core, .inkClear)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).isEmpty)
        Self.press(&core, .undo)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 2)
        // A new stroke drops what could be redone.
        Self.press(&core, .undo)
        Self.draw(&core, [(0.3, 0.9), (0.4, 0.9)])
        Self.press(&core, .redo)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 2)
        // Undo on another page does not touch this one.
        Self.press(&core, .next)
        Self.press(&core, .undo)
        Self.press(&core, .previous)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 2)
    }

    @Test func theEraserRemovesWholeStrokesItTouchesAndIsUndoneAsOne() {
        var core = Self.core()
        Self.draw(&core, [(0.1, 0.1), (0.9, 0.1)])
        Self.draw(&core, [(0.1, 0.5), (0.9, 0.5)])
        Self.draw(&core, [(0.1, 0.9), (0.9, 0.9)])
        Self.press(&core, .eraser)
        // Across the top two lines, away from the bottom one.
        Self.draw(&core, [(0.5, 0.05), (0.5, 0.3), (0.5, 0.55)])
        let left = core.state.ink.strokes(onPage: 0, isPrivate: false)
        #expect(left.count == 1)
        #expect(left.first?.points.first?.y == 0.9)
        Self.press(&core, .undo)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 3)
        // An eraser that touches nothing leaves nothing to undo.
        Self.draw(&core, [(0.5, 0.7)])
        Self.press(&core, .undo)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 2)
    }

    @Test func theSpeakersMarksAreALayerOfTheirOwn() {
        var core = Self.core()
        Self.draw(&core, [(0.1, 0.1), (0.2, 0.2)])
        Self.press(&core, .inkPrivate)
        Self.draw(&core, [(0.5, 0.5), (0.6, 0.6)])
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 1)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: true).count == 1)
        // Saved ink (the PDF) is the room's only.
        #expect(core.state.ink.savedStrokes[0]?.count == 1)
        // Clear and undo work on the private layer while it is chosen.
        Self.press(&core, .inkClear)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: true).isEmpty)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 1)
    }

    @Test func toolsColoursAndWidthsAreChosenByKeys() {
        var core = Self.core()
        Self.press(&core, .inkColour)
        Self.press(&core, .inkWidth)
        Self.draw(&core, [(0.1, 0.1), (0.2, 0.2)])
        Self.press(&core, .highlighter)
        Self.draw(&core, [(0.1, 0.5), (0.2, 0.5)])
        let strokes = core.state.ink.strokes(onPage: 0, isPrivate: false)
        #expect(strokes[0].colour == InkColour.palette[1])
        #expect(strokes[0].width == InkBoard.widths[2])
        #expect(strokes[0].opacity == 1)
        #expect(strokes[1].tool == .highlighter)
        #expect(strokes[1].opacity == InkStroke.highlighterOpacity)
        #expect(strokes[1].colour == InkColour.palette[4])
        #expect(strokes[1].width == InkBoard.widths[2] * InkBoard.highlighterFactor)
    }

    @Test func finishedStrokesAreSimplified() {
        var core = Self.core()
        // 2,000 points on a straight line with a hair of jitter: a handful stays.
        var points: [(Double, Double)] = []
        for i in 0..<2_000 {
            let jitter: Double = i % 2 == 0 ? 0.00005 : -0.00005
            points.append((0.1 + Double(i) * 0.0004, 0.5 + jitter))
        }
        Self.draw(&core, points)
        let stroke = core.state.ink.strokes(onPage: 0, isPrivate: false)[0]
        #expect(stroke.points.count <= 4, "\(stroke.points.count) points")
        #expect(abs((stroke.points.first?.x ?? 0) - 0.1) < 1e-9)
        // A corner survives.
        Self.draw(&core, [(0.1, 0.1), (0.3, 0.1), (0.5, 0.1), (0.5, 0.3), (0.5, 0.5)])
        let corner = core.state.ink.strokes(onPage: 0, isPrivate: false)[1]
        #expect(corner.points.contains { abs($0.x - 0.5) < 0.05 && abs($0.y - 0.1) < 0.05 })
    }

    @Test func zoomFollowsThePointerStaysOnTheSlideAndEndsWithTheSlide() {
        var core = Self.core()
        core.handle(.pointer(SlidePoint(x: 0.9, y: 0.9)), at: 1)
        Self.press(&core, .zoomIn)
        let zoom = core.state.zoom
        #expect(zoom?.scale == 2)
        #expect(zoom?.x == 0.5 && zoom?.y == 0.5)  // clamped: the region stays on the slide
        Self.press(&core, .zoomIn)
        Self.press(&core, .zoomIn)
        #expect(core.state.zoom?.scale == ZoomRegion.maximumScale)
        Self.press(&core, .panLeft)
        #expect((core.state.zoom?.x ?? 1) < 0.75)
        Self.press(&core, .zoomOut)
        #expect(core.state.zoom?.scale == 2)
        Self.press(&core, .zoomOut)
        #expect(core.state.zoom == nil)
        Self.press(&core, .zoomIn)
        Self.press(&core, .next)
        #expect(core.state.zoom == nil)
    }

    @Test func aSlideChangeLiftsThePenAndKeepsTheStrokeOnItsPage() {
        var core = Self.core()
        core.handle(.ink(.begin(InkPoint(x: 0.1, y: 0.1)), aspect: Self.aspect), at: 1)
        core.handle(.ink(.move(InkPoint(x: 0.2, y: 0.2)), aspect: Self.aspect), at: 1)
        Self.press(&core, .next)
        core.handle(.ink(.move(InkPoint(x: 0.3, y: 0.3)), aspect: Self.aspect), at: 1)
        core.handle(.ink(.end, aspect: Self.aspect), at: 1)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).count == 1)
        #expect(core.state.ink.strokes(onPage: 1, isPrivate: false).isEmpty)
    }

    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, .greatestFiniteMagnitude,
                                    .leastNonzeroMagnitude, -0.0, 0, 1, 0.5, 2, -1, .ulpOfOne]

    /// Random sequences of pen input with hostile numbers and keys: the core never traps, every kept point is on
    /// the slide with a pressure in 0…1, and the layers stay within their bounds. A failure prints its seed and
    /// the inputs as a `--keys` list (hostile numbers written out) to run again.
    @Test(arguments: 0..<seeds)
    func hostileInputNeverTrapsAndKeepsEveryPointOnTheSlide(seed: UInt64) {
        var rng = SeededRandom(state: seed)  // the kit's SplitMix64: a failing seed runs again
        var core = Self.core(slides: 3)
        var log: [String] = []
        let keys: [PresenterKey] = [.next, .previous, .undo, .redo, .eraser, .pen, .highlighter, .inkClear,
                                    .inkPrivate, .zoomIn, .zoomOut, .panUp, .inkWidth, .inkColour]
        func number() -> Double {
            Bool.random(using: &rng) ? Self.hostile.randomElement(using: &rng) ?? 0 : Double.random(in: -0.5...1.5, using: &rng)
        }
        for _ in 0..<300 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                let key = keys.randomElement(using: &rng) ?? .next
                log.append(key.rawValue)
                core.handle(.key(key), at: 1)
            case 1:
                log.append("end")
                core.handle(.ink(.end, aspect: Self.aspect), at: 1)
            case 2:
                let p = InkPoint(x: number(), y: number(), pressure: number())
                log.append("begin \(p.x)/\(p.y)/\(p.pressure)")
                core.handle(.ink(.begin(p), aspect: [Self.aspect, .nan, 0, 1e300].randomElement(using: &rng) ?? 1), at: 1)
            default:
                let p = InkPoint(x: number(), y: number(), pressure: number())
                log.append("move \(p.x)/\(p.y)/\(p.pressure)")
                core.handle(.ink(.move(p), aspect: Self.aspect), at: 1)
            }
        }
        core.handle(.ink(.end, aspect: Self.aspect), at: 1)
        var bad: [String] = []
        for page in 0..<3 {
            for layer in [false, true] {
                let strokes = core.state.ink.strokes(onPage: page, isPrivate: layer)
                if strokes.count > InkBoard.maximumStrokes { bad.append("page \(page) holds \(strokes.count) strokes") }
                for stroke in strokes {
                    for p in stroke.points where !((0...1).contains(p.x) && (0...1).contains(p.y) && (0...1).contains(p.pressure)) {
                        bad.append("point \(p) off the slide on page \(page)")
                    }
                    if !stroke.width.isFinite || stroke.width <= 0 { bad.append("width \(stroke.width)") }
                }
            }
        }
        #expect(bad.isEmpty, "seed \(seed): \(bad.prefix(3)); inputs: \(log.joined(separator: ", "))")
    }

    /// Undo and redo against a model of the test's own: the layers as snapshots. Every change the board makes
    /// outside undo and redo (a stroke, an erasure, a clear, on either layer of either page) is read off its
    /// `strokes(onPage:isPrivate:)` and the layer before it kept on the model's undo stack (200 deep, as the board
    /// says), the redo stack emptied; undo and redo then must give exactly the model's layer. Random strokes, eraser
    /// gestures, clears, slide changes, the private layer and runs of undo and redo; a failing seed prints the
    /// inputs.
    @Test(arguments: 0..<seeds)
    func undoAndRedoGiveBackExactlyTheLayersOfASnapshotModel(seed: UInt64) {
        var rng = SeededRandom(state: seed &+ 1_000)
        var core = Self.core(slides: 2)
        struct Layer: Hashable { var page: Int; var isPrivate: Bool }
        var undo: [Layer: [[InkStroke]]] = [:], redo: [Layer: [[InkStroke]]] = [:]
        var log: [String] = []
        func current() -> Layer { Layer(page: core.state.slideIndex, isPrivate: core.state.ink.drawsPrivately) }
        func strokes(_ layer: Layer) -> [InkStroke] { core.state.ink.strokes(onPage: layer.page, isPrivate: layer.isPrivate) }
        for step in 0..<400 {
            let layer = current()
            let before = strokes(layer)
            switch Int.random(in: 0..<12, using: &rng) {
            case 0...4:
                let tool: PresenterKey = Int.random(in: 0..<4, using: &rng) == 0 ? .eraser : .pen
                Self.press(&core, tool)
                var points: [(Double, Double)] = []
                var p = (Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng))
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    points.append(p)
                    p = (min(1, max(0, p.0 + Double.random(in: -0.1...0.1, using: &rng))),
                         min(1, max(0, p.1 + Double.random(in: -0.1...0.1, using: &rng))))
                }
                log.append("\(tool.rawValue) \(points.map { "\($0.0)/\($0.1)" }.joined(separator: ";"))")
                Self.draw(&core, points)
            case 5:
                log.append("ink-clear")
                Self.press(&core, .inkClear)
            case 6, 7:
                log.append("undo")
                Self.press(&core, .undo)
                if let kept = undo[layer]?.popLast() {
                    redo[layer, default: []].append(before)
                    #expect(strokes(layer) == kept, "seed \(seed) step \(step): undo gave another layer; inputs: \(log.joined(separator: ", "))")
                } else {
                    #expect(strokes(layer) == before, "seed \(seed) step \(step): undo with nothing to undo changed the layer")
                }
                continue
            case 8:
                log.append("redo")
                Self.press(&core, .redo)
                if let kept = redo[layer]?.popLast() {
                    undo[layer, default: []].append(before)
                    #expect(strokes(layer) == kept, "seed \(seed) step \(step): redo gave another layer; inputs: \(log.joined(separator: ", "))")
                } else {
                    #expect(strokes(layer) == before, "seed \(seed) step \(step): redo with nothing to redo changed the layer")
                }
                continue
            case 9:
                log.append("ink-private")
                Self.press(&core, .inkPrivate)
                continue
            default:
                let key: PresenterKey = Bool.random(using: &rng) ? .next : .previous
                log.append(key.rawValue)
                Self.press(&core, key)
                continue
            }
            if strokes(layer) != before {
                var stack = undo[layer, default: []]
                stack.append(before)
                if stack.count > InkBoard.undoDepth { stack.removeFirst(stack.count - InkBoard.undoDepth) }
                undo[layer] = stack
                redo[layer] = nil
            }
        }
    }

    /// 2,000 strokes on one slide keep their undo history as changes: undoing 200 gives the first 1,800 strokes
    /// back in order, and redoing them gives all 2,000 again.
    @Test func undoOfManyStrokesWalksBackAndForth() {
        var core = Self.core(slides: 1)
        for i in 0..<2_000 {
            let x = Double(i % 40) / 40, y = Double(i / 40) / 50
            Self.draw(&core, [(x, y), (x + 0.01, y + 0.005), (x + 0.02, y)])
        }
        let all = core.state.ink.strokes(onPage: 0, isPrivate: false)
        #expect(all.count == 2_000)
        for _ in 0..<250 { Self.press(&core, .undo) }
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false) == Array(all.prefix(1_800)))
        for _ in 0..<250 { Self.press(&core, .redo) }
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false) == all)
    }

    @Test func aHugeStrokeStopsGrowingWithOneMessage() {
        var core = Self.core()
        core.handle(.ink(.begin(InkPoint(x: 0, y: 0)), aspect: Self.aspect), at: 1)
        var said: [String] = []
        for i in 0..<(InkBoard.maximumPoints + 500) {
            let x = Double(i % 1000) / 1000, y = Double(i / 1000) / 100
            for case .say(let line) in core.handle(.ink(.move(InkPoint(x: x, y: y)), aspect: Self.aspect), at: 1) {
                said.append(line)
            }
        }
        #expect(said.count == 1)
        #expect(core.state.ink.strokes(onPage: 0, isPrivate: false).first?.points.count == InkBoard.maximumPoints)
        core.handle(.ink(.end, aspect: Self.aspect), at: 1)
        // Points that are not numbers are refused once per stroke, with a message.
        let refused = Self.draw(&core, [(.nan, 0.5), (0.2, .infinity), (0.3, 0.3)])
        #expect(refused.count == 1)
        #expect(refused.first?.contains("not a finite number") == true)
    }
}
