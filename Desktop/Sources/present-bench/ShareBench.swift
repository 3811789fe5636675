// present-bench share: presenting into a video call, measured (issue 38). On one Xorg-dummy server with Openbox,
// the laptop alone (DUMMY1 off), release builds:
//
//   scripts/bench-share.sh [--keys 20] [--idle-seconds 20]
//
// - key → frame: a key written to one long-lived `xdotool -` until the next slide's colour is seen
//   * in the share window (`--share window`): its centre read from the X server (`ScreenProbe`, 1×1 XGetImage);
//   * in the camera stream (`--share camera`): a consumer that is not ours — `gst-launch-1.0 pipewiresrc` on a
//     private PipeWire with WirePlumber, each frame scaled to 4×4 RGB and written to a pipe — until the first
//     frame of the new colour arrives;
//   * beside them, the same key on a projector (DUMMY1 on, no share): the cable path they are compared with.
// - idle CPU: the presenter's CPU over `--idle-seconds` of a talk nobody touches (the timer ticking), with no
//   share, with the share window, and with the camera (a consumer attached, as in a call).
//
// Each slide is one solid image (red, green, blue in turn), so the colour at the centre names the slide.
#if canImport(CSDL2)
import DesktopImages
import ExtDisplayTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The three colours the bench's slides take in turn (0xRRGGBB).
private let slideColours: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF]

