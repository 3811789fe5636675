// Browser displays benchmark: `swift build -c release --product extdisplay && swift run -c release browser-bench`.
//
// 1. Latency: one headless Chromium with 50 windows at 1280×720, devicePixelRatio 1, on `extdisplay present
//    --serve`; a key typed on the console → every page's own paint timestamp (performance.timeOrigin + now,
//    taken in the animation frame after the new picture was drawn). p50 and p99 over every page and key.
// 2. Scale: 500 emulated viewers (the load client, loopback) with the console redrawing at 60 fps: every viewer
//    gets each new slide; key → last arrival; console frame rate and memory per viewer.
// 3. Side by side: 50 viewers of one mode (one shared rendering) against 50 viewers of 50 modes (one rendering
//    per page, the naive design).
import BrowserTestSupport
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
func chromiumLatency(pages count: Int, keys: Int) async throws {
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: try deck())
    defer { presenter.quit() }
    let chromium = try await Chromium.launch()
    var pages: [Chromium.Page] = []
    for _ in 0..<count { pages.append(try await chromium.open(presenter.url, width: 1280, height: 720)) }
    func lastFrames() async throws -> [UInt32?] {
        var out: [UInt32?] = []
        for page in pages { out.append(try await chromium.paints(page).last?.frame) }
        return out
    }
    var deadline = Date().addingTimeInterval(120)
    while try await lastFrames().contains(where: { $0 == nil }), Date() < deadline { try await Task.sleep(nanoseconds: 100_000_000) }
    var samples: [Double] = []
    var missed = 0
    for index in 0..<keys {
        let before = try await lastFrames()
        try await Task.sleep(nanoseconds: 300_000_000)
        let pressed = nowMs()
        presenter.type(index % 4 == 3 ? "\u{7f}" : "n")
        deadline = Date().addingTimeInterval(30)
        var done = [Bool](repeating: false, count: pages.count)
        while done.contains(false), Date() < deadline {
            for (i, page) in pages.enumerated() where !done[i] {
                let old = before[i]
                if let paint = try await chromium.paints(page).first(where: { paint in old.map { paint.frame > $0 } ?? true }) {
                    samples.append(paint.at - pressed)
                    done[i] = true
                }
            }
            if done.contains(false) { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        missed += done.filter { !$0 }.count
    }
    await chromium.quit()
    say(String(format: "chromium  %3d pages 1280x720 dpr1, %d keys: key → page painted p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d samples, %d missed)",
               count, keys, percentile(samples, 0.5), percentile(samples, 0.99), samples.max() ?? .nan, samples.count, missed))
}

/// Key → every emulated viewer received the new picture; console frame rate and memory per viewer.
func loadScale(viewers count: Int, distinctModes: Bool, keys: Int, consoleFPS: Double?) async throws {
    let presenter = try await ServedPresenterProcess.start(binary: try binary(), deck: try deck(),
                                                           extraArguments: consoleFPS.map { ["--console-fps", String($0)] } ?? [])
    defer { presenter.quit() }
    let idle = presenter.residentKiB
    var clients: [LoadClient] = []
    if distinctModes {
        for i in 0..<count { clients.append(try await LoadClient.connect(count: 1, to: presenter.url, width: 1280 - i, height: 720)) }
    } else {
        clients.append(try await LoadClient.connect(count: count, to: presenter.url))
    }
    for client in clients { _ = await client.wait(timeout: 120) { $0.lastFrame != nil } }
    let loaded = presenter.residentKiB
    _ = try await stats(presenter)
    let start = Date()
    var lastArrival: [Double] = [], everyone = 0
    for index in 0..<keys {
        let before = clients.flatMap { $0.snapshot.map(\.lastFrame) }
        try await Task.sleep(nanoseconds: 300_000_000)
        let pressed = nowMs()
        presenter.type(index % 4 == 3 ? "\u{7f}" : "n")
        var offset = 0
        var all = true
        for client in clients {
            let previous = Array(before[offset..<(offset + client.snapshot.count)])
            offset += previous.count
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, zip(client.snapshot, previous).contains(where: { $0.0.lastFrame == $0.1 }) {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            all = all && !zip(client.snapshot, previous).contains { $0.0.lastFrame == $0.1 }
        }
        if all { everyone += 1 }
        lastArrival.append((clients.flatMap { $0.snapshot.map(\.lastArrival) }.max() ?? pressed) - pressed)
    }
    let line = try await stats(presenter)
    let seconds = Date().timeIntervalSince(start)
    let consoleRate = line.range(of: "(").flatMap { r in Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." }) } ?? .nan
    for client in clients { await client.close() }
    say(String(format: "load      %3d viewers%@, %d keys: every viewer got every new slide %d/%d; key → last viewer received p50 %.1f ms, p99 %.1f ms; console %.1f fps%@ over %.0f s; memory %d KiB idle, %d KiB with viewers (%.1f KiB per viewer); %@",
               count, distinctModes ? " of distinct modes (one rendering each)" : " of one mode (one shared rendering)", keys,
               everyone, keys, percentile(lastArrival, 0.5), percentile(lastArrival, 0.99), consoleRate,
               consoleFPS.map { " (asked \(Int($0)))" } ?? "", seconds, idle, loaded, Double(loaded - idle) / Double(count),
               String(line.split(separator: ",").filter { $0.contains("rendered") }.first ?? "")))
}

let arguments = CommandLine.arguments.dropFirst()
let pages = arguments.first.flatMap(Int.init) ?? 50
say("browser-bench: loopback, release build of extdisplay; machine: \(ProcessInfo.processInfo.activeProcessorCount) cores")
do {
    try await loadScale(viewers: 50, distinctModes: false, keys: 12, consoleFPS: nil)
    try await loadScale(viewers: 50, distinctModes: true, keys: 12, consoleFPS: nil)
    try await loadScale(viewers: 500, distinctModes: false, keys: 12, consoleFPS: 60)
    try await chromiumLatency(pages: pages, keys: 20)
} catch {
    say("browser-bench: \(error)")
    exit(1)
}
