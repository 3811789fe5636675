#if canImport(CGStreamer)
import CGStreamer
import Foundation

/// The speaker's webcam for the camera's picture-in-picture (`present --share camera --webcam[=SOURCE]`): GStreamer
/// captures it — `pipewiresrc` (a PipeWire node) or `v4l2src` (a `/dev/videoN` device) `! videoscale !
/// videoconvert ! capsfilter (BGRx, a quarter of the camera's width, square pixels) ! appsink` — and keeps only its
/// newest frame, which ``draw(into:)`` copies into a camera frame's bottom-right corner (``WebcamPlacement``).
///
/// - It decides nothing about time: it says a new frame is waiting (``hasNewFrame``) and wakes the caller's loop
///   (`wake`, once per waiting frame); when a camera frame is made is ``ExtDisplayCore/CameraPacing``'s decision.
/// - Never blocks its caller: finding and opening the webcam run on a thread of their own (``start()``), frames
///   arrive on GStreamer's streaming thread, and stopping after a problem runs on a thread of its own too.
/// - Problems end the feed and are told once (``takeNews()``): no webcam found, a source that does not exist, one
///   that stops or vanishes mid-talk (an error on its pipeline, the end of its stream, its PipeWire node removed,
///   seen by GStreamer's device monitor), a picture format that cannot be converted. The camera goes on with the
///   slides alone.
/// - The camera extdisplay publishes itself (`excluding`) is never taken for the webcam: a camera filming itself.
///
/// ```swift
/// let webcam = WebcamFeed(source: .automatic, frameWidth: 1280, frameHeight: 720,
///                         excluding: .defaultPipeWire) { Task { @MainActor in runtime.wake() } }
/// webcam.start()
/// camera.publish(at: now) { frame in canvas.readPixels(into: frame, order: .bgrx); webcam.draw(into: frame); return true }
/// ```
///
/// Its state is shared between the caller's thread and GStreamer's, under one lock (hence `@unchecked Sendable`).
public final class WebcamFeed: @unchecked Sendable {
    /// What the feed tells the speaker.
    public enum News: Sendable, Hashable {
        /// The first frame arrived: the line says which webcam and where.
        case started(String)
        /// The feed ended (the line says what is wrong and what to do); the camera goes on without it.
        case stopped(String)
    }

    /// The webcam asked for.
    public let source: WebcamSource
    /// Where its picture goes in the camera's frame.
    public let placement: WebcamPlacement
    /// The camera extdisplay publishes (never taken for the webcam).
    public let excluding: CameraDestination

    private let wake: @Sendable () -> Void
    private let lock = NSLock()
    private var latest: OpaquePointer?
    private var fresh = false
    private var news: [News] = []
    private var ended = false
    private var stopped = false
    private var announced = false
    private var running: Running?
    private var monitor: Monitor?
    private var label = ""

    /// The capture of a running feed, the monitor whose bus reports its node's removal, and the reference their
    /// callbacks hold on the feed.
    private struct Running: @unchecked Sendable {
        var pipeline: UnsafeMutablePointer<GstElement>?
        var watched: UnsafeMutablePointer<GstDeviceMonitor>?
        var retained: Unmanaged<WebcamFeed>?
    }

    /// The device monitor, kept from the search to the end of the talk: PipeWire's device provider (0.3.65) stopped
    /// while the camera's `pipewiresink` still runs on the same PipeWire connection makes the process crash when the
    /// sink stops later (seen at every talk's end here); so it is stopped last, after the camera.
    private struct Monitor: @unchecked Sendable {
        var pointer: UnsafeMutablePointer<GstDeviceMonitor>
    }

    /// A feed of `source` for a `frameWidth`×`frameHeight` camera publishing to `excluding`; `wake` is called (on
    /// any thread) when a frame starts waiting or news arrives. Nothing starts before ``start()``.
    public init(source: WebcamSource, frameWidth: Int, frameHeight: Int, excluding: CameraDestination,
                wake: @escaping @Sendable () -> Void) {
        self.source = source
        placement = WebcamPlacement(frameWidth: frameWidth, frameHeight: frameHeight)
        self.excluding = excluding
        self.wake = wake
    }

