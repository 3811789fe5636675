#if canImport(CGStreamer)
import CGStreamer
import Foundation

/// Where a camera's frames go: ``CameraStream`` (GStreamer to PipeWire or a v4l2loopback device), or a recorder
/// in tests. Frames are `width * height * 4` bytes of BGRx (blue, green, red, one unused byte; rows unpadded),
/// stamped with the caller's clock in seconds. Neither call waits for the consumer.
public protocol CameraFrameSink: AnyObject {
    /// The picture size frames have.
    var width: Int { get }
    /// The picture size frames have.
    var height: Int { get }
    /// Publishes a new picture: `fill` writes its `width * height * 4` bytes of BGRx into the buffer it is given
    /// and returns false when it has no picture (nothing is then sent); `time` is when it was drawn.
    func publish(at time: Double, fill: (UnsafeMutableRawBufferPointer) -> Bool)
    /// Sends the last picture again, stamped `time` (nothing before the first picture).
    func repeatLast(at time: Double)
    /// Why the stream stopped publishing after it started (the sink reported an error), if it did.
    var failure: String? { get }
    /// Stops publishing and releases the stream (the node or device closes).
    func stop()
}

/// The audience view published as a camera: frames pushed into GStreamer's `appsrc ! videoconvert ! capsfilter !
/// identity drop-allocation=true` and on to `pipewiresink` (a PipeWire `Video/Source` node, ``CameraDestination/pipeWire(nodeName:description:)``)
/// or `v4l2sink` (``CameraDestination/v4l2Loopback(device:)``).
///
/// - Format: BGRx in (the off-screen canvas's own byte order: one copy), I420 out to PipeWire (what WebRTC's
///   PipeWire camera capture takes: I420, NV12, YUY2, UYVY, RGB — not BGRx), YUY2 out to v4l2loopback (every V4L2
///   webcam reader takes it); ``framesPerSecond`` (30 unless asked) advertised in the caps, while frames are only
///   sent when the caller publishes or repeats one.
/// - Never blocks its caller: the `appsrc` queue holds at most two frames and drops the oldest when full; the
///   conversion and the sink run on GStreamer's streaming thread. A repeat shares the last frame's memory (no copy,
///   no conversion on the caller's thread). The sink does not synchronise on a clock: a frame goes out when pushed.
/// - Timestamps come from the caller (the runtime's clock): the first frame is time zero.
/// - Errors: starting fails with a ``CameraStreamError`` that says what to do (no PipeWire daemon, no such
///   device, a missing plugin); a later error of the sink is read off the bus, without waiting, at the next
///   publish or repeat, and stops the publishing (``failure``).
///
/// ```swift
/// let camera = try CameraStream(destination: .defaultPipeWire, width: 1280, height: 720)
/// camera.publish(at: runtime.now) { buffer in canvas.readPixels(into: buffer, order: .bgrx) }
/// camera.repeatLast(at: runtime.now + 0.2)
/// ```
public final class CameraStream: CameraFrameSink {
    /// Where the frames go.
    public let destination: CameraDestination
    /// The picture's width in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// The frame rate the stream advertises.
    public let framesPerSecond: Int
    /// The frame rate advertised unless asked: 30, what call applications expect of a webcam.
    public static let defaultFramesPerSecond = 30
    /// The largest picture side published.
    public static let maximumSide = 7680
    /// Frames handed to GStreamer so far (new pictures and repeats).
    public private(set) var framesPushed = 0
    /// Why publishing stopped, if it did.
    public private(set) var failure: String?

    private var pipeline: UnsafeMutablePointer<GstElement>?
    private let source: UnsafeMutablePointer<GstElement>
    private var last: UnsafeMutablePointer<GstBuffer>?
    private var origin: Double?

    /// The raw format the consumer sees for `destination`.
    public static func outputFormat(for destination: CameraDestination) -> String {
        switch destination {
        case .pipeWire: "I420"
        case .v4l2Loopback: "YUY2"
        }
    }

    /// The elements before the sink, in order: GStreamer's factory and the name given in the pipeline.
    static let elements: [(factory: String, name: String)] = [
        ("appsrc", "edk-camera-source"), ("videoconvert", "edk-camera-convert"), ("capsfilter", "edk-camera-format"),
        ("identity", "edk-camera-own-buffers"),
    ]

