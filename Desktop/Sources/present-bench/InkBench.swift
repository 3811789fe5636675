// present-bench ink: drawing on the slide, measured against pdfpc's pen (issue 36). One Xorg-dummy server with
// Openbox per presenter (DUMMY0 1920×1080 the console, DUMMY1 1280×720 the room), a white 16:9 PDF, release builds:
//
//   scripts/bench-ink.sh [--strokes 20] [--memory-strokes 10000]
//
// - input → ink on the room's display: the mouse is pressed on the console's current slide (found on the screen:
//   the first long white run of the console's middle row, then its column) and moved on through one long-lived
//   `xdotool -`; the time from that move to the first ink pixel at the segment's middle on DUMMY1 (1×1 XGetImage
//   polling, the same probe for both presenters). pdfpc draws in its pen mode (key 3).
// - memory: the presenter's resident memory before and after `--memory-strokes` short strokes (spread over the
//   deck's pages: `present` keeps at most 5,000 strokes a slide), each a press, two moves and a release, then the
//   last stroke waited for on DUMMY1; every page is shown once before the first reading, so page renders are
//   not counted as ink.
//
// Both presenters get the same deck, the same events at the same places (in fractions of the slide) and the same
// probe; nothing is asked of either presenter but what a speaker's mouse gives.
#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

func inkBench(_ arguments: [String]) {
    var strokes = 20
    var memoryStrokes = 10_000
    var only: Set<String>?
    var args = arguments[...]
    while let arg = args.popFirst() {
        switch arg {
        case "--strokes": strokes = max(1, Int(args.popFirst() ?? "") ?? strokes)
        case "--memory-strokes": memoryStrokes = max(0, Int(args.popFirst() ?? "") ?? memoryStrokes)
        case "--only": only = Set((args.popFirst() ?? "").split(separator: ",").map(String.init))
        default:
            FileHandle.standardError.write(Data(
                "usage: present-bench ink [--strokes N] [--memory-strokes N] [--only extdisplay,pdfpc]\n".utf8))
            exit(2)
        }
    }
    let extdisplay = builtExtdisplay()
    do {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-ink-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let pages = 4
        let white = MiniPDF.solid(255, 255, 255, width: 960, height: 540)
        let deck = work.appendingPathComponent("white.pdf")
        try MiniPDF.data(pages: Array(repeating: white, count: pages), width: 960, height: 540).write(to: deck)
        let home = work.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let contenders: [InkContender] = [
            InkContender(name: "extdisplay", console: "extdisplay present: console", penKey: nil) { display, log in
                try spawn(extdisplay, ["present", deck.path, "--ink-out", work.appendingPathComponent("ink.pdf").path],
                          environment: ["DISPLAY": display, "SDL_VIDEODRIVER": "x11"], log: log)
            },
            InkContender(name: "pdfpc", console: "pdfpc - presenter.*", penKey: "3") { display, log in
                guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfpc") else {
                    throw BenchError("pdfpc is not installed: apt-get install pdf-presenter-console")
                }
                return try spawn("/usr/bin/pdfpc", [deck.path], environment: [
                    "DISPLAY": display, "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                    "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path], log: log)
            },
        ].filter { only?.contains($0.name) ?? true }
        let pdfpcVersion = (try? runTool("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "pdf-presenter-console"])) ?? "?"
        print("present-bench ink: Xorg-dummy + Openbox (console 1920×1080, room 1280×720), a white 16:9 PDF of \(pages) "
              + "pages, \(strokes) strokes timed, \(memoryStrokes) for memory; release build; pdfpc \(pdfpcVersion)")
        for contender in contenders {
            let result = try measure(contender, strokes: strokes, memoryStrokes: memoryStrokes, pages: pages, work: work)
            print(result)
        }
        print("\nload average: \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?")")
    } catch {
        FileHandle.standardError.write(Data("present-bench ink: \(error)\n".utf8))
        exit(1)
    }
}

/// A presenter the bench draws with.
private struct InkContender {
    let name: String
    /// Its console window's title (an xdotool --name pattern).
    let console: String
    /// The key that turns its pen on (nil: the mouse draws on the current slide from the start).
    let penKey: String?
    let launch: (_ display: String, _ log: URL) throws -> Process
}

/// The console's current slide on the screen, in root coordinates.
struct SlideBox {
    var x: Int, y: Int, width: Int, height: Int

    func point(_ fx: Double, _ fy: Double) -> (x: Int, y: Int) {
        (x + Int((fx * Double(width)).rounded()), y + Int((fy * Double(height)).rounded()))
    }
}

/// Whether a pixel is ink on the white slide (any channel well below white).
func isInk(_ pixel: (r: Int, g: Int, b: Int)) -> Bool { min(pixel.r, pixel.g, pixel.b) < 180 }

func isWhite(_ pixel: (r: Int, g: Int, b: Int)) -> Bool { min(pixel.r, pixel.g, pixel.b) > 245 }

/// The room's display: DUMMY1, 1280×720 right of the console (scripts/xorg-dummy.sh); a 16:9 slide fills it.
private func roomPoint(_ fx: Double, _ fy: Double) -> (x: Int, y: Int) {
    (1920 + Int((fx * 1280).rounded()), Int((fy * 720).rounded()))
}

/// The console's slide once the room shows the white slide and the console's slide is found (nil after 60 s).
func waitForWhiteSlide(_ reader: ScreenReader) -> SlideBox? {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
        if let centre = reader.pixel(x: 1920 + 640, y: 360), isWhite(centre), let found = findSlide(reader) { return found }
        usleep(100_000)
    }
    return nil
}

