public import ExternalDisplayPresenter
import Foundation

/// Plays the video clips on slides: opens the clips the core keeps open (``ExternalDisplayPresenter/PresenterState/openClips``:
/// the audience slide's and, ahead, the next slide's), decodes the active clip's frame at the position its
/// timeline gives on the runtime's clock, and tells the controller the newest frame's number so that the
/// audience displays and the console's current slide draw it. It decides nothing: what plays, when and where is
/// the ``ExternalDisplayPresenter/PresenterCore``'s business.
///
/// Live, a thread of its own decodes (``SlideClipWorker``): the loop never waits for GStreamer. Headless, each
/// snapshot's frame is decoded exactly at the step's virtual time (``prepareFrame(at:)``), waiting at most the
/// decoder's timeout. Clips are silent.
@MainActor
public final class SlideClipHost: PresenterHost {
    /// Whether frames are decoded on a thread (live) or exactly when asked (headless snapshots).
    public enum Mode: Sendable {
        /// A decoding thread; frames follow the runtime's clock.
        case live
        /// Frames decoded on demand at the snapshot's virtual time.
        case exact
    }

    private let mode: Mode
    private let timeout: Double
    private weak var runtime: PresenterRuntime?
    private var worker: SlideClipWorker?
    private var decoders: SlideClipDecoders?
    private var pending: [SlideClipReport] = []
    private var frames: [URL: Int] = [:]
    private var generation = 0
    private var timeline: SlideClipPlayback?
    private var opened: [URL] = []
    /// Gets a line for each clip that cannot be played (headless runs print it; live talks hear the core's own
    /// line through ``PresenterRuntime/onSay``).
    public var onProblem: ((String) -> Void)?

    /// A host decoding in `mode`, each decoder wait bounded by `timeout` seconds.
    public init(mode: Mode, timeout: Double = 10) {
        self.mode = mode
        self.timeout = timeout
    }

    /// Opens the clips the talk starts with.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        switch mode {
        case .live:
            let worker = SlideClipWorker(timeout: timeout, frames: runtime.caches.clipFrames,
                                         clock: runtime.timeSource) { [weak runtime] in
                Task { @MainActor in runtime?.wake() }
            }
            worker.start()
            self.worker = worker
        case .exact:
            decoders = SlideClipDecoders(timeout: timeout, frames: runtime.caches.clipFrames)
        }
        update()
    }

    /// Open and close effects: the worker (or the exact decoders) follow the state's open clips.
    public func perform(_ effect: PresenterEffect) {
        switch effect {
        case .openClip, .closeClip, .stateChanged: update()
        default: break
        }
    }

    /// Reports from the decoders go to the core; the newest frame's number to the controller.
    public func pump() {
        guard let runtime else { return }
        if let worker {
            let taken = worker.take()
            pending += taken.reports
            frames.merge(taken.frames) { _, new in new }
        }
        let reports = pending
        pending = []
        for report in reports {
            if case .failed(_, let reason) = report { onProblem?(SlideClipPlayback.problemLine(reason)) }
            runtime.send(.clip(report))
        }
        runtime.controller.clipFrame = runtime.controller.state.clip.flatMap { frames[$0.clip.url] }
    }

    /// While a clip plays, the console's position line changes every second.
    public func nextDeadline(after now: Double) -> Double? {
        guard let clip = runtime?.controller.state.clip, clip.isPlaying, clip.problem == nil, !clip.hasEnded(at: now)
        else { return nil }
        let position = clip.position(at: now)
        return now + max(0.01, position.rounded(.down) + 1 - position)
    }

    /// Headless: decodes the audience clip's frame at `now` exactly (waiting at most the timeout), so that the
    /// snapshot drawn next shows it.
    public func prepareFrame(at now: Double) {
        guard let runtime, let decoders else { return }
        update()
        let state = runtime.controller.state
        if let clip = state.clip, clip.problem == nil, !state.isBlanked, opened.contains(clip.clip.url) {
            switch decoders.exactFrame(of: clip.clip.url, at: clip.position(at: now)) {
            case .success(let number?): frames[clip.clip.url] = number
            case .success(nil): break
            case .failure(let error):
                decoders.fail(clip.clip.url)
                pending.append(.failed(clip.clip.url, reason: error.description))
            }
        }
        pump()
    }

    /// Stops the decoding thread.
    public func stop() {
        worker?.stop()
        worker = nil
    }

    /// Hands the state's open clips and the active clip's timeline to the decoders.
    private func update() {
        guard let state = runtime?.controller.state else { return }
        let open = state.openClips.map(\.url)
        var showing = state.clip
        if let current = showing, let previous = timeline, current.clip == previous.clip,
           current.playback.timeline == previous.playback.timeline {
            showing = current
        } else if showing != nil || timeline != nil {
            generation += 1
        }
        timeline = showing
        for url in frames.keys where !open.contains(url) {
            frames[url] = nil
            runtime?.caches.clipFrames.remove(url)
        }
        if let worker {
            worker.want(open: open, showing: showing, generation: generation, blanked: state.isBlanked)
        } else if let decoders, open != opened {
            let (reports, posters) = decoders.keepOpen(open)
            pending += reports
            frames.merge(posters) { _, new in new }
        }
        opened = open
    }
}
