// Browser displays benchmark: `swift build -c release --product extdisplay && swift run -c release browser-bench`.
//
// 1. Latency: one headless Chromium with 50 windows at 1280×720, devicePixelRatio 1, on `extdisplay present
//    --serve`; a key typed on the console → every page's own paint timestamp (performance.timeOrigin + now,
//    taken once the animation frame after the new picture was drawn has been rendered), against the wall clock
//    just before the key is written, same machine, same clock. p50 and p99 over every page and key. Side by side
//    in one run: the page as served (a canvas per held picture, a flip only shows another), the earlier page
//    (`/?draw=flip`: the picture drawn into one canvas at the flip), and `--serve-no-preload` (the picture is
//    sent on the flip).
// 2. Scale: 500 and 1,000 emulated viewers (the load client, loopback; the presenter started with
//    `--serve-max-pages N`, as the server admits 496 pages unless asked) with the console redrawing at 60 fps: every
//    viewer gets each new slide; key → last arrival; the console's frame rate beside the same run with 0 viewers;
//    memory per viewer. A viewer refused or dropped, or a key some viewer never gets, ends the run with a message.
// 3. Side by side: 50 viewers of one mode (one shared rendering) against 50 viewers of 50 modes (one rendering
//    per page, the naive design).
//
// 4. Encodings: what a Chromium page pays to decode one audience picture as the server's PNG, raw RGBA, Chromium's
//    own PNG, WebP and JPEG, and to draw a picture it holds.
//
// 5. Budgets (`budgets`, only when asked; issue 23): the presenter's memory with 50 pages at the largest mode a
//    page may have (3840×2160, one size and 50 sizes; a text deck and a deck of full-slide noise pictures), key
//    latency on the console while 200 such pages connect at once, and the time until an idle connection is
//    dropped (nothing sent, a request line cut off, a request answered then silence, a page that stops reading).
//
// Arguments: `[PAGES] [chromium|load|decode|budgets]` (Chromium windows, default 50; only those rows).
import ExtDisplayTestSupport
import Foundation

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func nowMs() -> Double { Date().timeIntervalSince1970 * 1000 }

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func binary() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["EXTDISPLAY"], !path.isEmpty { return URL(fileURLWithPath: path) }
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let candidate = exe.deletingLastPathComponent().appendingPathComponent("extdisplay")
    guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
        throw SupportError("build it first: swift build -c release --product extdisplay")
    }
    return candidate
}

func deck() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("edk-bench-deck-\(getpid()).md")
    var text = ""
    for n in 1...12 {
        text += "# Slide \(n)\n\n- first point of slide \(n)\n- second point\n\nSome text on slide \(n).\n\nNote: notes \(n)\n\n---\n\n"
    }
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
}

func stats(_ presenter: ServedPresenterProcess) async throws -> String {
    let mark = presenter.console.all.count
    presenter.type("s")
    return try await presenter.waitForLine(from: mark) { $0.hasPrefix("stats: ") }
}

