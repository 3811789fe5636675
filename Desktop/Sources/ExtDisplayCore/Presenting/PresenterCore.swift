public import ExternalDisplayKit
public import ExternalDisplayMedia
public import Foundation

/// The presenter's decisions as a pure function: its state and one input in, the new state and the effects the
/// runtime must carry out out. Every host — the X11 and Wayland desktops, the headless snapshots, the terminal
/// console with browsers — feeds the same core, so a key, a remote command or a display plugged in means the
/// same thing everywhere.
///
/// ```swift
/// var core = PresenterCore(state: PresenterState(slideCount: 3, startedAt: 0), onlyDisplay: "HDMI-1")
/// core.handle(.attached(projector), at: 1)          // [.stateChanged]
/// core.handle(.attached(secondMonitor), at: 2)      // [.handBack("DP-1")]: not the one asked for
/// core.handle(.press(KeyPress(.right)), at: 3)      // [.stateChanged]
/// core.handle(.press(KeyPress(.character("q"))), at: 4)  // [.stateChanged, .say("press q again …")]
/// ```
public struct PresenterCore: Hashable, Sendable {
    /// The talk's state.
    public private(set) var state: PresenterState
    /// `--display NAME`: the only cable display the talk uses (others are handed back to mirroring); nil for
    /// every one. Browser pages are always used.
    public let onlyDisplay: DisplayID?
    /// Each slide's video clips (``Deck/clipTable``): what clip playback is decided from.
    public private(set) var clipTable: [[SlideClip]]

    /// A core over `state`, with each slide's clips in `clips` (none by default). The first slide's clip is
    /// decided at once (autoplaying from the timer's start); the platform opens ``PresenterState/openClips`` when
    /// it starts.
    public init(state: PresenterState, onlyDisplay: DisplayID? = nil, clips: [[SlideClip]] = []) {
        self.state = state
        self.onlyDisplay = onlyDisplay
        self.clipTable = clips
        _ = syncClips(at: state.timer.runningSince ?? 0)
    }

    /// The clips of a deck read again (before its ``PresenterInput/deckReloaded(slideCount:numbering:slideIndex:)``).
    public mutating func replaceClips(_ clips: [[SlideClip]]) {
        clipTable = clips
    }

    /// Whether the talk uses a display of `kind` named `id`: browser pages and the `--share` displays (asked for by
    /// name on the command line) always, cables only the one `--display` names when it names one.
    public func uses(_ id: DisplayID, kind: AudienceDisplay.Kind) -> Bool {
        kind == .network || onlyDisplay == nil || onlyDisplay == id || ShareTarget.isShareDisplay(id)
    }

    /// Handles one input at `now` (seconds on the runtime's clock) and returns what to do, in order.
    @discardableResult
    public mutating func handle(_ input: PresenterInput, at now: Double) -> [PresenterEffect] {
        let before = state
        var effects: [PresenterEffect] = []
        switch input {
        case .press(let keyPress):
            switch PresenterKeyTable.command(for: keyPress) {
            case .key(let key)?: effects += press(key, at: now)
            case .statistics?: effects.append(.statistics)
            case .cycleShareCode?: effects.append(.cycleShareCode)
            case nil: break
            }
        case .key(let key):
            effects += press(key, at: now)
        case .remote(let command):
            state.reduce(.remote(command), at: now)
        case .attached(let display):
            if uses(display.id, kind: display.kind) {
                state.reduce(.attached(display), at: now)
            } else {
                effects.append(.handBack(display.id))
            }
        case .layoutChanged(let display):
            // A display that is not ours keeps being the system's; ours is laid out again.
            if uses(display.id, kind: display.kind) { state.reduce(.attached(display), at: now) }
        case .detached(let id):
            state.reduce(.detached(id), at: now)
        case .pointer(let point):
            state.reduce(.pointer(point), at: now)
        case .startPacing(let budgets):
            state.startPacing(budgets: budgets, at: now)
        case .inkLoaded(let strokes):
            for (page, pageStrokes) in strokes where (0..<state.slideCount).contains(page) {
                state.ink.load(pageStrokes, onPage: page)
            }
        case .ink(let input, let aspect):
            // While the zoom rectangle is armed (R), the drag chooses the rectangle and draws nothing.
            let line = state.zoomSelection != nil ? state.selectZoom(input) : state.applyInk(input, aspect: aspect)
            if let line { effects.append(.say(line)) }
        case .zoom(let rectangle):
            if let line = state.zoom(to: rectangle) { effects.append(.say(line)) }
        case .plan(let duration):
            state.reduce(.plan(duration: duration), at: now)
        case .limits(let limits):
            state.setLimits(limits)
        case .stop:
            state.reduce(.key(.quit), at: now)
        case .deckReloaded(let slideCount, let numbering, let slideIndex):
            state.reload(slideCount: slideCount, numbering: numbering, slideIndex: slideIndex)
            effects.append(.say("the deck was read again: \(slideCount) slides, showing slide \(state.slideIndex + 1)"))
        case .clip(let report):
            effects += clipReport(report, at: now)
        case .playback:
            // A film's events: the playing mode's (``ApplicationCore``); nothing while presenting.
            break
        }
        effects += syncClips(at: now)
        state.followPacing(at: now)
        state.followEnd()
        if state != before { effects.insert(.stateChanged, at: 0) }
        if state.wantsQuit, !before.wantsQuit { effects.append(.quit) }
        return effects
    }

