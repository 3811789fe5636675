// present-bench zoom: zoom-in at 4× on a 3840×2160 display, a real PDF page, until the audience picture is ready
// (rendered, held by the page cache, handed back decoded), and the peak memory — the old whole-page path beside the
// region path, in one run (release build):
//
//   scripts/bench-zoom.sh [--deck Examples/Decks/PDF/libreoffice-talk.pdf] [--page 1] [--runs 3]
//
// The region path is what the presenter does: the audience layout's page operation (the visible region, at the
// display's size) asked of a page cache. The old path is reachable only here: the same cache asked for the whole
// page at 4× the slide's size (15360×8640 on a 16:9 page), as the layout asked before. Each run uses a fresh cache.
// Peak memory: this process's resident peak (VmHWM, reset before each path through /proc/self/clear_refs) and
// pdftoppm's (the children's largest resident size; the region path runs first, so the old path's figure is its own
// whenever it is the larger).
#if canImport(CSDL2)
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A line of /proc/self/status in kilobytes (`VmHWM`, `VmRSS`), 0 when unreadable.
private func statusKilobytes(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
    }
    return 0
}

/// Resets this process's resident peak (VmHWM) to its current size; false when the kernel refuses.
private func resetPeak() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}

/// The largest resident size of any child waited for so far, in kilobytes.
private func childrenPeakKilobytes() -> Int {
    var usage = rusage()
    return getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 ? Int(usage.ru_maxrss) : 0
}

@MainActor
func zoomBench(_ arguments: [String]) {
    var deckPath = "Examples/Decks/PDF/libreoffice-talk.pdf", pageNumber = 1, runs = 3
    var args = arguments[...]
    while let arg = args.popFirst() {
        let value = args.popFirst() ?? ""
        switch arg {
        case "--deck": deckPath = value
        case "--page" where (Int(value) ?? 0) >= 1: pageNumber = Int(value) ?? 1
        case "--runs" where (1...50).contains(Int(value) ?? 0): runs = Int(value) ?? 3
        default:
            FileHandle.standardError.write(Data("usage: present-bench zoom [--deck PDF] [--page N ≥ 1] [--runs 1…50]\n".utf8))
            exit(2)
        }
    }
    let deck: Deck
    do { deck = try DeckParser.parse(contentsOf: URL(fileURLWithPath: deckPath)) } catch {
        FileHandle.standardError.write(Data("present-bench zoom: cannot read \(deckPath): \(error)\n".utf8))
        exit(1)
    }
    guard deck.slides.indices.contains(pageNumber - 1), deck.slides[pageNumber - 1].pdfPage != nil else {
        FileHandle.standardError.write(Data("present-bench zoom: \(deckPath) has no PDF page \(pageNumber); pass a PDF deck and a page it has\n".utf8))
        exit(1)
    }
    let size = PixelSize(width: 3840, height: 2160)
    let layout = PresenterLayout()
    func pageOperation(_ zoom: ZoomRegion?) -> (PDFPage, Rect)? {
        layout.audience(deck, slideIndex: pageNumber - 1, size: size, safeFrame: Rect(origin0: size), zoom: zoom)
            .operations.lazy.compactMap { if case .page(let page, let rect) = $0 { (page, rect) } else { nil } }.first
    }
    let zoom = ZoomRegion(centreX: 0.5, centreY: 0.5, scale: 4)
    guard let (region, regionRect) = pageOperation(zoom), let (whole, wholeRect) = pageOperation(nil) else {
        FileHandle.standardError.write(Data("present-bench zoom: the layout drew no page\n".utf8))
        exit(1)
    }
    let paths: [(name: String, page: PDFPage, width: Int, height: Int)] = [
        ("region (now)", region, regionRect.width, regionRect.height),
        ("whole page at 4× (before)", whole, wholeRect.width * 4, wholeRect.height * 4),
    ]
    print("present-bench zoom: \(deckPath) page \(pageNumber), 4× zoom on a 3840×2160 display, \(runs) runs each (median)")
    print("path                        picture      ready ms   process peak MB   pdftoppm peak MB   cache MB")
    for path in paths {
        var times: [Double] = []
        var processPeak = 0, held = 0, failure: String?
        for _ in 0..<runs {
            let cache = PageRasterCache(lookahead: (0, 0))
            let baseline = statusKilobytes("VmRSS")
            let reset = resetPeak()
            let start = DispatchTime.now().uptimeNanoseconds
            let result = cache.raster(for: path.page, width: path.width, height: path.height)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            if case .failure(let error) = result { failure = error.description }
            if reset { processPeak = max(processPeak, statusKilobytes("VmHWM") - baseline) }
            held = cache.bytesHeld
            cache.waitUntilIdle()
        }
        let median = times.sorted()[times.count / 2]
        print(String(format: "%-27@ %5d×%-5d %10.0f %17.0f %18.0f %10.1f", path.name as NSString, path.width, path.height,
                     median, Double(processPeak) / 1024, Double(childrenPeakKilobytes()) / 1024, Double(held) / 1_048_576))
        if let failure { print("  (\(path.name) failed: \(failure))") }
    }
    markdownZoomBench(runs: runs)
}

/// A Markdown slide zoomed 4× at 4K: drawing every operation of the slide laid out at the enlarged size beside
/// the audience layout's (text wholly outside the view left out), each on a fresh canvas and caches (glyphs
/// rasterised cold, as at a zoom-in).
@MainActor
private func markdownZoomBench(runs: Int) {
    guard let deck = try? DeckParser.parse(contentsOf: URL(fileURLWithPath: "Examples/Decks/ExternalDisplayKit.md")),
          let slide = deck.slides.indices.max(by: { deck.slides[$0].blocks.count < deck.slides[$1].blocks.count })
    else { print("(Markdown: Examples/Decks/ExternalDisplayKit.md not readable; run from the repository)"); return }
    let size = PixelSize(width: 3840, height: 2160)
    let zoom = ZoomRegion(centreX: 0.5, centreY: 0.5, scale: 4)
    print("Markdown slide \(slide + 1) of Examples/Decks/ExternalDisplayKit.md (the most blocks), 4× on 3840×2160:")
    print("operations drawn                      text ops   first draw ms (median)")
    for culled in [false, true] {
        var times: [Double] = []
        var texts = 0
        for _ in 0..<runs {
            guard let canvas = try? SDLPresenterCanvas(size: size, caches: DrawingCaches()) else {
                print("(Markdown: no canvas)"); return
            }
            let layout = PresenterLayout(metrics: canvas)
            var ops = layout.audience(deck, slideIndex: slide, size: size, safeFrame: Rect(origin0: size), zoom: zoom).operations
            if !culled {
                // Before: every operation of the slide at the enlarged size.
                let area = Rect(origin0: size)
                let w = Double(area.width) * 4, h = Double(area.height) * 4
                let enlarged = Rect(x: -Int(zoom.x * w), y: -Int(zoom.y * h), width: Int(w), height: Int(h))
                ops = [.fill(area, layout.theme.letterbox)]
                    + SlideLayout(metrics: canvas, theme: layout.theme).operations(for: deck.slides[slide], in: enlarged)
            }
            texts = ops.filter { if case .text = $0 { true } else { false } }.count
            let start = DispatchTime.now().uptimeNanoseconds
            canvas.draw(DisplayList(size: size, operations: ops))
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print(String(format: "%-37@ %8d %12.1f", (culled ? "visible text only (now)" : "whole enlarged slide (before)") as NSString,
                     texts, times.sorted()[times.count / 2]))
    }
}
#endif