/// Key → every Chromium page painted the new picture.
/// `drawOnFlip`: pages of the earlier design (`/?draw=flip`: the picture drawn into one canvas when the key comes)
/// instead of one canvas per held picture, only made visible.
func chromiumLatency(pages count: Int, keys: Int, preload: Bool, drawOnFlip: Bool = false) async throws {
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: try deck(),
                                                           extraArguments: preload ? [] : ["--serve-no-preload"])
    defer { presenter.quit() }
    let chromium = try await Chromium.launch()
    var pages: [Chromium.Page] = []
    let url = presenter.url + (drawOnFlip ? "?draw=flip" : "")
    for _ in 0..<count { pages.append(try await chromium.open(url, width: 1280, height: 720)) }
    func lastPaints() async throws -> [Int] {
        var out: [Int] = []
        for page in pages { out.append(try await chromium.paints(page).last?.count ?? 0) }
        return out
    }
    var deadline = Date().addingTimeInterval(120)
    while try await lastPaints().contains(0), Date() < deadline { try await Task.sleep(nanoseconds: 100_000_000) }
    // A talk's steady state: every page has decoded the pictures sent ahead before the first key (50 pages
    // decoding their first three pictures take the cores for a second or two).
    func allDecoded() async throws -> Bool {
        for page in pages {
            let stats = try await chromium.pictureStats(page)
            if stats.decoded < stats.pictures { return false }
        }
        return true
    }
    deadline = Date().addingTimeInterval(30)
    while try await !allDecoded(), Date() < deadline { try await Task.sleep(nanoseconds: 200_000_000) }
    if let settle = ProcessInfo.processInfo.environment["BROWSER_BENCH_SETTLE"].flatMap(Double.init) {
        try await Task.sleep(nanoseconds: UInt64(settle * 1e9))
    }
    var samples: [Double] = []
    var missed = 0
    for index in 0..<keys {
        // Let the pictures ahead arrive (a speaker does not flip 50 times a second).
        try await Task.sleep(nanoseconds: 700_000_000)
        let before = try await lastPaints()
        let pressed = nowMs()
        presenter.type(index % 4 == 3 ? "\u{7f}" : "n")
        // The pages record their own paint times; reading them is left until they are likely done, so that 50
        // DevTools calls every few milliseconds do not take the cores the pages are painting with.
        try await Task.sleep(nanoseconds: 300_000_000)
        deadline = Date().addingTimeInterval(30)
        var done = [Bool](repeating: false, count: pages.count)
        while done.contains(false), Date() < deadline {
            for (i, page) in pages.enumerated() where !done[i] {
                if let paint = try await chromium.paints(page).first(where: { $0.count > before[i] }) {
                    samples.append(paint.at - pressed)
                    done[i] = true
                }
            }
            if done.contains(false) { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        missed += done.filter { !$0 }.count
        if ProcessInfo.processInfo.environment["BROWSER_BENCH_KEYS"] != nil {
            let these = Array(samples.suffix(done.filter { $0 }.count))
            FileHandle.standardError.write(Data(String(format: "key %d: p50 %.1f ms, max %.1f ms\n", index + 1,
                                                       percentile(these, 0.5), these.max() ?? .nan).utf8))
        }
    }
    var waited = 0, missing = 0, pictures = 0
    for page in pages {
        let stats = try await chromium.pictureStats(page)
        waited += stats.waited
        missing += stats.missing
        pictures += stats.pictures
    }
    await chromium.quit()
    let design = (preload ? "pictures ahead" : "--serve-no-preload") + (drawOnFlip ? ", drawn at the flip (?draw=flip)" : ", a canvas per picture")
    say(String(format: "chromium  %3d pages 1280x720 dpr1, %d keys, %@: key → page painted p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d samples, %d missed); shows that waited for a picture %d, of a picture not held %d; pictures sent %d",
               count, keys, design, percentile(samples, 0.5),
               percentile(samples, 0.99), samples.max() ?? .nan, samples.count, missed, waited, missing, pictures))
}

/// Key → every emulated viewer received the new picture; console frame rate and memory per viewer.
///
/// Every step has a deadline and fails with what it saw: a viewer refused or closed by the server (its budget
/// admits ``defaultPages`` audience pages unless `--serve-max-pages` says more), a viewer with no picture, a key
/// some viewer never got.
func loadScale(viewers count: Int, distinctModes: Bool, keys: Int, consoleFPS: Double?) async throws {
    var arguments = consoleFPS.map { ["--console-fps", String($0)] } ?? []
    // More pages than the server admits by default: the room a speaker expecting them would ask for.
    if count > defaultPages { arguments += ["--serve-max-pages", String(count)] }
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: try deck(), extraArguments: arguments)
    defer { presenter.quit() }
    let row = "load \(count) viewers"
    let idle = presenter.residentKiB
    var clients: [LoadClient] = []
    if distinctModes {
        for i in 0..<count { clients.append(try await LoadClient.connect(count: 1, to: presenter.url, width: 1280 - i, height: 720)) }
    } else if count > 0 {
        clients.append(try await LoadClient.connect(count: count, to: presenter.url, timeout: 120))
    }
    func problems() -> String? {
        let all = clients.compactMap(\.problems)
        return all.isEmpty ? nil : all.joined(separator: "; ")
    }
    if let problems = problems() { throw SupportError("\(row): \(problems)") }
    for client in clients where !(await client.wait(timeout: 120) { $0.lastFrame != nil || !$0.isOpen }) {
        let waiting = client.snapshot.filter { $0.lastFrame == nil }.count
        throw SupportError("\(row): \(waiting) viewers were shown no picture within 120 s of connecting")
    }
    if let problems = problems() { throw SupportError("\(row), before the first key: \(problems)") }
    let loaded = presenter.residentKiB
    _ = try await stats(presenter)
    let start = Date()
    var lastArrival: [Double] = []
    for index in 0..<keys {
        let before = clients.map { $0.progress.map(\.frame) }
        try await Task.sleep(nanoseconds: 700_000_000)
        let pressed = nowMs()
        presenter.type(index % 4 == 3 ? "\u{7f}" : "n")
        if clients.isEmpty { continue }
        // Hang guard 30 s: a thousand viewers on two cores get a slide in well under a second.
        let deadline = Date().addingTimeInterval(30)
        var missing = 0
        for (client, previous) in zip(clients, before) {
            while true {
                let progress = client.progress
                if progress.contains(where: { !$0.isOpen }) {
                    throw SupportError("\(row), key \(index + 1): \(client.problems ?? "a viewer closed")")
                }
                missing = zip(progress, previous).filter { $0.0.frame == $0.1 }.count
                if missing == 0 { break }
                guard Date() < deadline else {
                    throw SupportError("\(row), key \(index + 1): \(missing) viewers did not get the new slide within 30 s")
                }
                try await Task.sleep(nanoseconds: 5_000_000)
            }
        }
        lastArrival.append((clients.flatMap { $0.snapshot.map(\.lastArrival) }.max() ?? pressed) - pressed)
    }
    let line = try await stats(presenter)
    let seconds = Date().timeIntervalSince(start)
    let consoleRate = line.range(of: "(").flatMap { r in Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." }) } ?? .nan
    for client in clients { await client.close() }
    let perViewer = count > 0 ? String(format: "%.1f KiB per viewer", Double(loaded - idle) / Double(count)) : "no viewers"
    say(String(format: "load      %3d viewers%@%@, %d keys: every viewer got every new slide %d/%d; key → last viewer received p50 %.1f ms, p99 %.1f ms; console %.1f fps%@ over %.0f s; memory %d KiB idle, %d KiB with viewers (%@); %@",
               count, distinctModes ? " of distinct modes (one rendering each)" : " of one mode (one shared rendering)",
               count > defaultPages ? " (--serve-max-pages \(count))" : "", keys,
               keys, keys, percentile(lastArrival, 0.5), percentile(lastArrival, 0.99), consoleRate,
               consoleFPS.map { " (asked \(Int($0)))" } ?? "", seconds, idle, loaded, perViewer,
               String(line.split(separator: ",").filter { $0.contains("rendered") }.first ?? "")))
}

/// Audience pages the server admits when nothing else is asked (its 512 connections less the 16 kept for the remote
/// and new requests).
let defaultPages = 496

/// What a page pays to decode one audience picture in each encoding (Chromium's own decoders, one page, the
/// median of 15 runs each), beside what the server pays to encode the PNG it sends.
func decodeCosts() async throws {
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: try deck())
    defer { presenter.quit() }
    let client = try await LoadClient.connect(count: 1, to: presenter.url)
    _ = await client.wait(timeout: 60) { $0.lastPNG != nil }
    guard let png = client.snapshot.first?.lastPNG else { throw SupportError("no picture arrived") }
    await client.close()
    let chromium = try await Chromium.launch()
    let page = try await chromium.open("about:blank", width: 1280, height: 720)
    let script = """
    (async () => {
      const bytes = Uint8Array.from(atob("\(png.base64EncodedString())"), c => c.charCodeAt(0));
      const options = {colorSpaceConversion: "none", premultiplyAlpha: "none"};
      async function median(make) {
        const times = [];
        for (let i = 0; i < 15; i++) {
          const start = performance.now();
          (await make()).close();
          times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        return times[7];
      }
      const png = new Blob([bytes], {type: "image/png"});
      const bitmap = await createImageBitmap(png, options);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height), pen = canvas.getContext("2d");
      pen.drawImage(bitmap, 0, 0);
      const raw = pen.getImageData(0, 0, canvas.width, canvas.height);
      const screen = new OffscreenCanvas(bitmap.width, bitmap.height).getContext("2d");
      const draws = [];
      for (let i = 0; i < 15; i++) {
        const start = performance.now();
        screen.drawImage(bitmap, 0, 0);
        screen.getImageData(0, 0, 1, 1);
        draws.push(performance.now() - start);
      }
      draws.sort((a, b) => a - b);
      const out = {"PNG as sent (zlib level 6)": [bytes.length, await median(() => createImageBitmap(png, options))],
                   "raw RGBA": [raw.data.length, await median(() => createImageBitmap(raw, options))]};
      for (const [name, type, quality] of [["Chromium's PNG", "image/png", 1], ["WebP q0.9", "image/webp", 0.9],
                                           ["JPEG q0.9", "image/jpeg", 0.9]]) {
        const blob = await canvas.convertToBlob({type: type, quality: quality});
        out[name] = [blob.size, await median(() => createImageBitmap(blob, options))];
      }
      out["drawImage of a held picture"] = [0, draws[7]];
      return JSON.stringify(out);
    })()
    """
    let result = try await chromium.evaluate(page, script, awaitPromise: true) as? String ?? "{}"
    await chromium.quit()
    let rows = try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: [Double]] ?? [:]
    let text = rows.sorted { $0.key < $1.key }.map { name, value in
        value[0] > 0 ? String(format: "%@ %.0f KiB %.1f ms", name, value[0] / 1024, value[1])
                     : String(format: "%@ %.2f ms", name, value[1])
    }.joined(separator: "; ")
    say("decode    one 1280x720 audience picture in Chromium (median of 15): \(text)")
}

