import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing
@testable import ExtDisplayCore
@testable import ExternalDisplayPresenter

/// Partial redraws: a ticking timer redraws only the rectangles around its changed digits, and a partial redraw gives
/// exactly the pixels of a full one. Pixels are compared between two real canvases (the presenter's one canvas,
/// `SDLPresenterCanvas` on SDL's software renderer, as the console's window surface draws): one drawn whole, one
/// drawn whole with the old list and then patched with the new list's damaged rectangle.
@Suite("Display list damage")
@MainActor
struct DisplayListDamageTests {
    let size = PixelSize(width: 640, height: 360)

    /// A canvas with `old` drawn whole, then `new` redrawn only where the damage says; and `new` drawn whole.
    func patchedAndWhole(_ old: DisplayList, _ new: DisplayList) throws -> (patched: Data, whole: Data, damage: DisplayListDamage) {
        let patched = try SDLPresenterCanvas(size: old.size, caches: DrawingCaches()), whole = try SDLPresenterCanvas(size: new.size, caches: DrawingCaches())
        patched.draw(old)
        let damage = DisplayListDamage(from: old, to: new, metrics: patched)
        switch damage {
        case .none: break
        case .full: patched.draw(new)
        case .rects(let rects): for r in rects { patched.redraw(new, in: r) }
        }
        whole.draw(new)
        return (patched.pngData(), whole.pngData(), damage)
    }

    @Test func aTickingTimerDamagesOnlyAFewPercentOfTheConsoleAndMatchesAFullRedraw() throws {
        let deck = DeckParser.parse("# Static\n- nothing moves\n- but the timer ticks\nNote: the notes")
        let consoleSize = PixelSize(width: 1920, height: 1080)
        let metrics = try SDLPresenterCanvas(size: consoleSize, caches: DrawingCaches())
        let layout = PresenterLayout(metrics: metrics)
        let state = PresenterState(slideCount: deck.slides.count, startedAt: 0)
        var checked = 0
        for second in [1.0, 9.0, 59.0, 599.0, 3599.0] {  // 0:01→0:02, 0:09→0:10, 0:59→1:00, 9:59→10:00, 59:59→1:00:00
            let before = layout.main(PresenterScene(deck: deck, state: state, now: second, clock: "10:00",
                                                    mainDisplay: "laptop"), size: consoleSize)
            let after = layout.main(PresenterScene(deck: deck, state: state, now: second + 1, clock: "10:00",
                                                   mainDisplay: "laptop"), size: consoleSize)
            let result = try patchedAndWhole(before, after)
            guard case .rects(let rects) = result.damage else {
                Issue.record("second \(second): expected rectangles, got \(result.damage)")
                continue
            }
            let area = rects.reduce(0) { $0 + $1.width * $1.height }
            #expect(area * 20 < consoleSize.width * consoleSize.height, "second \(second): \(rects)")
            #expect(result.patched == result.whole, "second \(second): the patched console differs from a full redraw")
            checked += 1
        }
        #expect(checked == 5)
    }

