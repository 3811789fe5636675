// present-bench --text: the cost of drawing the slides' text lines with the any-language text path
// (ExternalDisplaySDL's TextShaper: fallback fonts, bidi, per-run shaping) next to the old single-font path
// (one TTF_SizeUTF8 + TTF_RenderUTF8_Blended per line, no fallback, no bidi), in one run, on the same strings.
#if canImport(CSDL2)
import CSDL2
import ExternalDisplayKit
import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation

func textBench(decks: [String], rounds: Int) throws {
    let size = PixelSize(width: 1920, height: 1080)
    let layoutCanvas = try SDLPresenterCanvas(size: size, caches: benchCaches)
    guard let target = SDL_CreateRGBSurfaceWithFormat(0, 1920, 1080, 32, SDL_PIXELFORMAT_ABGR8888.rawValue) else {
        throw PresenterCanvasError("no surface")
    }
    defer { SDL_FreeSurface(target) }
    let files: [FontFace: String] = [.sans: "DejaVuSans.ttf", .sansBold: "DejaVuSans-Bold.ttf", .mono: "DejaVuSansMono.ttf"]
    func path(_ face: FontFace) -> String { CanvasFont.fontDirectory + "/" + (files[face] ?? "DejaVuSans.ttf") }
    print("present-bench --text: every text line of every slide, measured and drawn onto a 1920×1080 surface; "
          + "median of \(rounds) alternating rounds")
    print("deck                            lines   old path µs/line   new path µs/line (cached layout)   new, first layout µs/line")
    for deckPath in decks {
        let deck = try DeckParser.parse(contentsOf: URL(fileURLWithPath: deckPath))
        var lines: [(String, TextStyle)] = []
        for slide in deck.slides {
            for op in SlideLayout(metrics: layoutCanvas).operations(for: slide, in: Rect(origin0: size)) {
                if case .text(let s, _, _, let style) = op { lines.append((s, style)) }
            }
        }
        // The old path: one font, one SDL_ttf call per line.
        var oldFonts: [String: OpaquePointer] = [:]
        func oldFont(_ style: TextStyle) -> OpaquePointer? {
            let key = "\(style.face)-\(style.size)"
            if let f = oldFonts[key] { return f }
            let f = TTF_OpenFont(path(style.face), Int32(style.size))
            oldFonts[key] = f
            return f
        }
        let white = SDL_Color(r: 255, g: 255, b: 255, a: 255)
        func oldPath() {
            for (s, style) in lines {
                guard let font = oldFont(style) else { continue }
                var w: Int32 = 0, h: Int32 = 0
                TTF_SizeUTF8(font, s, &w, &h)
                guard let r = TTF_RenderUTF8_Blended(font, s, white) else { continue }
                var dst = SDL_Rect(x: 10, y: 10, w: r.pointee.w, h: r.pointee.h)
                SDL_UpperBlit(r, nil, target, &dst)
                SDL_FreeSurface(r)
            }
        }
        func newPath(shaper: TextShaper) {
            for (s, style) in lines {
                _ = shaper.width(of: s, fontPath: path(style.face), size: style.size)
                shaper.draw(s, fontPath: path(style.face), size: style.size, x: 10, y: 10, color: white) { r, rect in
                    var dst = rect
                    SDL_UpperBlit(r, nil, target, &dst)
                }
            }
        }
        func timed(_ body: () -> Void) -> Double {
            let t = SDLVideo.now()
            body()
            return (SDLVideo.now() - t) / Double(max(1, lines.count)) * 1e6
        }
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        // Old and new alternate round by round, so load on a shared machine hits both alike; medians of rounds.
        let warm = TextShaper()
        oldPath()
        newPath(shaper: warm)
        var oldTimes: [Double] = [], newTimes: [Double] = [], coldTimes: [Double] = []
        for round in 0..<rounds {
            oldTimes.append(timed(oldPath))
            newTimes.append(timed { newPath(shaper: warm) })
            // A fresh shaper every tenth round: every line laid out anew (fonts reopened too), as when text changes.
            if round % 10 == 0 { coldTimes.append(timed { newPath(shaper: TextShaper()) }) }
        }
        for f in oldFonts.values { TTF_CloseFont(f) }
        let old = median(oldTimes), cached = median(newTimes), cold = median(coldTimes)
        let name = URL(fileURLWithPath: deckPath).lastPathComponent
        let padded = name.padding(toLength: 30, withPad: " ", startingAt: 0)
        print(padded + String(format: " %6d %18.1f %34.1f %27.1f", lines.count, old, cached, cold))
    }
}
#endif
