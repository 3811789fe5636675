#if canImport(CSDL2)
public import DesktopVideo
public import ExtDisplayCore
public import ExternalDisplayPresenter

/// The runtime's side of the camera (`present --share camera`): it makes the ``CameraOutput``s the share
/// displays draw on (``makeOutput(for:caches:destination:)``, what the launch's share platform calls for a camera
/// target), gives the runtime the next moment a camera must repeat its picture (``nextDeadline(after:)``) and
/// repeats it in that pass (``afterPass(at:)``) — the steady feed call applications expect comes from the one loop,
/// with no timer or thread of its own. At the end of the talk it closes every camera.
///
/// With a ``webcam`` source (`--webcam`), each camera gets a ``DesktopVideo/WebcamFeed`` in its corner: the feed
/// wakes the runtime when a frame arrives, and the camera's ``ExtDisplayCore/CameraPacing`` decides when the next
/// picture goes out.
///
/// ```swift
/// let camera = CameraHost(clock: runtime.timeSource, say: say)
/// runtime.add(camera)
/// let output = try camera.makeOutput(for: ShareTarget(kind: .camera), caches: runtime.caches)
/// ```
@MainActor
public final class CameraHost: PresenterHost {
    /// Starts a camera's stream: a ``DesktopVideo/CameraStream`` live, a recorder in tests.
    public typealias SinkMaker = (CameraDestination, ShareTarget) throws(CameraStreamError) -> any CameraFrameSink

    private let clock: @Sendable () -> Double
    private let say: (String) -> Void
    private let makeSink: SinkMaker
    private var outputs: [WeakCameraOutput] = []
    private weak var runtime: PresenterRuntime?
    /// The webcam put in each camera's corner (nil: none, the default).
    public let webcam: WebcamSource?

    /// The stream a live camera publishes on: GStreamer to `destination`, at the target's size and rate.
    public static let liveSink: SinkMaker = { destination, target throws(CameraStreamError) in
        try CameraStream(destination: destination, width: target.size.width, height: target.size.height,
                         framesPerSecond: target.frameRate)
    }

    /// A host whose cameras read the runtime's `clock` (``PresenterRuntime/timeSource``) and tell the speaker
    /// what they publish and what went wrong through `say`; `makeSink` starts a camera's stream; `webcam` is put
    /// in each camera's corner.
    public init(clock: @escaping @Sendable () -> Double, say: @escaping (String) -> Void,
                makeSink: @escaping SinkMaker = CameraHost.liveSink, webcam: WebcamSource? = nil) {
        self.clock = clock
        self.say = say
        self.makeSink = makeSink
        self.webcam = webcam
    }

    /// The cameras alive now.
    public var cameras: [CameraOutput] { outputs.compactMap(\.output) }

    /// Starts `target`'s camera publishing to `destination` (nil:
    /// ``DesktopVideo/CameraDestination/choose(environment:loopbacks:)``) and says where; throws (a message that
    /// says what to do) when it cannot be published — the caller goes on without it.
    public func makeOutput(for target: ShareTarget, caches: DrawingCaches,
                           destination: CameraDestination? = nil) throws -> CameraOutput {
        let destination = try destination ?? CameraDestination.choose()
        let sink = try makeSink(destination, target)
        let pacing = CameraPacing(liveFramesPerSecond: Double(target.frameRate))
        let feed = webcam.map { source in
            WebcamFeed(source: source, frameWidth: sink.width, frameHeight: sink.height, excluding: destination) {
                [weak self] in Task { @MainActor in self?.runtime?.wake() }
            }
        }
        let output: CameraOutput
        do { output = try CameraOutput(sink: sink, caches: caches, clock: clock, pacing: pacing, webcam: feed) } catch {
            sink.stop()
            throw error
        }
        let say = self.say
        output.onProblem = { say("extdisplay present: \($0)") }
        output.onNote = say
        outputs.removeAll { $0.output == nil }
        outputs.append(WeakCameraOutput(output))
        let format = CameraStream.outputFormat(for: destination)
        say("camera: the audience view is published as the \(destination) (\(format) \(sink.width)×\(sink.height), "
            + "\(target.frameRate) fps advertised; a new picture at once, the same picture again "
            + "\(Int(CameraPacing.defaultRepeatsPerSecond)) times a second while it does not change)")
        if let feed {
            say("webcam: looking for \(feed.source) (shown in the camera's corner from its first picture)")
            feed.start()
        }
        return output
    }

    /// Keeps the runtime to wake when a webcam frame arrives (cameras are made by the share displays' platform).
    public func start(in runtime: PresenterRuntime) { self.runtime = runtime }

    /// Repeats each camera's picture that is due (the audience was drawn first in this pass).
    public func afterPass(at now: Double) {
        for camera in cameras { camera.tick(at: now) }
    }

    /// The earliest repeat due.
    public func nextDeadline(after now: Double) -> Double? {
        cameras.compactMap(\.nextDeadline).min()
    }

    /// Closes every camera.
    public func stop() {
        for camera in cameras { camera.stop() }
    }
}

/// A camera the host does not keep alive (its share display's platform owns it).
@MainActor
private struct WeakCameraOutput {
    weak var output: CameraOutput?
    init(_ output: CameraOutput) { self.output = output }
}

extension CameraOutput: ShareOutputLifecycle {
    /// Nothing to show: a camera publishes from its first picture.
    public func shareShow() {}
    /// Stops the stream (the node or device closes).
    public func shareClose() { stop() }
}
#endif
