// present-bench keys: how long `extdisplay present` takes to answer a key in each configuration, read from its
// status line, on one Xorg-dummy server with Openbox (release builds).
//
//   swift build -c release --product extdisplay && swift run -c release present-bench keys [--keys 20]
//       [--baseline OTHER-EXTDISPLAY]
//
// Configurations: alone on the laptop (DUMMY1 off) with the timer running and paused, with the projector
// (DUMMY1), with the projector and `--serve`, and the terminal console of a served talk (no DISPLAY; keys on
// standard input). Keys go through one long-lived `xdotool -` (no process start per key) at random phases of the
// timer's second; a key's time runs from writing it to xdotool until the presenter prints the next slide's status
// line. With --baseline, another build (e.g. the previous commit's) runs the same configurations in the same run.
#if canImport(CSDL2)
import Foundation

/// A child whose standard output lines are kept with the time each arrived.
final class TimedLines: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var lines: [(time: Date, text: String)] = []
    private var partial = ""
    private let input = Pipe()

    init(_ path: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value.isEmpty ? nil : value }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            let now = Date()
            self.lock.lock()
            self.partial += String(decoding: data, as: UTF8.self)
            while let newline = self.partial.firstIndex(of: "\n") {
                self.lines.append((now, String(self.partial[..<newline])))
                self.partial = String(self.partial[self.partial.index(after: newline)...])
            }
            self.lock.unlock()
        }
        try process.run()
    }

    var count: Int { lock.withLock { lines.count } }

    /// Waits (hang guard `timeout`) for a line after the first `mark` that satisfies `match`; its arrival time.
    func arrival(after mark: Int, timeout: Double = 30, _ match: (String) -> Bool) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = lock.withLock { lines.dropFirst(mark).first { match($0.text) }?.time }
            if let found { return found }
            usleep(1_000)
        }
        return nil
    }

    func type(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    func end() { stop(process, grace: 5) }
}

/// One configuration's answer times, in milliseconds.
struct KeyTimes {
    var name: String
    var binary: String
    var milliseconds: [Double]

