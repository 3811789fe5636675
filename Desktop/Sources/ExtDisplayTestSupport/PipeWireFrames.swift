import Foundation

/// A standing consumer of one PipeWire video stream — GStreamer's `pipewiresrc` in a `gst-launch-1.0` of its own,
/// apart from the code under test — that writes every frame it receives as a numbered PNG into a folder of its
/// own (the newest few kept): what a call application sharing a window holds, a stream that stays linked, so what
/// the tests read is what such an application would get, frame by frame, rather than one frame of a new link.
/// ``latest()`` is the newest complete frame. The pipeline asks the producer for at most `maxRate` frames a second
/// (a compositor records a window on each of its commits; a presenter drawing on its own clock commits often, and
/// PNG encoding is the expensive part here). Stopped (SIGKILL) with ``stop()`` or at deinit.
public final class PipeWireFrames: @unchecked Sendable {
    /// The folder the frames are written to (`frame-000000.png`, …).
    public let folder: URL
    private let child: ChildProcess
    private let node: UInt32
    private let runtimeDirectory: String

    /// Starts consuming PipeWire node `node` of the PipeWire daemon whose socket is in `runtimeDirectory`.
    public init(node: UInt32, runtimeDirectory: String, maxRate: Int = 10) throws {
        let gst = "/usr/bin/gst-launch-1.0"
        guard FileManager.default.isExecutableFile(atPath: gst) else {
            throw SupportError("gst-launch-1.0 is not installed: run scripts/install-deps.sh (gstreamer1.0-tools, "
                               + "gstreamer1.0-pipewire)")
        }
        self.node = node
        self.runtimeDirectory = runtimeDirectory
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        child = try ChildProcess(gst, ["-q", "pipewiresrc", "path=\(node)", "!", "video/x-raw,max-framerate=\(maxRate)/1",
                                       "!", "videoconvert", "!", "pngenc", "compression-level=1", "!", "multifilesink",
                                       "max-files=8", "location=\(folder.path)/frame-%06d.png"],
                             environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "PIPEWIRE_RUNTIME_DIR": runtimeDirectory])
    }

    /// The frames written so far, oldest first (numbered by arrival; the oldest are deleted as new ones come).
    private var files: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("frame-") && $0.hasSuffix(".png") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// How many frames have arrived (the number of the newest plus one).
    public var count: Int {
        guard let last = files.last?.deletingPathExtension().lastPathComponent.dropFirst("frame-".count) else { return 0 }
        return (Int(last) ?? -1) + 1
    }

    /// The newest frame written to its end (a PNG ends with its IEND chunk; the newest file may still be in the
    /// writing), or nil when none has come yet. Throws when the consumer has ended (it says why).
    public func latest() throws -> URL? {
        if child.hasEnded {
            throw SupportError("the PipeWire consumer of node \(node) ended (\(child.wait())): \(child.stderr)")
        }
        for file in files.reversed() {
            guard let handle = try? FileHandle(forReadingFrom: file) else { continue }
            defer { try? handle.close() }
            guard let end = try? handle.seekToEnd(), end > 12 else { continue }
            try? handle.seek(toOffset: end - 8)
            if let tail = try? handle.readToEnd(), tail.prefix(4) == Data("IEND".utf8) { return file }
        }
        return nil
    }

    /// Waits (at most `timeout` seconds, a hang guard) for a complete frame; throws, with the consumer's words,
    /// when none comes. `damage`, when given, is called each `damageEvery` seconds without a frame (a compositor
    /// that records only what it repaints sends nothing more of a static picture whose first frame was lost).
    public func first(timeout: Double = 30, damageEvery: Double = 2, damage: (() throws -> Void)? = nil) throws -> URL {
        var frame: URL?
        let deadline = Date().addingTimeInterval(timeout)
        while frame == nil, !child.hasEnded, Date() < deadline {
            _ = poll(min(damageEvery, max(0, deadline.timeIntervalSinceNow)), every: 0.05) {
                frame = try? latest()
                return frame != nil || child.hasEnded
            }
            if frame == nil, Date() < deadline, let damage { try damage() }
        }
        if let frame { return frame }
        _ = try latest()
        throw SupportError("PipeWire node \(node) delivered no frame within \(timeout) s: \(child.stderr)")
    }

    /// Waits (at most `timeout` seconds, a hang guard) until PipeWire reports the producer's node `running`
    /// (`pw-dump`): the consumer is linked and buffers are negotiated, so what the producer records from now on
    /// reaches it. A compositor that records only what changes needs this before the change.
    public func awaitRunning(timeout: Double = 30) throws {
        var state = "?"
        let environment: [String: String?] = ["XDG_RUNTIME_DIR": runtimeDirectory, "PIPEWIRE_RUNTIME_DIR": runtimeDirectory]
        let running = try poll(timeout, every: 0.1, stop: { child.hasEnded }) {
            let dump = try runToEnd("/usr/bin/pw-dump", [], environment: environment)
            guard dump.status == 0, let objects = try? JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [[String: Any]],
                  let object = objects.first(where: { ($0["id"] as? Int) == Int(node) }),
                  let info = object["info"] as? [String: Any] else { return false }
            state = info["state"] as? String ?? "?"
            return state == "running"
        }
        guard running else {
            _ = try latest()
            throw SupportError("PipeWire node \(node) is not running after \(timeout) s (state \(state)): \(child.stderr)")
        }
    }

    /// Stops the consumer and removes its folder (also at deinit).
    public func stop() {
        child.signal(SIGKILL)
        _ = child.wait()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}

/// The size of a PNG, from its IHDR chunk (bytes 16–23: width and height, big-endian).
public enum PNGSize {
    /// Width and height of `png`; throws when it is no PNG.
    public static func of(_ png: URL) throws -> (width: Int, height: Int) {
        let data = try Data(contentsOf: png)
        guard data.count >= 24, data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw SupportError("\(png.path) is no PNG")
        }
        func number(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
