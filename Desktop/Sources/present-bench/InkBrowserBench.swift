// present-bench ink-browser: a stroke drawn with the mouse → its vector ink message received and decoded on 50
// browser pages (p50/p95/p99), and the bytes each stroke segment costs on the wire.
//
//   scripts/bench-ink-browser.sh [--pages 50] [--strokes 20] [--moves 20] [--rate 60] [--no-chromium]
//
// One Xorg-dummy server with Openbox (DUMMY0 1920×1080 the console, DUMMY1 1280×720 the room), a white 16:9 PDF,
// `extdisplay present white.pdf --serve 127.0.0.1:0` (release build). The audience pages are emulated by the load
// client (ExtDisplayTestSupport's LoadClient: real WebSocket clients on loopback that report a 1280×720 viewport,
// hold the pictures they are sent and parse every ink message's JSON and read all its points as numbers), as 50
// headless Chromium pages would take the two cores the presenter runs on. Beside them, unless `--no-chromium`,
// one real page in headless Chromium, timed by the page itself (`window.edkInkTimes`: after the message is parsed
// and drawn on its ink canvas).
//
// Input: the mouse is pressed on the console's slide (found on the screen as `present-bench ink` finds it) and
// moved along a row through one long-lived `xdotool -`, `--moves` moves a stroke at `--rate` per second, the path
// a speaker's mouse takes (SDL's mouse events → the presenter's ink input). The time of a move is taken just before
// its command is written to xdotool. A move counts as received on a page at the first ink message whose stroke
// reaches that move's point (each message holds the slide's whole ink, so a later message carries an earlier move;
// the server replaces ink a page has not been sent yet).
#if canImport(CSDL2)
import ExtDisplayTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

func inkBrowserBench(_ arguments: [String]) async {
    var pageCount = 50, strokes = 20, moves = 20, rate = 60.0, withChromium = true
    var args = arguments[...]
    while let arg = args.popFirst() {
        switch arg {
        case "--pages": pageCount = min(LoadClient.maximumViewers, max(1, Int(args.popFirst() ?? "") ?? pageCount))
        case "--strokes": strokes = max(1, Int(args.popFirst() ?? "") ?? strokes)
        case "--moves": moves = min(40, max(1, Int(args.popFirst() ?? "") ?? moves))
        case "--rate": rate = min(1_000, max(1, Double(args.popFirst() ?? "") ?? rate))
        case "--no-chromium": withChromium = false
        default:
            FileHandle.standardError.write(Data(
                "usage: present-bench ink-browser [--pages N] [--strokes N] [--moves N] [--rate HZ] [--no-chromium]\n".utf8))
            exit(2)
        }
    }
    let extdisplay = builtExtdisplay()
    do {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-ink-browser-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let deck = work.appendingPathComponent("white.pdf")
        let white = MiniPDF.solid(255, 255, 255, width: 960, height: 540)
        try MiniPDF.data(pages: [white, white], width: 960, height: 540).write(to: deck)
        print("present-bench ink-browser: Xorg-dummy + Openbox (console 1920×1080, room 1280×720), a white 16:9 PDF, "
              + "extdisplay present --serve (release build); \(pageCount) load-client pages (WebSocket, 1280×720, every "
              + "ink message parsed)\(withChromium ? " + 1 headless Chromium page" : ""); \(strokes) strokes of \(moves) "
              + "moves at \(Int(rate)) Hz through xdotool")
        print("load average before: \(loadAverage())")
        try await measureBrowserInk(extdisplay: extdisplay, deck: deck, work: work, pages: pageCount, strokes: strokes,
                                    moves: moves, rate: rate, withChromium: withChromium)
        print("load average after: \(loadAverage())")
    } catch {
        FileHandle.standardError.write(Data("present-bench ink-browser: \(error)\n".utf8))
        exit(1)
    }
}

private func nowMs() -> Double { Date().timeIntervalSince1970 * 1000 }

/// One timed move: when its command was written and the x it reaches (fraction of the slide), in stroke `stroke`.
private struct Move {
    var stroke: Int
    var x: Double
    var sent: Double
}

/// A received ink message reduced to what matching needs: when, its strokes and its last point's x.
private struct Received {
    var at: Double
    var strokes: Int
    var lastX: Double?
    var bytes: Int
    var points: Int
}

/// Tolerance on the x a move reaches, as a fraction of the slide (the mouse's pixel against the bench's own idea of
/// the slide's box): far below the moves' spacing.
private let reachTolerance = 0.01