func shareBench(_ arguments: [String]) {
    var keys = 20
    var idleSeconds = 20.0
    var args = arguments[...]
    while let arg = args.popFirst() {
        switch arg {
        case "--keys": keys = max(1, Int(args.popFirst() ?? "") ?? keys)
        case "--idle-seconds": idleSeconds = max(2, Double(args.popFirst() ?? "") ?? idleSeconds)
        default:
            FileHandle.standardError.write(Data("usage: present-bench share [--keys N] [--idle-seconds S]\n".utf8))
            exit(2)
        }
    }
    let extdisplay = builtExtdisplay()
    do {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("present-bench-share-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let deck = try colourDeck(slides: keys + 2, in: work)
        let root = benchPackageRoot()
        let pipeWire = try BenchPipeWire(folder: work.appendingPathComponent("pipewire"))
        defer { pipeWire.stop() }
        print("present-bench share: Xorg-dummy + Openbox, \(keys) keys per configuration, release build")
        print("key → the next slide's colour seen")
        for config in ShareConfig.allCases {
            let times = try keyToFrame(extdisplay, config, deck: deck, keys: keys, root: root, work: work, pipeWire: pipeWire)
            print(latencyLine(config.description, times))
        }
        print("\nidle talk, \(Int(idleSeconds)) s, timer running: CPU of the presenter")
        for config in [IdleConfig.none, .window, .camera] {
            let cpu = try idleCPU(extdisplay, config, deck: deck, seconds: idleSeconds, root: root, work: work,
                                  pipeWire: pipeWire)
            print(String(format: "%@ %6.2f %% of a core  (%.2f CPU s in %.0f s)",
                         config.description.padding(toLength: 40, withPad: " ", startingAt: 0) as NSString,
                         cpu / idleSeconds * 100, cpu, idleSeconds))
        }
        print("\nload average: \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?")")
    } catch {
        FileHandle.standardError.write(Data("present-bench share: \(error)\n".utf8))
        exit(1)
    }
}

/// A deck of `slides` slides, each one solid image in the next of ``slideColours``.
private func colourDeck(slides: Int, in folder: URL) throws -> URL {
    for (index, colour) in slideColours.enumerated() {
        try Bitmap(width: 320, height: 180, color: Color(hex: colour))
            .writePNG(to: folder.appendingPathComponent("c\(index).png"))
    }
    let deck = folder.appendingPathComponent("deck.md")
    try (0..<slides).map { "![slide \($0 + 1)](c\($0 % slideColours.count).png)\n\nNote: notes \($0 + 1)" }
        .joined(separator: "\n---\n").write(to: deck, atomically: true, encoding: .utf8)
    return deck
}

private enum ShareConfig: CaseIterable, CustomStringConvertible {
    case window, camera, projector

    var description: String {
        switch self {
        case .window: return "share window (one screen)"
        case .camera: return "camera stream (one screen)"
        case .projector: return "projector, no share (the cable path)"
        }
    }
}

private enum IdleConfig: CustomStringConvertible {
    case none, window, camera

    var description: String {
        switch self {
        case .none: return "no share"
        case .window: return "--share window"
        case .camera: return "--share camera (a consumer attached)"
        }
    }

    var arguments: [String] {
        switch self {
        case .none: return []
        case .window: return ["--share", "window"]
        case .camera: return ["--share", "camera"]
        }
    }
}

private func latencyLine(_ name: String, _ times: [Double]) -> String {
    let finite = times.filter(\.isFinite).sorted()
    func percentile(_ p: Double) -> Double {
        finite.isEmpty ? .nan : finite[min(finite.count - 1, Int((Double(finite.count - 1) * p).rounded()))]
    }
    let missed = times.count - finite.count
    return String(format: "%@ p50 %7.1f ms  p95 %7.1f ms  max %7.1f ms  (%d keys%@)",
                  name.padding(toLength: 40, withPad: " ", startingAt: 0) as NSString,
                  percentile(0.5), percentile(0.95), finite.last ?? .nan, times.count,
                  (missed > 0 ? ", \(missed) not seen in 10 s" : "") as NSString)
}

/// A presenter on a fresh Xorg-dummy server, started and settled (first status line, windows mapped, the console
/// focused), with the key presser on the same server.
private final class BenchTalk {
    let server: BenchServer
    let presenter: TimedLines
    let presser: KeyPresser

    init(_ binary: String, deck: URL, extra: [String], projector: Bool, root: URL, work: URL,
         pipeWire: BenchPipeWire) throws {
        server = try BenchServer(packageRoot: root, workDirectory: work)
        do {
            if !projector { try server.xrandr("--output", "DUMMY1", "--off") }
            var environment = pipeWire.environment
            environment["DISPLAY"] = server.display
            environment["SDL_VIDEODRIVER"] = "x11"
            environment["WAYLAND_DISPLAY"] = ""
            presenter = try TimedLines(binary, ["present", deck.path] + extra, environment: environment)
        } catch {
            server.shutdown()
            throw error
        }
        do {
            guard presenter.arrival(after: 0, timeout: 60, { $0.hasPrefix("slide 1 of") }) != nil else {
                throw BenchError("\(binary) present \(extra.joined(separator: " ")) never printed its first status line")
            }
            usleep(1_500_000)  // windows mapped, focus settled
            presser = try KeyPresser(display: server.display)
        } catch {
            presenter.end()
            server.shutdown()
            throw error
        }
        presser.send("search --name \"extdisplay present: console\" windowfocus --sync")
        // With --share the console is an ordinary window the size of the screen: the share window is raised above
        // it (the keys still go to the focused console), as a speaker would arrange them.
        if extra.contains("--share") {
            presser.send("search --name \"share this window\" windowraise")
        }
        usleep(300_000)
    }

    /// The frame of the first window whose title contains `title` (root coordinates).
    func windowFrame(_ title: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let ids = try runTool("/usr/bin/xdotool", ["search", "--name", title], environment: ["DISPLAY": server.display])
        guard let id = ids.split(separator: "\n").first else { throw BenchError("no window titled \"\(title)\"") }
        let shell = try runTool("/usr/bin/xdotool", ["getwindowgeometry", "--shell", String(id)],
                                environment: ["DISPLAY": server.display])
        var values: [String: Int] = [:]
        for line in shell.split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Int(pair[1]) { values[String(pair[0])] = value }
        }
        guard let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"] else {
            throw BenchError("xdotool gave no geometry for \"\(title)\": \(shell)")
        }
        return (x, y, w, h)
    }

    func end() {
        presser.close()
        presenter.end()
        server.shutdown()
    }
}