/// Memory with 50 pages at 3840×2160: resident and peak growth over the presenter with no page, after every page
/// has its picture and the pictures ahead have had time to render.
func budgetMemory(deck: URL, name: String, distinctSizes: Bool) async throws {
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: deck)
    defer { presenter.quit() }
    let mark = presenter.console.all.count
    presenter.type("n")
    _ = try await presenter.waitForLine(from: mark, timeout: 30) { $0.hasPrefix("slide 2 of") }
    try await Task.sleep(nanoseconds: 1_000_000_000)
    let idle = presenter.residentKiB, idlePeak = presenter.peakResidentKiB
    let start = Date()
    var clients: [LoadClient] = []
    if distinctSizes {
        for index in 0..<50 { clients.append(try await LoadClient.connect(count: 1, to: presenter.url, width: 3_840, height: 2_160 - index)) }
    } else {
        clients.append(try await LoadClient.connect(count: 50, to: presenter.url, width: 3_840, height: 2_160))
    }
    var everyone = true
    for client in clients { everyone = await client.wait(timeout: 300) { $0.lastPNG != nil } && everyone }
    let pictured = Date().timeIntervalSince(start)
    try await Task.sleep(nanoseconds: 15_000_000_000)
    let line = try await stats(presenter)
    let rendered = line.split(separator: ",").first { $0.contains("rendered") }.map(String.init) ?? ""
    let png = clients.compactMap { $0.snapshot.first?.lastPNG?.count }.max() ?? 0
    say(String(format: "budgets   memory, 50 pages at 3840×2160%@, %@: every page had its picture %@ after %.1f s; resident %d → %d MiB, peak %d → %d MiB (picture budget 256 MiB); largest picture %.1f MB;%@",
               distinctSizes ? " (50 sizes 3840×2111…2160)" : " (one size)", name, everyone ? "yes" : "NO", pictured,
               idle / 1_024, presenter.residentKiB / 1_024, idlePeak / 1_024, presenter.peakResidentKiB / 1_024,
               Double(png) / 1e6, rendered))
    for client in clients { await client.close() }
}