    /// Applies a state action that no input source sends (``PresenterAction/goTo(_:)`` from tests).
    package mutating func reduceDirectly(_ action: PresenterAction, at now: Double) {
        state.reduce(action, at: now)
    }

    private mutating func press(_ key: PresenterKey, at now: Double) -> [PresenterEffect] {
        if key.isClipKey { return pressClipKey(key, at: now) }
        if key == .saveInk { return [.saveInk] }
        state.reduce(.key(key), at: now)
        if key == .quitRequest, state.quitArmedAt != nil, !state.wantsQuit {
            return [.say(QuitConfirmation.prompt)]
        }
        return []
    }
}

/// Everything that reaches the presenter's core, from any source.
public enum PresenterInput: Hashable, Sendable {
    /// A key on a keyboard (console window, terminal, clicker); ``PresenterKeyTable`` says what it means.
    case press(KeyPress)
    /// A presenter key by name (`--keys`, tests).
    case key(PresenterKey)
    /// A remote control's command (MPRIS, the browser remote).
    case remote(PresenterRemoteCommand)
    /// A display got a window of the talk (plugged in, or a browser page connected).
    case attached(AudienceDisplay)
    /// A display's mode or layout changed.
    case layoutChanged(AudienceDisplay)
    /// A display lost its window (unplugged, page closed).
    case detached(DisplayID)
    /// The speaker's mouse over the console's current slide (nil: it left).
    case pointer(SlidePoint?)
    /// Pen input (mouse drag, touch, `ink:` steps) on the current slide of aspect `aspect` (width / height).
    case ink(InkInput, aspect: Double)
    /// Zoom the audience's slide to cover a rectangle of it (a drag on the console, a pinch on the remote), or to
    /// the whole slide (nil). A rectangle not finite, off the slide or under ``ZoomRegion/minimumRectangle`` is
    /// refused with a line for the speaker, the zoom kept.
    case zoom(SlideRectangle?)
    /// Ink read back from the annotated copy of the deck's PDF (strokes by page), drawn as the talk starts.
    case inkLoaded([Int: [InkStroke]])
    /// The talk's planned length in seconds.
    case plan(duration: Double)
    /// The talk's end time (the countdown runs to it, whatever the pauses) and its last-minutes warning
    /// (``TalkLimits``, from ``TalkPlan/resolved(wallStart:at:calendar:)``).
    case limits(TalkLimits)
    /// Time the talk per logical slide and step from now on, with these budgets (per logical slide) for the pace
    /// cue (``PresenterState/startPacing(budgets:at:)``).
    case startPacing(SlideBudgets?)
    /// End the talk now: the console window was closed, or SIGINT/SIGTERM arrived.
    case stop
    /// The deck file was exported again and read completely: its slides and numbering, and the slide to show.
    case deckReloaded(slideCount: Int, numbering: SlideNumbering, slideIndex: Int)
    /// The platform opened a slide's clip, or could not.
    case clip(SlideClipReport)
    /// Events for the film of the playing mode (outputs plugged and unplugged, the end of the film, a remote's
    /// request), decided by its `VideoPlayback`; nothing while presenting.
    case playback([VideoPlaybackEvent])
}