    deinit {
        if let latest { edk_webcam_sample_unref(latest) }
    }

    /// Finds and opens the webcam on a thread of its own; its first frame or its problem comes as news.
    public func start() {
        let thread = Thread { [self] in open() }
        thread.name = "extdisplay webcam start"
        thread.start()
    }

    /// Whether a frame arrived that no camera frame has shown yet.
    public var hasNewFrame: Bool {
        lock.withLock { fresh && !ended }
    }

    /// Whether the feed has ended (a problem, or ``stop(waiting:)``).
    public var hasEnded: Bool {
        lock.withLock { ended || stopped }
    }

    /// The news since the last call, in order.
    public func takeNews() -> [News] {
        lock.withLock {
            defer { news = [] }
            return news
        }
    }

    /// Copies the newest frame into `frame` (a BGRx camera frame of the placement's size) at its corner; false when
    /// there is none (or the feed has ended). The frame no longer counts as new.
    @discardableResult
    public func draw(into frame: UnsafeMutableRawBufferPointer) -> Bool {
        let sample: OpaquePointer? = lock.withLock {
            fresh = false
            guard !ended, let latest else { return nil }
            return edk_webcam_sample_ref(latest)
        }
        guard let sample else { return false }
        defer { edk_webcam_sample_unref(sample) }
        var map = GstMapInfo()
        var width: Int32 = 0, height: Int32 = 0
        guard edk_webcam_map(sample, &map, &width, &height) != 0 else { return false }
        defer { edk_webcam_unmap(sample, &map) }
        guard let data = map.data else { return false }
        placement.draw(UnsafeRawBufferPointer(start: data, count: Int(map.size)), width: Int(width),
                       height: Int(height), into: frame)
        return true
    }

    /// Stops the capture and releases it: at once when `waiting` (the end of the talk: call it after the camera's
    /// own stream has stopped; the device monitor is stopped too), else on a thread of its own (mid-talk: stopping
    /// joins GStreamer's threads, which the presenter's loop never waits on; the monitor is kept to the end).
    public func stop(waiting: Bool) {
        let (taken, monitor): (Running?, Monitor?) = lock.withLock {
            stopped = true
            defer {
                running = nil
                if waiting { self.monitor = nil }
            }
            return (running, waiting ? self.monitor : nil)
        }
        if waiting {
            if let taken { Self.release(taken) }
            if let monitor { edk_webcam_monitor_stop(monitor.pointer) }
        } else if let taken {
            let thread = Thread { Self.release(taken) }
            thread.name = "extdisplay webcam stop"
            thread.start()
        }
    }

    /// Ends the feed because it has sent nothing for `seconds` (the caller's pacing says when): a line says so.
    public func giveUp(silentFor seconds: Double) {
        let name = lock.withLock { label.isEmpty ? source.description : label }
        let heard = lock.withLock { announced }
        end(with: "the webcam \(name) has sent " + (heard ? "nothing for" : "no picture in") + " \(Int(seconds)) s "
            + "(a picture format extdisplay cannot read, such as MJPEG only, or a device another program holds?): "
            + "try another webcam, or free this one; the camera goes on with the slides alone")
    }

    // MARK: - Starting

    /// What the webcam's capture is built from: the source element and how to describe it.
    private struct Chosen {
        var factory: String
        var package: String
        var label: String
        var pipeWireNode: String?
        var device: String?
    }

    private var ownNodeName: String? {
        if case .pipeWire(let name, _) = excluding { return name }
        return nil
    }

    private var ownDevice: String? {
        if case .v4l2Loopback(let device) = excluding { return device }
        return nil
    }

