import DesktopVideo
import ExternalDisplayPresenter
import Foundation

/// The thread that decodes slide clips while a live talk runs, so that opening a file or a decoder that stalls
/// never holds up the console or the room: the main actor posts what to keep open and which clip to show on
/// which timeline (``want(open:showing:generation:blanked:)``); the worker opens, streams and stores frames, and
/// hands back reports and the newest frame's number (``take()``), waking the loop through `wake`.
final class SlideClipWorker: @unchecked Sendable {
    /// What the main actor asked for.
    private struct Wanted {
        var open: [URL] = []
        var showing: SlideClipPlayback?
        var generation = 0
        var blanked = false
    }

    private let condition = NSCondition()
    private var wanted = Wanted()
    private var changed = false
    private var stopped = false
    private var reports: [SlideClipReport] = []
    private var frames: [URL: Int] = [:]
    private let clock: @Sendable () -> Double
    private let wake: @Sendable () -> Void
    private let timeout: Double
    private let clipFrames: SlideClipFrames
    private var thread: Thread?

    /// A worker on the runtime's `clock`, waking the loop with `wake` when it has something new.
    init(timeout: Double, frames: SlideClipFrames, clock: @escaping @Sendable () -> Double,
         wake: @escaping @Sendable () -> Void) {
        self.timeout = timeout
        self.clipFrames = frames
        self.clock = clock
        self.wake = wake
    }

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "extdisplay slide clips"
        thread.start()
        self.thread = thread
    }

    /// Asks the thread to end (it closes its decoders); does not wait for it.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// Keep `open` open, show `showing` (nil: nothing) on its timeline; `generation` changes whenever that
    /// timeline does (play, pause, seek, another clip). Nothing is decoded while `blanked`.
    func want(open: [URL], showing: SlideClipPlayback?, generation: Int, blanked: Bool) {
        condition.lock()
        wanted = Wanted(open: open, showing: showing, generation: generation, blanked: blanked)
        changed = true
        condition.signal()
        condition.unlock()
    }

    /// The reports and the newest frame number of each clip since the last call.
    func take() -> (reports: [SlideClipReport], frames: [URL: Int]) {
        condition.lock()
        defer {
            reports = []
            frames = [:]
            condition.unlock()
        }
        return (reports, frames)
    }

    private func run() {
        let decoders = SlideClipDecoders(timeout: timeout, frames: clipFrames)
        var opened: [URL] = []
        while true {
            condition.lock()
            // A playing clip needs the next frame soon; otherwise sleep until asked.
            let playing = wanted.showing.map {
                $0.isPlaying && $0.problem == nil && !wanted.blanked && !$0.hasEnded(at: clock())
            } ?? false
            while !stopped && !changed && !playing { condition.wait() }
            if !stopped && !changed && playing { _ = condition.wait(until: Date().addingTimeInterval(1.0 / 240)) }
            if stopped {
                condition.unlock()
                return
            }
            let now = wanted
            changed = false
            condition.unlock()

            var news: [SlideClipReport] = []
            var posters: [URL: Int] = [:]
            if now.open != opened {
                (news, posters) = decoders.keepOpen(now.open)
                opened = now.open
            }
            var frame: (URL, Int)?
            if let clip = now.showing, clip.problem == nil, !now.blanked, now.open.contains(clip.clip.url) {
                let url = clip.clip.url
                let position = clip.position(at: clock())
                let result = clip.isPlaying && !clip.hasEnded(at: clock())
                    ? decoders.streamedFrame(of: url, at: position, generation: now.generation)
                    : decoders.exactFrame(of: url, at: position)
                switch result {
                case .success(let number?): frame = (url, number)
                case .success(nil): break
                case .failure(let error):
                    decoders.fail(url)
                    news.append(.failed(url, reason: error.description))
                }
            }
            guard !news.isEmpty || frame != nil || !posters.isEmpty else { continue }
            condition.lock()
            reports += news
            frames.merge(posters) { _, poster in poster }
            if let frame { frames[frame.0] = frame.1 }
            condition.unlock()
            wake()
        }
    }
}