private func keyToFrame(_ binary: String, _ config: ShareConfig, deck: URL, keys: Int, root: URL, work: URL,
                        pipeWire: BenchPipeWire) throws -> [Double] {
    let extra: [String] = switch config {
    case .window: ["--share", "window"]
    case .camera: ["--share", "camera"]
    case .projector: []
    }
    let talk = try BenchTalk(binary, deck: deck, extra: extra, projector: config == .projector, root: root, work: work,
                             pipeWire: pipeWire)
    defer { talk.end() }
    let sees: (UInt32) -> Date?
    var probeNow: () -> UInt32? = { nil }
    var consumer: CameraConsumer?
    defer { consumer?.end() }
    switch config {
    case .window, .projector:
        guard let probe = ScreenProbe(display: talk.server.display) else { throw BenchError("cannot open \(talk.server.display)") }
        let (x, y): (Int, Int)
        if config == .window {
            let frame = try talk.windowFrame("share this window")
            (x, y) = (frame.x + frame.width / 2, frame.y + frame.height / 2)
        } else {
            (x, y) = (1920 + 640, 360)  // DUMMY1's centre (scripts/xorg-dummy.sh's layout)
        }
        probeNow = { probe.color(x: x, y: y) }
        sees = { colour in
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let seen = probe.color(x: x, y: y), closeColour(seen, colour) { return Date() }
            }
            return nil
        }
    case .camera:
        let started = try CameraConsumer(pipeWire: pipeWire, work: work)
        consumer = started
        sees = { colour in started.arrival(of: colour, timeout: 10) }
    }
    guard sees(slideColours[0]) != nil else {
        let seen = config == .camera ? "no camera frame of it: \(consumer?.summary ?? "")"
            : "window covered or elsewhere: \(probeNow().map { String(format: "0x%06X", $0) } ?? "nothing") at its centre"
        throw BenchError("\(config): the first slide's colour never showed (\(seen))")
    }
    var times: [Double] = []
    for step in 1...keys {
        usleep(UInt32.random(in: 100_000...900_000))
        consumer?.forgetFrames()
        let sent = Date()
        talk.presser.send("key Right")
        let seen = sees(slideColours[step % slideColours.count])
        times.append(seen.map { $0.timeIntervalSince(sent) * 1000 } ?? .infinity)
    }
    return times
}

private func idleCPU(_ binary: String, _ config: IdleConfig, deck: URL, seconds: Double, root: URL, work: URL,
                     pipeWire: BenchPipeWire) throws -> Double {
    let talk = try BenchTalk(binary, deck: deck, extra: config.arguments, projector: false, root: root, work: work,
                             pipeWire: pipeWire)
    defer { talk.end() }
    var consumer: CameraConsumer?
    defer { consumer?.end() }
    if case .camera = config {
        let started = try CameraConsumer(pipeWire: pipeWire, work: work)
        consumer = started
        guard started.arrival(of: slideColours[0], timeout: 10) != nil else {
            throw BenchError("idle \(config): no camera frame of the first slide in 10 s (\(started.summary))")
        }
    }
    let pid = talk.presenter.process.processIdentifier
    guard let before = ProcStat.cpuSecondsWithChildren(pid) else { throw BenchError("no /proc/\(pid)/stat") }
    usleep(UInt32(seconds * 1_000_000))
    guard let after = ProcStat.cpuSecondsWithChildren(pid) else { throw BenchError("the presenter ended while idle") }
    return after - before
}

/// Whether two 0xRRGGBB colours are within 24 per channel (scaling and colour conversion shift solid colours).
private func closeColour(_ a: UInt32, _ b: UInt32) -> Bool {
    for shift: UInt32 in [0, 8, 16] {
        let left = Int((a >> shift) & 0xFF), right = Int((b >> shift) & 0xFF)
        if abs(left - right) > 24 { return false }
    }
    return true
}

/// A private PipeWire with WirePlumber on a session bus of its own, for the camera configurations.
private final class BenchPipeWire {
    let environment: [String: String]
    private let bus: SessionBus
    private let processes: [ChildProcess]

