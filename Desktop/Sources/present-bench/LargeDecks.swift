// present-bench --large-decks: how long a deck takes to open and to flip (layout + drawing the console and the
// audience view, 1920×1080 each) as it grows, next to a small deck in the same run. The goal: a large deck
// flips like a small one (layout cost follows what is on screen), and one past the size limit is refused at once.
#if canImport(CSDL2)
import ExternalDisplayKit
import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation

/// One deck's figures.
struct DeckFigures {
    var name: String
    var bytes: Int
    var openMilliseconds: Double
    var flipMilliseconds: Double?
    var layoutMilliseconds: Double?
    var outcome: String
}

@MainActor
func largeDeckBench(flips: Int) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var next = 0
    let words = ["projector", "display", "mode", "slide", "audience", "console", "refresh", "overscan", "cable"]
    func text(bytes: Int) -> String {
        var out = ""
        out.reserveCapacity(bytes + 16)
        // The same words every run (a fixed stride through the list), so every run measures the same decks.
        while out.utf8.count < bytes {
            next = (next + 5) % (words.count * 7)
            out += words[next % words.count] + " "
        }
        return out
    }
    let limit = UntrustedFile.deckLimit
    let cases: [(String, String)] = [
        ("small (3 slides)", "# One\n- a bullet\nNote: notes\n---\n# Two\ntext\n---\n# Three\n"),
        ("small, 3 slides full of text", (0..<3).map { _ in "# Full\n" + (0..<14).map { _ in "- " + text(bytes: 110) }
            .joined(separator: "\n") + "\nNote: " + text(bytes: 2_000) }.joined(separator: "\n---\n")),
        ("1 MB, one slide of bullets", "# Big\n" + (0..<9_000).map { _ in "- " + text(bytes: 110) }.joined(separator: "\n")
            + "\nNote:\n" + text(bytes: 20_000)),
        ("4 MB, one paragraph", "# Paragraph\n" + text(bytes: limit - 64) + "\n"),
        ("4 MB, 20,000 slides", (0..<20_000).map { "# Slide \($0)\n- " + text(bytes: 150) + "\nNote: " + text(bytes: 20) }
            .joined(separator: "\n---\n")),
        ("10 MB, one slide (past the limit)", "# Huge\n" + text(bytes: 10_000_000)),
    ]
    let console = try SDLPresenterCanvas(size: PixelSize(width: 1920, height: 1080), caches: benchCaches)
    let audience = try SDLPresenterCanvas(size: PixelSize(width: 1920, height: 1080), caches: benchCaches)
    let mode = DisplayMode(width: 1920, height: 1080)
    let tv = AudienceDisplay(id: "tv", name: "Projector", mode: mode,
                             layout: DisplayLayout(mode: mode, overscan: 0, compensation: .scale))
    var rows: [DeckFigures] = []
    for (name, source) in cases {
        let url = dir.appendingPathComponent("deck.md")
        try Data(source.utf8).write(to: url)
        let t0 = SDLVideo.now()
        let deck: Deck
        do { deck = try DeckParser.parse(contentsOf: url) } catch {
            rows.append(DeckFigures(name: name, bytes: source.utf8.count, openMilliseconds: (SDLVideo.now() - t0) * 1000,
                                    flipMilliseconds: nil, layoutMilliseconds: nil, outcome: "refused: \(error.reason.prefix(60))…"))
            continue
        }
        let open = (SDLVideo.now() - t0) * 1000
        let layout = PresenterLayout(metrics: console)
        var state = PresenterState(slideCount: deck.slides.count, startedAt: 0)
        state.reduce(.attached(tv), at: 0)
        var times: [Double] = [], layouts: [Double] = []
        for flip in 0..<flips {
            state.reduce(.key(flip % 2 == 0 ? .next : .previous), at: Double(flip))
            let t = SDLVideo.now()
            let scene = PresenterScene(deck: deck, state: state, now: Double(flip), clock: "10:00", mainDisplay: "laptop")
            let main = layout.main(scene, size: console.size), external = layout.external(scene, on: tv)
            layouts.append((SDLVideo.now() - t) * 1000)
            console.draw(main)
            audience.draw(external)
            times.append((SDLVideo.now() - t) * 1000)
        }
        times.sort()
        layouts.sort()
        rows.append(DeckFigures(name: name, bytes: source.utf8.count, openMilliseconds: open,
                                flipMilliseconds: times[times.count / 2], layoutMilliseconds: layouts[layouts.count / 2],
                                outcome: "\(deck.slides.count) slides"))
    }
    print("present-bench --large-decks: open = read + parse + image checks; flip = layout + draw console and audience "
          + "(1920×1080 each), median of \(flips)")
    print("deck                                   bytes     open ms   flip ms  of which layout ms   outcome")
    for r in rows {
        let flip = (r.flipMilliseconds.map { String(format: "%9.1f", $0) } ?? "        —")
            + (r.layoutMilliseconds.map { String(format: "%20.1f", $0) } ?? "                   —")
        let name = r.name.padding(toLength: 36, withPad: " ", startingAt: 0)
        print(name + String(format: " %9d %10.1f ", r.bytes, r.openMilliseconds) + flip + "   " + r.outcome)
    }
}

#endif