/// The first long white run of the console's middle row, then the white run of its middle column.
func findSlide(_ reader: ScreenReader) -> SlideBox? {
    guard let row = reader.row(x: 0, y: 540, width: 1920) else { return nil }
    var start: Int?
    var run: (Int, Int)?
    for (x, pixel) in row.enumerated() {
        if isWhite(pixel) {
            if start == nil { start = x }
        } else if let begun = start {
            if x - begun >= 400 { run = (begun, x); break }
            start = nil
        }
    }
    if run == nil, let begun = start, 1920 - begun >= 400 { run = (begun, 1920) }
    guard let (left, right) = run else { return nil }
    let column = (left + right) / 2
    var top = 540, bottom = 540
    while top > 0, let pixel = reader.pixel(x: column, y: top - 1), isWhite(pixel) { top -= 1 }
    while bottom < 1079, let pixel = reader.pixel(x: column, y: bottom + 1), isWhite(pixel) { bottom += 1 }
    return SlideBox(x: left, y: top, width: right - left, height: bottom - top + 1)
}

private func measure(_ contender: InkContender, strokes: Int, memoryStrokes: Int, pages: Int, work: URL) throws -> String {
    let server = try BenchServer(packageRoot: benchPackageRoot(), workDirectory: work)
    defer { server.shutdown() }
    let process = try contender.launch(server.display, work.appendingPathComponent("\(contender.name).log"))
    defer { stop(process) }
    let reader = try ScreenReader(display: server.display)
    let probe = try ScreenProbe(server.display)
    // Ready: the room shows the white slide and the console's slide is on the screen.
    guard let box = waitForWhiteSlide(reader) else {
        throw BenchError("\(contender.name): no white slide on the console and the room within 60 s")
    }
    let mouse = try KeyPresser(display: server.display)
    defer { mouse.close() }
    mouse.send("search --name \"\(contender.console)\" windowfocus --sync")
    usleep(500_000)
    if let key = contender.penKey {
        mouse.send("key \(key)")
        usleep(300_000)
    }
    func press(_ point: (x: Int, y: Int)) { mouse.send("mousemove \(point.x) \(point.y)"); mouse.send("mousedown 1") }
    func move(_ point: (x: Int, y: Int)) { mouse.send("mousemove \(point.x) \(point.y)") }

    // Latency: one stroke a row, each row a fresh white line of the slide.
    var times: [Double] = []
    for index in 0..<strokes {
        let fy = 0.08 + 0.84 * Double(index) / Double(max(1, strokes - 1))
        press(box.point(0.20, fy))
        move(box.point(0.24, fy))
        usleep(80_000)
        let target = roomPoint(0.42, fy)
        guard let before = probe.pixel(target.x, target.y), isWhite((before.0, before.1, before.2)) else {
            throw BenchError("\(contender.name): the room is not white at \(target) before stroke \(index + 1)")
        }
        let sent = Date()
        move(box.point(0.60, fy))
        var seen: Date?
        while Date().timeIntervalSince(sent) < 5 {
            if let pixel = probe.pixel(target.x, target.y), isInk((pixel.0, pixel.1, pixel.2)) { seen = Date(); break }
        }
        mouse.send("mouseup 1")
        times.append(seen.map { $0.timeIntervalSince(sent) * 1000 } ?? .infinity)
        usleep(UInt32.random(in: 150_000...400_000))
    }

    // Memory: every page shown once first (its renders cached), back to the first; then many short strokes over
    // the pages, the last one waited for in the room.
    for _ in 1..<pages { mouse.send("key Right"); usleep(700_000) }
    mouse.send("key Home")
    usleep(1_500_000)
    let before = ProcStat.residentMB(process.processIdentifier) ?? .nan
    var after = Double.nan
    if memoryStrokes > 0 {
        let perPage = (memoryStrokes + pages - 1) / pages
        var drawn = 0
        for page in 0..<pages where drawn < memoryStrokes {
            if page > 0 { mouse.send("key Right"); usleep(500_000) }
            for index in 0..<min(perPage, memoryStrokes - drawn) {
                let fx = 0.05 + 0.9 * Double(index % 60) / 60, fy = 0.05 + 0.9 * Double((index / 60) % 60) / 60
                press(box.point(fx, fy))
                move(box.point(fx + 0.01, fy + 0.005))
                move(box.point(fx + 0.02, fy))
                mouse.send("mouseup 1")
                drawn += 1
                if drawn % 500 == 0 { usleep(200_000) }
            }
        }
        // The last page's last marks are in: one long stroke across the bottom, waited for in the room.
        press(box.point(0.05, 0.97))
        move(box.point(0.95, 0.97))
        mouse.send("mouseup 1")
        let target = roomPoint(0.5, 0.97)
        let settle = Date().addingTimeInterval(300)
        while Date() < settle {
            if let pixel = probe.pixel(target.x, target.y), isInk((pixel.0, pixel.1, pixel.2)) { break }
            usleep(20_000)
        }
        usleep(2_000_000)
        after = ProcStat.residentMB(process.processIdentifier) ?? .nan
    }
    return inkLine(contender.name, times, before: before, after: after, strokes: memoryStrokes)
}

private func inkLine(_ name: String, _ times: [Double], before: Double, after: Double, strokes: Int) -> String {
    let finite = times.filter(\.isFinite).sorted()
    func percentile(_ p: Double) -> Double {
        finite.isEmpty ? .nan : finite[min(finite.count - 1, Int((Double(finite.count - 1) * p).rounded()))]
    }
    let missed = times.count - finite.count
    return String(format: "%@ move → ink in the room: p50 %6.1f ms  p95 %6.1f ms  max %6.1f ms (%d strokes%@); "
                  + "resident %.1f MB before, %.1f MB after %d more strokes",
                  name.padding(toLength: 11, withPad: " ", startingAt: 0) as NSString, percentile(0.5), percentile(0.95),
                  finite.last ?? .nan, times.count, (missed > 0 ? ", \(missed) not seen in 5 s" : "") as NSString,
                  before, after, strokes)
}
#endif