    init(folder: URL) throws {
        let runtime = folder.appendingPathComponent("run"), home = folder.appendingPathComponent("home")
        for made in [runtime, home] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        bus = try SessionBus.start()
        environment = ["XDG_RUNTIME_DIR": runtime.path, "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": bus.address]
        let childEnvironment = environment.mapValues { Optional($0) }
        var started = [try ChildProcess(["pipewire"], environment: childEnvironment)]
        let socket = runtime.appendingPathComponent("pipewire-0").path
        guard poll(20, { FileManager.default.fileExists(atPath: socket) }) else {
            throw BenchError("pipewire made no socket at \(socket) in 20 s: \(started[0].stderr)")
        }
        started.append(try ChildProcess(["wireplumber"], environment: childEnvironment))
        processes = started
    }

    func stop() {
        for process in processes.reversed() { process.signal(SIGTERM) }
        for process in processes { _ = process.exitStatus(timeout: 5) }
        bus.stop()
    }
}

/// `gst-launch-1.0 pipewiresrc` reading the presenter's camera node (found by its media class), each frame scaled to
/// 4×4 RGB on standard output; the arrival time and centre colour of every frame are kept.
private final class CameraConsumer: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var frames: [(time: Date, colour: UInt32)] = []
    private var pending = Data()
    private let errorFile: URL

    init(pipeWire: BenchPipeWire, work: URL) throws {
        errorFile = work.appendingPathComponent("consumer-\(UUID().uuidString).stderr")
        var node: String?
        _ = poll(20, every: 0.1) {
            node = (try? cameraNode(environment: pipeWire.environment)) ?? nil
            return node != nil
        }
        guard let node else { throw BenchError("no Video/Source node of extdisplay appeared in pw-dump within 20 s") }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q", "pipewiresrc", "target-object=\(node)", "!", "videoconvert", "!", "videoscale", "!",
                             "video/x-raw,format=RGB,width=4,height=4", "!", "fdsink", "fd=1", "sync=false"]
        var env = ProcessInfo.processInfo.environment
        for (key, value) in pipeWire.environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            let now = Date()
            self.lock.withLock {
                self.pending.append(data)
                while self.pending.count >= 48 {
                    let frame = self.pending.prefix(48)
                    let centre = frame.startIndex + (2 * 4 + 2) * 3
                    let colour = UInt32(frame[centre]) << 16 | UInt32(frame[centre + 1]) << 8 | UInt32(frame[centre + 2])
                    self.frames.append((now, colour))
                    self.pending.removeFirst(48)
                }
            }
        }
        try process.run()
    }

    func forgetFrames() { lock.withLock { frames.removeAll() } }

    /// `12 frames, the last 0xFF0000; gst-launch: …`: what the consumer got, for a failure's message.
    var summary: String {
        let (count, last) = lock.withLock { (frames.count, frames.last?.colour) }
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return "\(count) frames since the last key, the last \(last.map { String(format: "0x%06X", $0) } ?? "none")"
            + (errors.isEmpty ? "" : "; gst-launch said: \(errors.suffix(400))")
    }

    /// The arrival of the first frame (since the last ``forgetFrames()``) of `colour`; nil after `timeout` s.
    func arrival(of colour: UInt32, timeout: Double) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = lock.withLock({ frames.first { closeColour($0.colour, colour) }?.time }) { return found }
            usleep(500)
        }
        return nil
    }

    func end() { stop(process, grace: 2) }
}

/// The name of the PipeWire node whose media class is Video/Source and whose name says extdisplay (from `pw-dump`):
/// what `pipewiresrc target-object=` takes (a node's name or its `object.serial`; not its id — a target given by
/// id was never linked with PipeWire 0.3.65, and the consumer got no frame).
private func cameraNode(environment: [String: String]) throws -> String? {
    let dump = try runTool("/usr/bin/pw-dump", [], environment: environment)
    guard let objects = try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [[String: Any]] else { return nil }
    for object in objects {
        guard let info = object["info"] as? [String: Any], let props = info["props"] as? [String: Any],
              props["media.class"] as? String == "Video/Source", let name = props["node.name"] as? String,
              name.lowercased().contains("extdisplay") else { continue }
        return name
    }
    return nil
}
#endif