/// Key → the console's status line while 200 pages at 3840×2160 (200 sizes) connect at once.
func budgetKeys() async throws {
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: try deck())
    defer { presenter.quit() }
    let url = presenter.url
    let crowd = Task.detached { () -> [LoadClient] in
        await withTaskGroup(of: LoadClient?.self) { group in
            for index in 0..<200 {
                group.addTask { try? await LoadClient.connect(count: 1, to: url, width: 3_840, height: 2_160 - index, timeout: 120) }
            }
            var clients: [LoadClient] = []
            for await client in group { if let client { clients.append(client) } }
            return clients
        }
    }
    var latencies: [Double] = []
    var slide = 1
    for index in 0..<30 {
        try await Task.sleep(nanoseconds: 300_000_000)
        let forward = index % 2 == 0
        slide += forward ? 1 : -1
        let mark = presenter.console.all.count
        let pressed = nowMs()
        presenter.type(forward ? "n" : "\u{7f}")
        _ = try await presenter.waitForLine(from: mark, timeout: 60) { $0.hasPrefix("slide \(slide) of") }
        latencies.append(nowMs() - pressed)
    }
    let clients = await crowd.value
    let connected = clients.filter { $0.snapshot.first?.isOpen == true }.count
    say(String(format: "budgets   keys while 200 pages at 3840×2160 (200 sizes) connect at once: key → console status line p50 %.1f ms, p95 %.1f ms, max %.1f ms over %d keys; %d pages connected",
               percentile(latencies, 0.5), percentile(latencies, 0.95), latencies.max() ?? .nan, latencies.count, connected))
    for client in clients { await client.close() }
}