/// Latency of every move on one page: the first message after the move whose ink reaches it, minus its time; nil
/// for a move the page never got.
private func latencies(_ received: [Received], _ movesMade: [Move], baseStrokes: Int) -> [Double?] {
    var out: [Double?] = []
    var from = 0
    for move in movesMade {
        let wanted = baseStrokes + move.stroke + 1
        var found: Double?
        var index = from
        while index < received.count {
            let r = received[index]
            if r.strokes > wanted || (r.strokes == wanted && (r.lastX ?? -1) >= move.x - reachTolerance) {
                found = r.at - move.sent
                break
            }
            index += 1
        }
        if found != nil { from = index }
        out.append(found)
    }
    return out
}

/// The nearest-rank percentile of sorted values (NaN for none).
private func rank(_ sorted: [Double], _ p: Double) -> Double { percentile(sorted, p) ?? .nan }

private func measureBrowserInk(extdisplay: String, deck: URL, work: URL, pages: Int, strokes: Int, moves: Int,
                               rate: Double, withChromium: Bool) async throws {
    let server = try BenchServer(packageRoot: benchPackageRoot(), workDirectory: work)
    defer { server.shutdown() }
    let log = work.appendingPathComponent("extdisplay.log")
    let process = try spawn(extdisplay, ["present", deck.path, "--serve", "127.0.0.1:0",
                                         "--ink-out", work.appendingPathComponent("ink.pdf").path],
                            environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11"], log: log)
    defer { stop(process) }
    // The audience URL the console prints.
    var url: String?
    let started = Date()
    while url == nil, Date().timeIntervalSince(started) < 60, process.isRunning {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if let line = text.split(separator: "\n").first(where: { $0.contains("serving the audience view at ") }),
           let range = line.range(of: "serving the audience view at ") {
            url = String(line[range.upperBound...].prefix { $0 != " " })
        } else {
            usleep(100_000)
        }
    }
    guard let url else {
        throw BenchError("extdisplay present --serve printed no audience URL within 60 s; its log:\n"
                         + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
    }
    let clients = try await LoadClient.connect(count: pages, to: url, timeout: 120)
    if let problems = clients.problems { throw BenchError("the load client's pages: \(problems)") }
    guard await clients.wait(timeout: 120, { $0.lastFrame != nil }) else {
        throw BenchError("not every load-client page was shown a picture within 120 s")
    }
    var chromium: Chromium?
    var page: Chromium.Page?
    if withChromium {
        let browser = try await Chromium.launch()
        chromium = browser
        let opened = try await browser.open(url, width: 1280, height: 720)
        page = opened
        let deadline = Date().addingTimeInterval(60)
        while try await browser.paints(opened).isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 100_000_000) }
    }
    defer { if let chromium { Task.detached { await chromium.quit() } } }

    // The console's slide on the screen, and the room showing the white slide.
    let reader = try ScreenReader(display: server.display)
    guard let box = waitForWhiteSlide(reader) else { throw BenchError("no white slide on the console and the room within 60 s") }
    let mouse = try KeyPresser(display: server.display)
    defer { mouse.close() }
    mouse.send("search --name \"extdisplay present: console\" windowfocus --sync")
    try await Task.sleep(nanoseconds: 500_000_000)

    let baseStrokes = clients.lastInks.compactMap { $0?.strokes }.max() ?? 0
    var made: [Move] = []
    let interval = 1 / rate
    for stroke in 0..<strokes {
        let fy = 0.08 + 0.84 * Double(stroke) / Double(max(1, strokes - 1))
        let start = box.point(0.12, fy)
        mouse.send("mousemove \(start.x) \(start.y)")
        mouse.send("mousedown 1")
        try await Task.sleep(nanoseconds: 50_000_000)
        var next = Date().timeIntervalSince1970
        var lastX = 0.12
        for k in 1...moves {
            let fx = 0.12 + 0.76 * Double(k) / Double(moves)
            let point = box.point(fx, fy)
            let wait = next - Date().timeIntervalSince1970
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
            let sent = nowMs()
            mouse.send("mousemove \(point.x) \(point.y)")
            made.append(Move(stroke: stroke, x: fx, sent: sent))
            next += interval
            lastX = fx
        }
        mouse.send("mouseup 1")
        // Every page has the stroke's end before the next stroke (hang guard 15 s).
        let wanted = baseStrokes + stroke + 1
        let reached = { (ink: LoadClient.InkArrival?) -> Bool in
            guard let ink else { return false }
            return ink.strokes > wanted || (ink.strokes == wanted && (ink.lastX ?? -1) >= lastX - reachTolerance)
        }
        let until = Date().addingTimeInterval(15)
        while !clients.lastInks.allSatisfy(reached), Date() < until { try await Task.sleep(nanoseconds: 5_000_000) }
        try await Task.sleep(nanoseconds: UInt64.random(in: 150_000_000...300_000_000))
    }

    // Latencies on every load-client page.
    let viewers = clients.snapshot
    await clients.close()
    let perViewer = viewers.map { viewer in
        latencies(viewer.inks.map { Received(at: $0.at, strokes: $0.strokes, lastX: $0.lastX, bytes: $0.bytes, points: $0.points) },
                  made, baseStrokes: baseStrokes)
    }
    let samples = perViewer.flatMap { $0.compactMap { $0 } }.sorted()
    let missed = perViewer.reduce(0) { $0 + $1.filter { $0 == nil }.count }
    print(String(format: "%d load-client pages: move → ink message received and decoded on every page: p50 %.1f ms  "
                 + "p95 %.1f ms  p99 %.1f ms  max %.1f ms (%d samples = %d moves × %d pages, %d never received)",
                 pages, rank(samples, 0.5), rank(samples, 0.95), rank(samples, 0.99), samples.last ?? .nan,
                 samples.count, made.count, pages, missed))
    // Per-move order statistics: the slowest page of each move.
    let slowest = made.indices.compactMap { index -> Double? in
        let all = perViewer.compactMap { $0[index] }
        return all.count == perViewer.count ? all.max() : nil
    }.sorted()
    print(String(format: "  move → the last of the %d pages: p50 %.1f ms  p95 %.1f ms  p99 %.1f ms", pages,
                 rank(slowest, 0.5), rank(slowest, 0.95), rank(slowest, 0.99)))

    // Bytes: each message carries the slide's whole ink; a move adds one point to it.
    if let first = viewers.first {
        let messages = first.inks.filter { $0.strokes > baseStrokes }
        let mean = messages.isEmpty ? 0 : Double(messages.reduce(0) { $0 + $1.bytes }) / Double(messages.count)
        // What one point adds: the least-squares slope of bytes against points over the messages.
        let n = Double(messages.count)
        let mx = messages.reduce(0.0) { $0 + Double($1.points) } / max(n, 1)
        let my = messages.reduce(0.0) { $0 + Double($1.bytes) } / max(n, 1)
        let sxy = messages.reduce(0.0) { $0 + (Double($1.points) - mx) * (Double($1.bytes) - my) }
        let sxx = messages.reduce(0.0) { $0 + (Double($1.points) - mx) * (Double($1.points) - mx) }
        // Within a growing stroke: what each further point added.
        var growth: [Double] = []
        for (a, b) in zip(messages, messages.dropFirst()) where b.strokes == a.strokes && b.points > a.points {
            growth.append(Double(b.bytes - a.bytes) / Double(b.points - a.points))
        }
        growth.sort()
        let firstStroke = messages.filter { $0.strokes == baseStrokes + 1 }
        print(String(format: "  bytes: %d ink messages reached one page for %d moves; a message carries the slide's whole "
                     + "ink: %.0f B on average, %d B at the end of the first stroke, %d B at the end of the last (%d "
                     + "strokes, %d points, each finished stroke simplified); a segment adds %.1f B to a growing stroke "
                     + "(median of %d), %.1f B a point over all messages (least squares, stroke overhead included); the "
                     + "WebSocket frame header 2–4 B more",
                     messages.count, made.count, mean, firstStroke.last?.bytes ?? 0, messages.last?.bytes ?? 0,
                     messages.last?.strokes ?? 0, messages.last?.points ?? 0, rank(growth, 0.5), growth.count,
                     sxx > 0 ? sxy / sxx : .nan))
    }

    // The real page: its own records of each message parsed and drawn.
    if let chromium, let page {
        let value = try await chromium.evaluate(page, "JSON.stringify(window.edkInkTimes || [])") as? String ?? "[]"
        let rows = (try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [[Any]]) ?? []
        let received = rows.compactMap { row -> Received? in
            guard row.count == 4, let at = (row[0] as? NSNumber)?.doubleValue, let bytes = (row[1] as? NSNumber)?.intValue,
                  let count = (row[2] as? NSNumber)?.intValue else { return nil }
            return Received(at: at, strokes: count, lastX: (row[3] as? NSNumber)?.doubleValue, bytes: bytes, points: 0)
        }
        let results = latencies(received, made, baseStrokes: baseStrokes)
        let times = results.compactMap { $0 }.sorted()
        print(String(format: "1 headless Chromium page beside them (parsed and drawn on its ink canvas, the page's clock): "
                     + "p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms (%d moves, %d never received)",
                     rank(times, 0.5), rank(times, 0.95), rank(times, 0.99), times.last ?? .nan,
                     times.count, results.count - times.count))
    }
}
#endif
