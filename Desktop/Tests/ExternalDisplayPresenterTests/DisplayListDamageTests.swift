import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// Partial redraws: a ticking timer redraws only the rectangle around its digits, and a partial redraw gives
/// exactly the pixels of a full one. Pixels are compared between two real canvases (the presenter's one canvas,
/// `SDLPresenterCanvas` on SDL's software renderer, as the console's window surface draws): one drawn whole, one
/// drawn whole with the old list and then patched with the new list's damaged rectangle.
@Suite("Display list damage")
@MainActor
struct DisplayListDamageTests {
    let size = PixelSize(width: 640, height: 360)

    /// A canvas with `old` drawn whole, then `new` redrawn only where the damage says; and `new` drawn whole.
    func patchedAndWhole(_ old: DisplayList, _ new: DisplayList) throws -> (patched: Data, whole: Data, damage: DisplayListDamage) {
        let patched = try SDLPresenterCanvas(size: old.size), whole = try SDLPresenterCanvas(size: new.size)
        patched.draw(old)
        let damage = DisplayListDamage(from: old, to: new, metrics: patched)
        switch damage {
        case .none: break
        case .full: patched.draw(new)
        case .rect(let r): patched.redraw(new, in: r)
        }
        whole.draw(new)
        return (patched.pngData(), whole.pngData(), damage)
    }

    @Test func aTickingTimerDamagesOnlyAFewPercentOfTheConsoleAndMatchesAFullRedraw() throws {
        let deck = DeckParser.parse("# Static\n- nothing moves\n- but the timer ticks\nNote: the notes")
        let consoleSize = PixelSize(width: 1920, height: 1080)
        let metrics = try SDLPresenterCanvas(size: consoleSize)
        let layout = PresenterLayout(metrics: metrics)
        let state = PresenterState(slideCount: deck.slides.count, startedAt: 0)
        var checked = 0
        for second in [1.0, 9.0, 59.0, 599.0, 3599.0] {  // 0:01→0:02, 0:09→0:10, 0:59→1:00, 9:59→10:00, 59:59→1:00:00
            let before = layout.main(PresenterScene(deck: deck, state: state, now: second, clock: "10:00",
                                                    mainDisplay: "laptop"), size: consoleSize)
            let after = layout.main(PresenterScene(deck: deck, state: state, now: second + 1, clock: "10:00",
                                                   mainDisplay: "laptop"), size: consoleSize)
            let result = try patchedAndWhole(before, after)
            guard case .rect(let r) = result.damage else {
                Issue.record("second \(second): expected a rectangle, got \(result.damage)")
                continue
            }
            #expect(r.width * r.height * 20 < consoleSize.width * consoleSize.height, "second \(second): \(r)")
            #expect(result.patched == result.whole, "second \(second): the patched console differs from a full redraw")
            checked += 1
        }
        #expect(checked == 5)
    }

    @Test func identicalListsNeedNothingAndStructuralChangesNeedEverything() throws {
        let metrics = ApproximateTextMetrics()
        let a = DisplayList(size: size, operations: [.fill(Rect(x: 0, y: 0, width: 10, height: 10), RGBA(1, 2, 3))])
        var b = a
        b.operations.append(.text("x", x: 1, y: 1, TextStyle(.sans, size: 12, color: RGBA(255, 255, 255))))
        #expect(DisplayListDamage(from: a, to: a, metrics: metrics) == .none)
        #expect(DisplayListDamage(from: nil, to: a, metrics: metrics) == .full)
        #expect(DisplayListDamage(from: a, to: b, metrics: metrics) == .full)
        #expect(DisplayListDamage(from: a, to: DisplayList(size: PixelSize(width: 1, height: 1), operations: a.operations),
                                  metrics: metrics) == .full)
        // A change covering most of the display is drawn whole.
        let big = DisplayList(size: size, operations: [.fill(Rect(origin0: size), RGBA(9, 9, 9))])
        let bigger = DisplayList(size: size, operations: [.fill(Rect(origin0: size), RGBA(8, 8, 8))])
        #expect(DisplayListDamage(from: big, to: bigger, metrics: metrics) == .full)
        // A change entirely off the display draws nothing.
        let off = DisplayList(size: size, operations: [.fill(Rect(x: -50, y: -50, width: 10, height: 10), RGBA(1, 1, 1))])
        let offToo = DisplayList(size: size, operations: [.fill(Rect(x: -50, y: -50, width: 10, height: 10), RGBA(2, 2, 2))])
        #expect(DisplayListDamage(from: off, to: offToo, metrics: metrics) == .none)
    }

    /// Random lists of fills, outlines, lines and text (overlapping, partly or wholly off the canvas, zero and
    /// negative sizes), a few operations changed at random: the patched canvas equals a full redraw, pixel for
    /// pixel. `EXTDISPLAY_DAMAGE_SEED` replays a run.
    @Test func randomChangesPatchToExactlyAFullRedraw() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["EXTDISPLAY_DAMAGE_SEED"] ?? "")
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("display list damage: seed \(seed) (EXTDISPLAY_DAMAGE_SEED=\(seed) to replay)")
        var random = SeededRandom(state: seed)
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        func colour() -> RGBA { RGBA(UInt8(int(0...255)), UInt8(int(0...255)), UInt8(int(0...255)), UInt8([255, 255, 128][int(0...2)])) }
        func rect() -> Rect { Rect(x: int(-80...660), y: int(-80...380), width: int(-5...300), height: int(-5...200)) }
        func operation() -> DrawOperation {
            switch int(0...3) {
            case 0: .fill(rect(), colour())
            case 1: .stroke(rect(), colour(), width: int(1...8))
            case 2: .line(x1: int(-20...660), y1: int(-20...380), x2: int(-20...660), y2: int(-20...380), colour())
            default: .text(["0:01", "12:59", "slide 3 of 9", "Wg|", "1:00:00 left (behind)"][int(0...4)],
                           x: int(-40...640), y: int(-40...360),
                           TextStyle([.sans, .sansBold, .mono][int(0...2)], size: int(6...90), color: colour()))
            }
        }
        var partial = 0
        for round in 0..<40 {
            let old = DisplayList(size: size, operations: (0..<int(1...25)).map { _ in operation() })
            var new = old
            for _ in 0..<int(1...3) { new.operations[int(0...(new.operations.count - 1))] = operation() }
            let result = try patchedAndWhole(old, new)
            if case .rect = result.damage { partial += 1 }
            #expect(result.patched == result.whole,
                    "seed \(seed) round \(round): patched \(result.damage) differs; replay with EXTDISPLAY_DAMAGE_SEED=\(seed)")
        }
        #expect(partial > 0, "seed \(seed): no round took the partial path")
    }
}