/// Seconds until the server drops connections that stay idle in four ways, measured from the last byte sent.
func budgetIdle() async throws {
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: try deck())
    defer { presenter.quit() }
    let port = Int(presenter.url.split(separator: ":").last!.prefix { $0.isNumber })!
    func dropped(_ send: String, readFirst: Bool) async throws -> Double {
        try await onOwnThread {
            let socket = try RawSocket(port: port)
            if !send.isEmpty { socket.send(send) }
            let start = Date()
            var (bytes, closed) = socket.read(timeout: 120) { readFirst && ConnectionGuardHeadEnd.find($0) != nil }
            var since = start
            if readFirst, !closed {
                // The response came: silence from here on.
                since = Date()
                (bytes, closed) = socket.read(timeout: 120)
            }
            _ = bytes
            return closed ? Date().timeIntervalSince(since) : .infinity
        }
    }
    async let silent = dropped("", readFirst: false)
    async let cut = dropped("GET / HT", readFirst: false)
    async let answered = dropped("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", readFirst: true)
    let mark = presenter.console.all.count
    let stalled = try await LoadClient.connect(count: 1, to: presenter.url, stalled: 1)
    let stalledStart = Date()
    _ = try await presenter.waitForLine(from: mark, timeout: 120) { $0.contains("browser-1 gone") }
    let heartbeat = Date().timeIntervalSince(stalledStart)
    let times = try await (silent, cut, answered)
    say(String(format: "budgets   idle connections dropped after: nothing sent %.1f s; request line cut off %.1f s; a request answered, then silence %.1f s; an audience page that stops reading %.1f s",
               times.0, times.1, times.2, heartbeat))
    await stalled.close()
}

let arguments = CommandLine.arguments.dropFirst()
let pages = arguments.first.flatMap(Int.init) ?? 50
let only = arguments.first { $0 == "chromium" || $0 == "load" || $0 == "decode" || $0 == "budgets" }
say("browser-bench: loopback, release build of extdisplay; machine: \(ProcessInfo.processInfo.activeProcessorCount) cores")
do {
    if only == "decode" {
        try await decodeCosts()
        exit(0)
    }
    if only == "budgets" {
        try await budgetIdle()
        try await budgetKeys()
        try await budgetMemory(deck: try deck(), name: "text deck", distinctSizes: false)
        try await budgetMemory(deck: try deck(), name: "text deck", distinctSizes: true)
        let noise = try NoiseDeck.write()
        let noiseRows: Result<Void, any Error>
        do {
            try await budgetMemory(deck: noise, name: "noise-picture deck", distinctSizes: false)
            try await budgetMemory(deck: noise, name: "noise-picture deck", distinctSizes: true)
            noiseRows = .success(())
        } catch {
            noiseRows = .failure(error)
        }
        try? FileManager.default.removeItem(at: noise.deletingLastPathComponent())
        try noiseRows.get()
        exit(0)
    }
    if only != "chromium" {
        try await loadScale(viewers: 50, distinctModes: false, keys: 12, consoleFPS: nil)
        try await loadScale(viewers: 50, distinctModes: true, keys: 12, consoleFPS: nil)
        try await loadScale(viewers: 0, distinctModes: false, keys: 12, consoleFPS: 60)
        try await loadScale(viewers: 500, distinctModes: false, keys: 12, consoleFPS: 60)
        try await loadScale(viewers: 1_000, distinctModes: false, keys: 12, consoleFPS: 60)
    }
    if only != "load" {
        try await decodeCosts()
        try await chromiumLatency(pages: pages, keys: 20, preload: true)
        try await chromiumLatency(pages: pages, keys: 20, preload: true, drawOnFlip: true)
        try await chromiumLatency(pages: pages, keys: 20, preload: false)
    }
} catch {
    say("browser-bench: \(error)")
    exit(1)
}
say("browser-bench: done")