    /// The GStreamer element that writes to `destination`, and the Debian package that brings it.
    static func sink(for destination: CameraDestination) -> (factory: String, package: String) {
        switch destination {
        case .pipeWire: ("pipewiresink", "gstreamer1.0-pipewire")
        case .v4l2Loopback: ("v4l2sink", "gstreamer1.0-plugins-good")
        }
    }

    /// What would stop a camera on `destination` before it starts — GStreamer that does not start, or an element
    /// the camera needs that is not installed (the message names the package) — or nil when nothing is missing.
    /// It checks the installed elements only: whether the destination accepts the stream shows when it starts.
    public static func missingPiece(for destination: CameraDestination) -> CameraStreamError? {
        if let failure = GStreamerLibrary.startFailure { return .unavailable("GStreamer did not start: \(failure)") }
        let (sinkFactory, package) = sink(for: destination)
        for factory in elements.map(\.factory) + [sinkFactory] {
            guard let found = gst_element_factory_find(factory) else {
                let owner = factory == sinkFactory ? package : "gstreamer1.0-plugins-base"
                return .unavailable("the GStreamer element \(factory) is missing: install \(owner)")
            }
            gst_object_unref(UnsafeMutableRawPointer(found))
        }
        return nil
    }

    /// Starts publishing `width`×`height` frames to `destination`, advertising `framesPerSecond` (1…60); throws
    /// when GStreamer, an element or the destination is missing or refuses (the message says what to do). Nothing
    /// is sent before ``publish(at:fill:)``.
    public init(destination: CameraDestination, width: Int, height: Int,
                framesPerSecond: Int = CameraStream.defaultFramesPerSecond) throws(CameraStreamError) {
        guard (16...Self.maximumSide).contains(width), (16...Self.maximumSide).contains(height),
              width % 2 == 0, height % 2 == 0 else {
            throw .badSize(width: width, height: height)
        }
        let advertised = min(60, max(1, framesPerSecond))
        if let failure = GStreamerLibrary.startFailure { throw .unavailable("GStreamer did not start: \(failure)") }
        let (sinkFactory, package) = Self.sink(for: destination)
        guard let pipeline = gst_pipeline_new("extdisplay-camera") else { throw .unavailable("cannot create a pipeline") }
        var elements: [UnsafeMutablePointer<GstElement>] = []
        // identity between the conversion and the sink answers the allocation query itself: with PipeWire 0.3.65,
        // videoconvert writing a converted frame into pipewiresink's own buffer pool failed ("code not implemented")
        // and the sink then crashed on an empty buffer as soon as a consumer connected; with the query dropped
        // videoconvert allocates its own buffers and pipewiresink copies each into the node's.
        for (factory, name) in Self.elements + [(sinkFactory, "edk-camera-sink")] {
            guard let element = gst_element_factory_make(factory, name) else {
                gst_object_unref(pipeline)
                let owner = factory == sinkFactory ? package : "gstreamer1.0-plugins-base"
                throw .unavailable("the GStreamer element \(factory) is missing: install \(owner) "
                                   + "(scripts/install-deps.sh installs it)")
            }
            _ = gst_bin_add(edk_gst_bin(pipeline), element)
            elements.append(element)
        }
        let (source, convert, filter, ownBuffers, sink) = (elements[0], elements[1], elements[2], elements[3], elements[4])
        edk_gst_set_bool(ownBuffers, "drop-allocation", 1)
        let rate = "framerate=\(advertised)/1"
        let input = gst_caps_from_string("video/x-raw,format=BGRx,width=\(width),height=\(height),\(rate)")
        let output = gst_caps_from_string("video/x-raw,format=\(Self.outputFormat(for: destination)),"
                                          + "width=\(width),height=\(height),\(rate)")
        defer {
            if let input { gst_caps_unref(input) }
            if let output { gst_caps_unref(output) }
        }
        guard let input, let output else {
            gst_object_unref(pipeline)
            throw .unavailable("GStreamer refused the camera's caps")
        }
        edk_gst_camera_configure_source(source, input, 2)
        edk_gst_camera_set_caps(filter, output)
        // One conversion thread: at the steady rate a 720p frame takes a few milliseconds.
        edk_gst_set_uint(convert, "n-threads", 1)
        switch destination {
        case .pipeWire(let nodeName, let description):
            edk_gst_camera_configure_pipewire(sink, nodeName, description)
        case .v4l2Loopback(let device):
            edk_gst_set_string(sink, "device", device)
            edk_gst_set_bool(sink, "sync", 0)
        }
        guard gst_element_link(source, convert) != 0, gst_element_link(convert, filter) != 0,
              gst_element_link(filter, ownBuffers) != 0, gst_element_link(ownBuffers, sink) != 0 else {
            gst_object_unref(pipeline)
            throw .unavailable("cannot link appsrc, videoconvert, capsfilter, identity and \(sinkFactory)")
        }
        self.destination = destination
        self.framesPerSecond = advertised
        self.width = width
        self.height = height
        self.pipeline = pipeline
        self.source = source
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            let reason = Self.takeError(pipeline) ?? "\(sinkFactory) did not start"
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
            self.pipeline = nil
            throw .refused(destination: destination.description, reason: reason, advice: Self.advice(for: destination))
        }
    }

    deinit { stop() }

    /// What to do when `destination` refuses to start.
    static func advice(for destination: CameraDestination) -> String {
        switch destination {
        case .pipeWire:
            "is PipeWire running in this session (`pw-cli info 0`)? Start it (`systemctl --user start pipewire "
                + "wireplumber`), or load v4l2loopback (`sudo modprobe v4l2loopback exclusive_caps=1 "
                + "card_label=extdisplay`); the talk goes on without the camera"
        case .v4l2Loopback(let device):
            "is \(device) a v4l2loopback device you may write to (`v4l2-ctl -d \(device) --info`)? Load the module "
                + "(`sudo modprobe v4l2loopback exclusive_caps=1 card_label=extdisplay`), or set "
                + "\(CameraDestination.environmentKey)=pipewire; the talk goes on without the camera"
        }
    }

    /// Publishes a new picture stamped `time` (see ``CameraFrameSink/publish(at:fill:)``).
    public func publish(at time: Double, fill: (UnsafeMutableRawBufferPointer) -> Bool) {
        guard checkBus() else { return }
        var map = GstMapInfo()
        let size = width * height * 4
        guard let frame = edk_gst_camera_new_frame(gsize(size), &map) else { return }
        let filled = fill(UnsafeMutableRawBufferPointer(start: map.data, count: min(size, Int(map.size))))
        edk_gst_camera_unmap(frame, &map)
        guard filled else {
            edk_gst_camera_release(frame)
            return
        }
        if let last { edk_gst_camera_release(last) }
        last = frame
        push(frame, at: time)
    }

    /// Sends the last picture again stamped `time`, sharing its memory.
    public func repeatLast(at time: Double) {
        guard checkBus(), let last else { return }
        push(last, at: time)
    }

    /// Stops the pipeline and releases it (the PipeWire node disappears, the device is closed); once.
    public func stop() {
        if let last { edk_gst_camera_release(last) }
        last = nil
        guard let pipeline else { return }
        self.pipeline = nil
        gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_object_unref(pipeline)
    }

    private func push(_ frame: UnsafeMutablePointer<GstBuffer>, at time: Double) {
        let origin = self.origin ?? time
        self.origin = origin
        let seconds = max(0, time - origin)
        let flow = edk_gst_camera_push(source, frame, guint64(seconds * 1e9))
        if flow == GST_FLOW_OK { framesPushed += 1 } else if flow != GST_FLOW_FLUSHING { _ = checkBus() }
    }

    /// False (and ``failure`` set) once the sink has reported an error; never waits. The pipeline is left as it
    /// is until ``stop()`` (stopping it joins GStreamer's streaming thread, which the loop never waits on).
    private func checkBus() -> Bool {
        guard failure == nil, let pipeline else { return false }
        guard let error = Self.takeError(pipeline) else { return true }
        failure = "the camera on the \(destination.description) stopped: \(error)"
        return false
    }

    private static func takeError(_ pipeline: UnsafeMutablePointer<GstElement>) -> String? {
        guard let text = edk_gst_camera_pop_error(pipeline) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
#endif