/// What the runtime must do after an input, in order.
public enum PresenterEffect: Hashable, Sendable {
    /// The state changed: redraw what changed, print the status line, publish to remotes.
    case stateChanged
    /// The display is not the talk's (`--display` named another): hand it back to the system's mirroring.
    case handBack(DisplayID)
    /// Tell the speaker something (one line).
    case say(String)
    /// Print a statistics line.
    case statistics
    /// Show the next QR code on the console of a served talk.
    case cycleShareCode
    /// Save the ink into the annotated copy of the PDF now (Ctrl-S); the runtime saves at the end too.
    case saveInk
    /// End the loop: stop every host (which restores modes), then return.
    case quit
    /// Open a slide's clip and show its first frame (the audience slide's, or the next slide's ahead of time).
    case openClip(SlideClip)
    /// Stop and close a clip (its slide was left, or the deck changed).
    case closeClip(SlideClip)
    /// What the film's `VideoPlayback` asks of the player (the playing mode): place the film, follow a new
    /// timeline, set the volume, report a problem.
    case playback(VideoPlaybackEffect)
}

// MARK: Clips on slides (here: they change the core's private state)

extension PresenterCore {
    /// Seconds the clip keys J and L move the playing clip back and forward.
    public static let clipSeekStep = 5.0

    /// After any input: the audience slide's first clip is the active one (a new slide's clip is loaded into a
    /// playback of its own at its start, playing when it autoplays; the old one's playback ends with its slide),
    /// and the clips to keep open are the active one and the next slide's first clip (opened ahead, so that it
    /// starts at once). Returns the open and close effects for the difference.
    mutating func syncClips(at now: Double) -> [PresenterEffect] {
        let slide = state.audienceSlideIndex
        let here = clipTable.indices.contains(slide) ? clipTable[slide].first : nil
        if let here {
            if state.clip?.slideIndex != slide || state.clip?.clip != here {
                state.clip = SlideClipPlayback(slideIndex: slide, clip: here, isPlaying: here.autoplay,
                                               anchorPosition: here.start, anchorTime: now,
                                               duration: state.clipDurations[here.url],
                                               problem: state.clipProblems[here.url])
            }
        } else if state.clip != nil {
            state.clip = nil
        }
        let next = clipTable.indices.contains(slide + 1) ? clipTable[slide + 1].first : nil
        var wanted: [SlideClip] = []
        for clip in [here, next].compactMap({ $0 }) where !wanted.contains(clip) && state.clipProblems[clip.url] == nil {
            wanted.append(clip)
        }
        let closing = state.openClips.filter { !wanted.contains($0) }
        let opening = wanted.filter { !state.openClips.contains($0) }
        state.openClips = wanted
        return closing.map(PresenterEffect.closeClip) + opening.map(PresenterEffect.openClip)
    }

    /// The clip keys: V plays or pauses (at its end: again from its start), J and L seek 5 s back and forward
    /// within the clip — as `VideoPlaybackEvent`s to the clip's playback (``SlideClipPlayback/events(for:)``),
    /// whose rules keep it within the clip. Without a playable clip on the audience slide they only say so.
    mutating func pressClipKey(_ key: PresenterKey, at now: Double) -> [PresenterEffect] {
        guard var clip = state.clip, clip.problem == nil else {
            return [.say(state.clip == nil ? "no video on this slide" : "this slide's video cannot be played")]
        }
        guard let events = SlideClipPlayback.events(for: key) else { return [] }
        // The platform follows the clip's state (``PresenterState/clip``, ``PresenterState/openClips``), not the
        // child's effects. The wrapper passes it only finite positions within the clip, so the only refusal left is
        // a clock reading that is not finite or went back, which the child replaces by its last time.
        clip.handle(events, at: now)
        state.clip = clip
        return []
    }

    /// The platform opened a clip (`duration` nil when the file does not say) or could not.
    mutating func clipReport(_ url: SlideClipReport, at now: Double) -> [PresenterEffect] {
        switch url {
        case .opened(let url, let duration):
            guard let duration, duration.isFinite, duration > 0 else { return [] }
            state.clipDurations[url] = duration
            if state.clip?.clip.url == url { state.clip?.handle([.durationFound(duration)], at: now) }
            return []
        case .failed(let url, let reason):
            guard state.clipProblems[url] == nil else { return [] }
            state.clipProblems[url] = reason
            if state.clip?.clip.url == url { state.clip?.handle([.mediaFailed(reason)], at: now) }
            return [.say(SlideClipPlayback.problemLine(reason))]
        }
    }
}

/// What the platform found out about a clip it was asked to open.
public enum SlideClipReport: Hashable, Sendable {
    /// The clip is open; its length in seconds, when the file says.
    case opened(URL, duration: Double?)
    /// The clip cannot be played (not a video, broken, truncated, a decoder that stalled), and why.
    case failed(URL, reason: String)
}