    func percentile(_ p: Double) -> Double {
        guard !milliseconds.isEmpty else { return .nan }
        let sorted = milliseconds.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

func keyLatencyBench(_ arguments: [String]) {
    var keys = 20
    var baseline: String?
    var args = arguments[...]
    while let arg = args.popFirst() {
        switch arg {
        case "--keys": keys = Int(args.popFirst() ?? "") ?? keys
        case "--baseline": baseline = args.popFirst()
        default:
            FileHandle.standardError.write(Data("usage: present-bench keys [--keys N] [--baseline OTHER-EXTDISPLAY]\n".utf8))
            exit(2)
        }
    }
    let extdisplay = builtExtdisplay()
    do {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-keys-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let deck = work.appendingPathComponent("deck.md")
        try (1...(keys + 2)).map { "# Slide \($0)\n\nText \($0)\n\nNote: notes \($0)" }.joined(separator: "\n---\n")
            .write(to: deck, atomically: true, encoding: .utf8)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var results: [KeyTimes] = []
        for (binary, label) in [(extdisplay, "this build")] + (baseline.map { [($0, "baseline")] } ?? []) {
            for config in ["alone, timer running", "alone, timer paused", "projector", "projector + --serve"] {
                results.append(try desktopKeys(binary, config, deck: deck, keys: keys, root: root, work: work, label: label))
                print(line(results.last!))
            }
            results.append(try terminalKeys(binary, deck: deck, keys: keys, label: label))
            print(line(results.last!))
            results.append(try waylandKeys(binary, deck: deck, keys: keys, root: root, label: label))
            print(line(results.last!))
        }
        print("\nload average: \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?")")
    } catch {
        FileHandle.standardError.write(Data("present-bench keys: \(error)\n".utf8))
        exit(1)
    }
}

private func line(_ times: KeyTimes) -> String {
    let missed = times.milliseconds.filter { !$0.isFinite }.count
    func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
    return pad(times.name, 28) + pad(times.binary, 14)
        + String(format: "p50 %7.1f ms  p95 %7.1f ms  max %8.1f ms  (%d keys", times.percentile(0.5),
                 times.percentile(0.95), times.milliseconds.max() ?? .nan, times.milliseconds.count)
        + (missed > 0 ? ", \(missed) unanswered in 30 s)" : ")")
}

private func desktopKeys(_ binary: String, _ config: String, deck: URL, keys: Int, root: URL,
                         work: URL, label: String) throws -> KeyTimes {
    let server = try BenchServer(packageRoot: root, workDirectory: work)
    defer { server.shutdown() }
    if config.hasPrefix("alone") { try server.xrandr("--output", "DUMMY1", "--off") }
    let presenter = try TimedLines(binary, ["present", deck.path] + (config.contains("serve") ? ["--serve", "127.0.0.1:0"] : []),
                                   environment: ["DISPLAY": server.display, "SDL_VIDEODRIVER": "x11",
                                                 "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": ""])
    defer { presenter.end() }
    let total = keys + 2
    guard presenter.arrival(after: 0, { $0.hasPrefix("slide 1 of \(total)") }) != nil else {
        throw BenchError("\(binary) never printed its first status line (\(config))")
    }
    usleep(1_500_000)  // windows mapped, focus settled
    let presser = try KeyPresser(display: server.display)
    defer { presser.close() }
    presser.send("search --name \"extdisplay present: console\" windowfocus --sync")
    usleep(300_000)
    if config.hasSuffix("paused") {
        let mark = presenter.count
        presser.send("key p")
        _ = presenter.arrival(after: mark, timeout: 90) { $0.contains("(paused)") }
    }
    let times = answerTimes(presenter, keys: keys, total: total) { presser.send("key Right") }
    return KeyTimes(name: config, binary: label, milliseconds: times)
}

private func terminalKeys(_ binary: String, deck: URL, keys: Int, label: String) throws -> KeyTimes {
    let presenter = try TimedLines(binary, ["present", deck.path, "--serve", "127.0.0.1:0"],
                                   environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": ""])
    defer { presenter.end() }
    let total = keys + 2
    guard presenter.arrival(after: 0, { $0.hasPrefix("keys:") }) != nil else {
        throw BenchError("\(binary) --serve never printed its keys line")
    }
    let times = answerTimes(presenter, keys: keys, total: total) { presenter.type("n") }
    presenter.type("\u{11}")
    return KeyTimes(name: "terminal console (--serve)", binary: label, milliseconds: times)
}
/// A headless sway (scripts/sway-headless.sh: HEADLESS-1 1920×1080 and HEADLESS-2 1280×720), the audience on
/// HEADLESS-2, keys typed into the console by `wtype` (one process a key: its start is part of the time, as
/// xdotool's is in an independent harness), a virtual keyboard held for the whole run (a seat that gains its
/// first keyboard only when wtype types loses keys).
private func waylandKeys(_ binary: String, deck: URL, keys: Int, root: URL, label: String) throws -> KeyTimes {
    let script = root.appendingPathComponent("scripts/sway-headless.sh").path
    let started = try runTool("/bin/bash", [script, "start"])
    var values: [String: String] = [:]
    for field in started.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
        let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { values[parts[0]] = parts[1] }
    }
    guard let socket = values["WAYLAND_DISPLAY"], let runtime = values["XDG_RUNTIME_DIR"], let pid = values["PID"] else {
        throw BenchError("scripts/sway-headless.sh start printed no compositor: \(started)")
    }
    defer { _ = try? runTool("/bin/bash", [script, "stop", pid]) }
    let environment = ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtime, "DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": ""]
    let holder = try spawn("/usr/bin/wtype", ["-s", "600000", "-k", "F13"], environment: environment, log: nil)
    defer { stop(holder, grace: 1) }
    usleep(300_000)
    let presenter = try TimedLines(binary, ["present", deck.path, "--display", "HEADLESS-2"], environment: environment)
    defer { presenter.end() }
    let total = keys + 2
    guard presenter.arrival(after: 0, { $0.hasPrefix("slide 1 of \(total)") && $0.contains("HEADLESS-2") }) != nil else {
        throw BenchError("\(binary) never printed its first status line on sway")
    }
    usleep(1_500_000)  // windows mapped, the console focused
    let times = answerTimes(presenter, keys: keys, total: total) {
        _ = try? runTool("/usr/bin/wtype", ["-k", "Right"], environment: environment)
    }
    return KeyTimes(name: "Wayland (sway), projector", binary: label, milliseconds: times)
}

/// Presses a key `keys` times at random phases of the timer's second (0.1–0.9 s apart) and returns, for each, the
/// milliseconds until the next slide's status line arrived (infinity when none came within 30 s).
private func answerTimes(_ presenter: TimedLines, keys: Int, total: Int, press: () -> Void) -> [Double] {
    var times: [Double] = []
    for step in 1...keys {
        usleep(UInt32.random(in: 100_000...900_000))
        let mark = presenter.count
        let sent = Date()
        press()
        let arrived = presenter.arrival(after: mark) { $0.hasPrefix("slide \(step + 1) of \(total)") }
        times.append(arrived.map { $0.timeIntervalSince(sent) * 1000 } ?? .infinity)
    }
    return times
}
#endif