    /// A ticking timer with a countdown beside it (a talk of planned length): each second damages only around
    /// the digits that changed — not one rectangle spanning the timer and the countdown, not the slide above
    /// them — and nothing else on the console is drawn again.
    @Test func aTickRedrawsOnlyTheChangedDigitsOfTheTimerAndTheCountdown() throws {
        let deck = DeckParser.parse("# Static\n- nothing moves\nNote: the notes")
        let consoleSize = PixelSize(width: 1920, height: 1080)
        let metrics = try SDLPresenterCanvas(size: consoleSize, caches: DrawingCaches())
        let layout = PresenterLayout(metrics: metrics)
        var state = PresenterState(slideCount: deck.slides.count, startedAt: 0, plannedDuration: 300)
        func list(_ now: Double) -> DisplayList {
            layout.main(PresenterScene(deck: deck, state: state, now: now, clock: "10:00", mainDisplay: "laptop"),
                        size: consoleSize)
        }
        for second in [11.0, 12.0, 42.0] {  // 0:11→0:12 (4:49→4:48 left), 0:12→0:13, 0:42→0:43
            let before = list(second), after = list(second + 1)
            let changed = zip(before.operations, after.operations).filter { $0 != $1 }.map(\.1)
            #expect(changed.count == 2, "second \(second): the timer and the countdown change, got \(changed)")
            let result = try patchedAndWhole(before, after)
            #expect(result.patched == result.whole, "second \(second): the patched console differs from a full redraw")
            guard case .rects(let rects) = result.damage else {
                Issue.record("second \(second): expected rectangles, got \(result.damage)")
                continue
            }
            // Two rectangles (the timer's digit and the countdown's), each inside its text's own bounds.
            #expect(rects.count == 2, "second \(second): \(rects)")
            for rect in rects {
                let owner = changed.first { DisplayListDamage.bounds(of: $0, metrics: metrics).union(rect)
                    == DisplayListDamage.bounds(of: $0, metrics: metrics) }
                #expect(owner != nil, "second \(second): \(rect) is not inside the bounds of a changed text")
                // Nothing is drawn again there but the console's background and the changed text itself.
                for op in after.operations(touching: rect, metrics: metrics) where !changed.contains(op) {
                    guard case .fill(let area, _) = op, area == Rect(origin0: consoleSize) else {
                        Issue.record("second \(second): \(op) is drawn again in \(rect)")
                        continue
                    }
                }
            }
            let area = rects.reduce(0) { $0 + $1.width * $1.height }
            #expect(area * 30 < consoleSize.width * consoleSize.height, "second \(second): \(area) pixels, \(rects)")
        }
        // The timer alone (no planned length): one rectangle, from the changed digit on.
        state.plannedDuration = nil
        let before = list(12), after = list(13)
        guard case .rects(let rects) = DisplayListDamage(from: before, to: after, metrics: metrics),
              let timer = zip(before.operations, after.operations).first(where: { $0 != $1 }),
              case .text(let text, let x, _, _) = timer.1 else {
            Issue.record("0:12→0:13 gave no rectangle")
            return
        }
        #expect(text == "0:13")
        #expect(rects.count == 1 && rects[0].x > x, "0:12→0:13 redraws from its last digit on, not the line: \(rects)")
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

    /// Two changes far apart stay two rectangles; changes whose one surrounding rectangle costs no more than
    /// they do become one; a text that only changes in place is damaged from its first changed character on,
    /// unless it can run right to left.
    @Test func farChangesStayApartAndNearOnesMerge() {
        let metrics = ApproximateTextMetrics()
        let white = RGBA(255, 255, 255)
        func fills(_ rects: [Rect]) -> DisplayList {
            DisplayList(size: size, operations: rects.map { .fill($0, white) })
        }
        func moved(_ r: Rect) -> Rect { Rect(x: r.x + 1, y: r.y + 1, width: r.width, height: r.height) }
        func taller(_ r: Rect) -> Rect { Rect(x: r.x, y: r.y, width: r.width, height: r.height + 1) }
        let a = Rect(x: 10, y: 10, width: 20, height: 20), b = Rect(x: 500, y: 300, width: 20, height: 20)
        #expect(DisplayListDamage(from: fills([a, b]), to: fills([moved(a), moved(b)]), metrics: metrics)
                == .rects([Rect(x: 10, y: 10, width: 21, height: 21), Rect(x: 500, y: 300, width: 21, height: 21)]))
        // Side by side: one rectangle around both is no larger than the two.
        let c = Rect(x: 30, y: 10, width: 20, height: 20)
        #expect(DisplayListDamage(from: fills([a, c]), to: fills([taller(a), taller(c)]), metrics: metrics)
                == .rects([Rect(x: 10, y: 10, width: 40, height: 21)]))
        let style = TextStyle(.sans, size: 20, color: white)
        func text(_ s: String) -> DisplayList { DisplayList(size: size, operations: [.text(s, x: 100, y: 50, style)]) }
        guard case .rects(let tick) = DisplayListDamage(from: text("12:34"), to: text("12:35"), metrics: metrics),
              case .rects(let rtl) = DisplayListDamage(from: text("12:34 שלום"), to: text("12:35 שלום"), metrics: metrics) else {
            Issue.record("a text change gave no rectangles")
            return
        }
        let kept = metrics.width(of: "12:3", face: .sans, size: 20), margin = 20 / 4 + 2  // "12:3" is shared
        #expect(tick.count == 1 && tick[0].x == 100 + kept - margin, "\(tick)")
        #expect(rtl.count == 1 && rtl[0].x == 100 - margin, "a line that may run right to left is damaged whole: \(rtl)")
        // After a letter, two characters back (a ligature may join them): "office" → "offline" shares "off".
        guard case .rects(let ligature) = DisplayListDamage(from: text("office"), to: text("offline"), metrics: metrics) else {
            Issue.record("office → offline gave no rectangles")
            return
        }
        #expect(ligature.count == 1 && ligature[0].x == 100 + metrics.width(of: "o", face: .sans, size: 20) - margin)
        // A redraw starts at the last opaque fill covering the rectangle, with no black under it.
        let background = DrawOperation.fill(Rect(origin0: size), RGBA(10, 20, 30))
        let glass = DrawOperation.fill(Rect(origin0: size), RGBA(10, 20, 30, 128))
        let under = DrawOperation.fill(Rect(x: 90, y: 40, width: 20, height: 20), RGBA(1, 1, 1))  // covers part of it
        let label = DrawOperation.text("12:35", x: 100, y: 50, style)
        let patch = Rect(x: 100, y: 50, width: 30, height: 20)
        let covered = DisplayList(size: size, operations: [under, background, label]).redrawing(patch, metrics: metrics)
        #expect(!covered.overBlack && covered.operations == [background, label])
        let translucent = DisplayList(size: size, operations: [under, glass, label]).redrawing(patch, metrics: metrics)
        #expect(translucent.overBlack && translucent.operations == [under, glass, label])
        #expect(DisplayListDamage.isPlainLeftToRight("4:59 left  ·  ahead"))
        #expect(!DisplayListDamage.isPlainLeftToRight("4:59 \u{202E}left"))
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
        // Strings that share beginnings (a timer's and a countdown's ticks, ligatures and kerning pairs at the
        // first difference), so that a text changing in place takes the from-the-first-change path.
        let texts = ["0:01", "0:02", "12:59", "12:58", "slide 3 of 9", "Wg|", "1:00:00 left (behind)",
                     "1:00:01 left (behind)", "4:59 left  ·  ahead", "4:58 left  ·  ahead", "office", "offline",
                     "AVAVA", "AVAVAT", "Tofu", "To"]
        func operation() -> DrawOperation {
            switch int(0...3) {
            case 0: .fill(rect(), colour())
            case 1: .stroke(rect(), colour(), width: int(1...8))
            case 2: .line(x1: int(-20...660), y1: int(-20...380), x2: int(-20...660), y2: int(-20...380), colour())
            default: .text(texts[int(0...(texts.count - 1))],
                           x: int(-40...640), y: int(-40...360),
                           TextStyle([.sans, .sansBold, .mono][int(0...2)], size: int(6...90), color: colour()))
            }
        }
        var partial = 0
        for round in 0..<40 {
            let old = DisplayList(size: size, operations: (0..<int(1...25)).map { _ in operation() })
            var new = old
            for _ in 0..<int(1...3) {
                let index = int(0...(new.operations.count - 1))
                if case .text(_, let x, let y, let style) = new.operations[index], int(0...1) == 0 {
                    new.operations[index] = .text(texts[int(0...(texts.count - 1))], x: x, y: y, style)  // in place
                } else {
                    new.operations[index] = operation()
                }
            }
            let result = try patchedAndWhole(old, new)
            if case .rects = result.damage { partial += 1 }
            #expect(result.patched == result.whole,
                    "seed \(seed) round \(round): patched \(result.damage) differs; replay with EXTDISPLAY_DAMAGE_SEED=\(seed)")
        }
        #expect(partial > 0, "seed \(seed): no round took the partial path")
    }
}
