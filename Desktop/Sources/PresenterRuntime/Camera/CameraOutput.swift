#if canImport(CSDL2)
public import DesktopVideo
public import ExternalDisplayKit
public import ExternalDisplayPresenter
import SDLWindows

/// The audience view as a camera (`present --share camera`): an ``ExternalDisplayPresenter/AudienceOutput`` that
/// draws each display list it is given on an off-screen canvas of the camera's size and hands the picture to a
/// ``DesktopVideo/CameraFrameSink`` (a ``DesktopVideo/CameraStream`` live) at once; between changes,
/// ``tick(at:)`` sends the last picture again at ``ExtDisplayCore/CameraPacing``'s steady rate. It keeps no clock
/// and no timer: ``CameraHost`` (a ``PresenterHost``) gives the runtime its ``nextDeadline`` and calls
/// ``tick(at:)`` in the runtime's passes, and the time of a new picture is read from the runtime's clock.
///
/// With a ``webcam`` (`--webcam`), every new picture has the webcam's newest frame in its bottom-right corner, and
/// a webcam frame waiting makes a new picture due at the pacing's live rate (the webcam's, capped to the camera's);
/// the webcam wakes the runtime when a frame arrives. When the webcam ends (a problem), its line goes to
/// ``onProblem``, the next picture is sent without it at once, and the camera goes on with the slides alone.
///
/// ```swift
/// let camera = CameraHost(clock: runtime.timeSource, say: say)
/// runtime.add(camera)
/// let output = try camera.makeOutput(size: PixelSize(width: 1280, height: 720), caches: runtime.caches)
/// ```
@MainActor
public final class CameraOutput: AudienceOutput {
    /// Where the frames go.
    public let sink: any CameraFrameSink
    /// The picture's size (the camera's).
    public var size: PixelSize { canvas.size }
    /// New pictures sent, and repeats of the last one.
    public private(set) var newFrames = 0, repeats = 0
    /// Gets the sink's failure once (the talk goes on without the camera), and the webcam's problem once.
    public var onProblem: (String) -> Void = { _ in }
    /// Gets the webcam's line when its first frame arrives.
    public var onNote: (String) -> Void = { _ in }
    /// The speaker's webcam drawn in the corner (nil: none, or it ended).
    public private(set) var webcam: WebcamFeed?
    /// The webcam as given, stopped for good after the camera's stream (see ``stop()``).
    private let givenWebcam: WebcamFeed?

    private let canvas: SDLPresenterCanvas
    private let clock: () -> Double
    private var pacing: CameraPacing
    private var reported = false

    /// An output drawing at `sink`'s size from the run's `caches`, reading new pictures' times from `clock`
    /// (the runtime's), repeating at `pacing`'s steady rate, with `webcam` (started by the caller) in the corner.
    /// Throws when the off-screen canvas cannot be made.
    public init(sink: any CameraFrameSink, caches: DrawingCaches, clock: @escaping () -> Double,
                pacing: CameraPacing = CameraPacing(), webcam: WebcamFeed? = nil) throws(PresenterCanvasError) {
        self.sink = sink
        self.clock = clock
        self.pacing = pacing
        self.webcam = webcam
        givenWebcam = webcam
        if webcam != nil { self.pacing.heardLive(at: clock()) }
        canvas = try SDLPresenterCanvas(size: PixelSize(width: sink.width, height: sink.height), caches: caches)
        // As a projector's window: a page not rendered yet is its placeholder now, and the page at the next pass.
        canvas.pageWaiting = .placeholder
    }

    /// The canvas's metrics (lists are laid out with the fonts they are drawn with).
    public var metrics: (any TextMetrics)? { canvas }

    /// Draws `list` and sends it now (a changed picture is never held back).
    public func present(_ list: DisplayList) {
        canvas.draw(list)
        send(.sendNew, at: clock())
    }

    /// Takes the webcam's news (and gives it up when the pacing finds it silent), then sends what the pacing says
    /// at `now` (the runtime's pass time): a new picture for a webcam frame waiting, the last picture again at the
    /// steady rate.
    public func tick(at now: Double) {
        if let webcam, pacing.liveIsSilent(at: now) { webcam.giveUp(silentFor: CameraPacing.liveSilenceLimit) }
        if webcam != nil { takeWebcamNews(at: now) }
        let decision = pacing.decision(pictureChanged: false, liveFrameWaiting: webcam?.hasNewFrame ?? false, at: now)
        if decision != .wait { send(decision, at: now) }
    }

    /// When the next frame is due, or the webcam counts as silent, on the runtime's clock (nil before the first
    /// picture or once the sink failed).
    public var nextDeadline: Double? {
        guard sink.failure == nil else { return nil }
        let frame = pacing.nextFrameDeadline(liveFrameWaiting: webcam?.hasNewFrame ?? false)
        guard webcam != nil, let silence = pacing.liveSilenceDeadline else { return frame }
        return min(frame ?? silence, silence)
    }

    /// Stops the sink (the node or device closes), then the webcam.
    public func stop() {
        webcam = nil
        sink.stop()
        givenWebcam?.stop(waiting: true)
    }

    /// The webcam's first-frame line and its problem; once it has ended, it is released (on a thread of its own)
    /// and a picture without it is sent at once.
    private func takeWebcamNews(at now: Double) {
        guard let webcam else { return }
        for news in webcam.takeNews() {
            switch news {
            case .started(let line): onNote(line)
            case .stopped(let line): onProblem(line)
            }
        }
        guard webcam.hasEnded else { return }
        webcam.stop(waiting: false)
        self.webcam = nil
        pacing.forgetLive()
        if pacing.lastSent != nil { send(.sendNew, at: now) }
    }

    /// The pixel at (x, y) of the last picture drawn (tests).
    public func pixel(x: Int, y: Int) -> RGBA { canvas.pixel(x: x, y: y) }

    private func send(_ decision: CameraPacing.Decision, at time: Double) {
        guard sink.failure == nil else { return report() }
        switch decision {
        case .sendNew:
            let canvas = self.canvas.canvas, webcam = self.webcam
            if webcam?.hasNewFrame == true { pacing.heardLive(at: time) }
            sink.publish(at: time) { buffer in
                guard canvas.readPixels(into: buffer, order: .bgrx) else { return false }
                webcam?.draw(into: buffer)
                return true
            }
            newFrames += 1
        case .repeatLast:
            sink.repeatLast(at: time)
            repeats += 1
        case .wait:
            return
        }
        pacing.sent(at: time)
        if sink.failure != nil { report() }
    }

    private func report() {
        guard !reported, let failure = sink.failure else { return }
        reported = true
        webcam?.stop(waiting: false)
        webcam = nil
        pacing.forgetLive()
        onProblem(failure + "; the talk goes on without the camera")
    }
}
#endif