    /// Runs on the start thread: finds the webcam, builds the capture and plays it; a problem ends the feed.
    private func open() {
        if let failure = GStreamerLibrary.startFailure { return fail("GStreamer did not start: \(failure)") }
        var monitor: UnsafeMutablePointer<GstDeviceMonitor>?
        let choice = choose(monitor: &monitor)
        if let monitor {
            let late: Bool = lock.withLock {
                guard !stopped else { return true }
                self.monitor = Monitor(pointer: monitor)
                return false
            }
            // Stopped meanwhile: whoever stopped it may be the end of the talk.
            if late { edk_webcam_monitor_stop(monitor) }
        }
        let chosen: Chosen
        switch choice {
        case .success(let found): chosen = found
        case .failure(let problem): return fail(problem.text)
        }
        lock.withLock { label = chosen.label }
        let retained = Unmanaged.passRetained(self)
        var running = Running(pipeline: nil, watched: nil, retained: retained)
        var callbacks = EdkWebcamCallbacks(sample: { context, sample in
            guard let context, let sample else { return }
            Unmanaged<WebcamFeed>.fromOpaque(context).takeUnretainedValue().received(sample)
        }, problem: { context, kind, text in
            guard let context else { return }
            let reason = text.map { String(cString: $0) } ?? "unknown error"
            Unmanaged<WebcamFeed>.fromOpaque(context).takeUnretainedValue().problem(kind: kind, reason: reason)
        }, context: retained.toOpaque(), watched: nil)
        switch build(chosen, callbacks: &callbacks) {
        case .failure(let problem):
            Self.release(running)
            return fail(problem.text)
        case .success(let pipeline):
            running.pipeline = pipeline
        }
        // pipewiresrc waits in this call until PipeWire links it: with a node whose formats cannot be converted it
        // never returns. So the capture is only kept (and released by ``stop(waiting:)``) once it has started; until
        // then this thread owns it, and the caller's pacing gives the silent webcam up.
        if let pipeline = running.pipeline, gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            // The error itself came through the bus (``problem(kind:reason:)``); this covers a silent refusal.
            problem(kind: Int32(EDK_WEBCAM_ERROR.rawValue), reason: "\(chosen.factory) did not start")
        }
        let keep: Bool = lock.withLock {
            guard !stopped else { return false }
            if let monitor = self.monitor?.pointer, let node = chosen.pipeWireNode {
                edk_webcam_monitor_watch(monitor, node, &callbacks)
                // A reference of its own: the end of the talk may stop the monitor while a release runs.
                gst_object_ref(UnsafeMutableRawPointer(monitor))
                running.watched = monitor
            }
            self.running = running
            return true
        }
        guard keep else { return Self.release(running) }
    }

    /// A problem found while starting: its line.
    private struct Problem: Error {
        var text: String
    }

    private static let findAdvice = "name your webcam: --webcam=NODE (a PipeWire node name or serial: `pw-cli ls Node`) "
        + "or --webcam=/dev/videoN (`v4l2-ctl --list-devices`)"

    /// The webcam to open: the source asked for, checked against what the device monitor sees.
    private func choose(monitor: inout UnsafeMutablePointer<GstDeviceMonitor>?) -> Result<Chosen, Problem> {
        switch source {
        case .v4l2(let device):
            return v4l2(device, asked: true)
        case .pipeWire(let wanted):
            if wanted == ownNodeName {
                return .failure(Problem(text: "--webcam=\(wanted) is the camera extdisplay publishes itself: "
                                        + Self.findAdvice))
            }
            monitor = edk_webcam_monitor_start()
            guard let monitor else {
                return .failure(Problem(text: "cannot list the PipeWire cameras to find \(wanted): is PipeWire running "
                                        + "(`pw-cli info 0`)? Start it, or give --webcam=/dev/videoN"))
            }
            let nodes = Self.nodes(monitor, excludingName: ownNodeName, excludingDevice: ownDevice)
            guard let node = nodes.first(where: { $0.name == wanted || $0.serial == wanted }) else {
                let here = nodes.isEmpty ? "none" : nodes.map(\.name).joined(separator: ", ")
                return .failure(Problem(text: "there is no PipeWire camera \(wanted) (cameras here: \(here)): "
                                        + Self.findAdvice))
            }
            return .success(Self.pipeWire(node))
        case .automatic:
            monitor = edk_webcam_monitor_start()
            if let monitor, let node = Self.nodes(monitor, excludingName: ownNodeName, excludingDevice: ownDevice).first {
                return .success(Self.pipeWire(node))
            }
            let fallback = "/dev/video0"
            guard fallback != ownDevice, FileManager.default.fileExists(atPath: fallback) else {
                return .failure(Problem(text: "no webcam found (no PipeWire camera besides extdisplay's own, no "
                                        + "\(fallback)): plug one in, or " + Self.findAdvice))
            }
            return v4l2(fallback, asked: false)
        }
    }

    private func v4l2(_ device: String, asked: Bool) -> Result<Chosen, Problem> {
        if device == ownDevice {
            return .failure(Problem(text: "--webcam=\(device) is the camera extdisplay publishes itself: "
                                    + Self.findAdvice))
        }
        guard FileManager.default.fileExists(atPath: device) else {
            return .failure(Problem(text: "the webcam \(device) does not exist: " + Self.findAdvice))
        }
        return .success(Chosen(factory: "v4l2src", package: "gstreamer1.0-plugins-good",
                               label: "V4L2 device \(device)", pipeWireNode: nil, device: device))
    }

    private static func pipeWire(_ node: (name: String, serial: String, description: String)) -> Chosen {
        let label = node.description == node.name ? "PipeWire node \(node.name)"
            : "PipeWire node \(node.name) (\(node.description))"
        return Chosen(factory: "pipewiresrc", package: "gstreamer1.0-pipewire", label: label, pipeWireNode: node.name,
                      device: nil)
    }

    /// The PipeWire video sources the monitor sees, without extdisplay's own camera.
    private static func nodes(_ monitor: UnsafeMutablePointer<GstDeviceMonitor>, excludingName: String?,
                              excludingDevice: String?) -> [(name: String, serial: String, description: String)] {
        guard let text = edk_webcam_monitor_list(monitor, excludingName, excludingDevice) else { return [] }
        defer { g_free(text) }
        return String(cString: text).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, !fields[0].isEmpty else { return nil }
            return (fields[0], fields[1], fields[2])
        }
    }

    /// The capture pipeline for `chosen`, not started, its bus and sink reporting to `callbacks`.
    private func build(_ chosen: Chosen, callbacks: inout EdkWebcamCallbacks) -> Result<UnsafeMutablePointer<GstElement>, Problem> {
        guard let pipeline = gst_pipeline_new("extdisplay-webcam") else {
            return .failure(Problem(text: "cannot create a GStreamer pipeline for the webcam"))
        }
        var elements: [UnsafeMutablePointer<GstElement>] = []
        for (factory, name) in [(chosen.factory, "edk-webcam-source"), ("videoscale", "edk-webcam-scale"),
                                ("videoconvert", "edk-webcam-convert"), ("capsfilter", "edk-webcam-format"),
                                ("appsink", "edk-webcam-sink")] {
            guard let element = gst_element_factory_make(factory, name) else {
                gst_object_unref(pipeline)
                let owner = factory == chosen.factory ? chosen.package : "gstreamer1.0-plugins-base"
                return .failure(Problem(text: "the GStreamer element \(factory) is missing: install \(owner) "
                                        + "(scripts/install-deps.sh installs it)"))
            }
            _ = gst_bin_add(edk_gst_bin(pipeline), element)
            elements.append(element)
        }
        let (source, scale, convert, filter, sink) = (elements[0], elements[1], elements[2], elements[3], elements[4])
        if let node = chosen.pipeWireNode { edk_webcam_configure_pipewire(source, node, "extdisplay-webcam") }
        if let device = chosen.device { edk_gst_set_string(source, "device", device) }
        // The width only: videoscale keeps the webcam's aspect when it fixes the height.
        let caps = gst_caps_from_string("video/x-raw,format=BGRx,width=\(placement.width),pixel-aspect-ratio=1/1")
        guard let caps else {
            gst_object_unref(pipeline)
            return .failure(Problem(text: "GStreamer refused the webcam's caps"))
        }
        edk_gst_camera_set_caps(filter, caps)
        gst_caps_unref(caps)
        edk_gst_set_uint(convert, "n-threads", 1)
        edk_webcam_configure_sink(sink, &callbacks)
        edk_webcam_watch_bus(pipeline, &callbacks)
        guard gst_element_link(source, scale) != 0, gst_element_link(scale, convert) != 0,
              gst_element_link(convert, filter) != 0, gst_element_link(filter, sink) != 0 else {
            Self.unwatch(pipeline)
            gst_object_unref(pipeline)
            return .failure(Problem(text: "cannot link \(chosen.factory), videoscale, videoconvert, capsfilter and appsink"))
        }
        return .success(pipeline)
    }

    // MARK: - GStreamer's threads

    /// A frame from the streaming thread: it becomes the newest; the loop is woken when none was waiting.
    private func received(_ sample: OpaquePointer) {
        var old: OpaquePointer?
        var first: String?
        let wasWaiting: Bool = lock.withLock {
            guard !ended, !stopped else {
                old = sample
                return true
            }
            old = latest
            latest = sample
            defer { fresh = true }
            if !announced {
                announced = true
                first = "webcam: \(label) in the camera's bottom-right corner (\(placement.width) pixels wide, "
                    + "live up to the camera's rate)"
                news.append(.started(first ?? ""))
            }
            return fresh
        }
        if let old { edk_webcam_sample_unref(old) }
        if !wasWaiting || first != nil { wake() }
    }

    /// A problem from a GStreamer thread (or the start thread): the feed ends, told once.
    private func problem(kind: Int32, reason: String) {
        let name = lock.withLock { label }
        let what: String
        switch UInt32(bitPattern: kind) {
        case EDK_WEBCAM_GONE.rawValue: what = "the webcam \(name) is gone (\(reason))"
        case EDK_WEBCAM_ENDED.rawValue: what = "the webcam \(name) stopped sending (\(reason))"
        default:
            what = reason.contains("not-negotiated") || reason.contains("not negotiated")
                ? "the webcam \(name) sends no picture format extdisplay can convert (\(reason)); try another "
                    + "webcam or format" : "the webcam \(name) stopped: \(reason)"
        }
        end(with: what + "; the camera goes on with the slides alone (start the talk again with --webcam to "
            + "show it again)")
    }

    /// A problem before the first frame: the feed ends.
    private func fail(_ problem: String) {
        end(with: problem + "; the camera goes on with the slides alone")
    }

    private func end(with line: String) {
        let told: Bool = lock.withLock {
            guard !ended, !stopped else { return false }
            ended = true
            news.append(.stopped(line))
            return true
        }
        if told { wake() }
    }

    // MARK: - Releasing

    private static func unwatch(_ pipeline: UnsafeMutablePointer<GstElement>) {
        if let bus = edk_webcam_pipeline_bus(pipeline) {
            edk_webcam_unwatch_bus(bus)
            gst_object_unref(bus)
        }
    }

    /// Stops the pipeline (joining its streaming thread: no callback runs afterwards) and the watch on the
    /// monitor's bus, then drops the callbacks' reference on the feed.
    private static func release(_ running: Running) {
        if let pipeline = running.pipeline {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            unwatch(pipeline)
            gst_object_unref(pipeline)
        }
        if let monitor = running.watched {
            if let bus = edk_webcam_monitor_bus(monitor) {
                edk_webcam_unwatch_bus(bus)
                gst_object_unref(bus)
            }
            gst_object_unref(UnsafeMutableRawPointer(monitor))
        }
        running.retained?.release()
    }
}
#endif
