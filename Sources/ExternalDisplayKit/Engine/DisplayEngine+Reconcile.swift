extension DisplayEngine {
    /// Brings the windows in line with the inputs after a batch: teardown first, then attach and update in
    /// connection order, then the shared refresh tick and content routing.
    mutating func reconcile(_ context: inout BatchContext) {
        for id in windows.keys.sorted() where !shouldHaveWindow(id) || context.disconnected.contains(id) {
            let reason: DetachReason = displays[id] == nil || context.disconnected.contains(id)
                ? .disconnect : .mirror
            tearDown(id, reason: reason, &context)
        }
        guard phase != .notLaunched else { return }
        for id in connectionOrder where shouldHaveWindow(id) {
            if windows[id] == nil {
                attach(id, &context)
            } else if let requested = context.requestedModes[id], requested != displays[id]?.currentMode {
                recreate(id, in: requested, &context)
            } else {
                updateMode(of: id, &context)
                synchronize(id, &context)
            }
        }
        reconcileTiming(&context)
        reconcilePresentation(&context)
    }

    /// A connected, launched, non-mirrored display has a window.
    func shouldHaveWindow(_ id: DisplayID) -> Bool {
        phase != .notLaunched && displays[id] != nil && !mirrorChoices.contains(id)
    }

    /// Whether windows are shown in the current phase.
    var windowsShouldBeVisible: Bool {
        switch phase {
        case .active: true
        case .background, .suspended: configuration.background == .keep
        case .notLaunched: false
        }
    }

    private mutating func attach(_ id: DisplayID, _ context: inout BatchContext) {
        guard let display = displays[id] else { return }
        let mode: DisplayMode
        if let requested = context.requestedModes[id] {
            mode = requested
        } else {
            let choice = configuration.modeSelection.choose(for: display)
            if let problem = choice.problem { context.diagnose(.warning, problem) }
            mode = choice.mode
        }
        create(id, in: mode, &context)
        context.attached.insert(id)
    }

    /// Sets the mode (if it differs), the compensation, creates and synchronizes the window, tells the app.
    private mutating func create(_ id: DisplayID, in mode: DisplayMode, _ context: inout BatchContext) {
        guard var display = displays[id] else { return }
        if mode != display.currentMode {
            context.emit(.setMode(id, mode))
            display.currentMode = mode
            displays[id] = display
        }
        let compensation = configuration.overscanCompensation
        context.emit(.setOverscanCompensation(id, compensation))
        let layout = display.layout(compensation: compensation)
        context.emit(.createWindow(id, layout))
        windows[id] = WindowState(display: display, compensation: compensation, layout: layout,
                                  isVisible: false, content: .placeholder, frameClock: nil,
                                  renderScale: 1, governedFrameRate: nil)
        synchronize(id, &context)
        if let window = windows[id] { context.notify(.didAttach(window.attachment)) }
    }

    /// The app asked for another mode on a display that has its window. Apple's order is to set a mode before
    /// a window is associated with the screen, so the window is released first, then the mode set and a new
    /// window created, shown with the content it had and given its frame clock as on an attach. The app hears
    /// `didDetach(reason: .modeChange)` then `didAttach`; routed items stay where they are (the display never
    /// went away).
    private mutating func recreate(_ id: DisplayID, in mode: DisplayMode, _ context: inout BatchContext) {
        guard let old = windows[id] else { return }
        if old.frameClock != nil { context.emit(.stopFrameClock(id)) }
        if old.isVisible { context.emit(.hideWindow(id)) }
        context.emit(.destroyWindow(id))
        windows[id] = nil
        context.notify(.didDetach(id, reason: .modeChange))
        create(id, in: mode, &context)
    }

    private mutating func updateMode(of id: DisplayID, _ context: inout BatchContext) {
        guard var window = windows[id], let display = displays[id] else { return }
        guard display.currentMode != window.display.currentMode else {
            // Only the offered modes changed (modesChanged): the attachment describes the display as it is now,
            // the window and its layout stay.
            if display != window.display {
                window.display = display
                windows[id] = window
            }
            return
        }
        let refreshChanged = display.currentMode.refreshRate != window.display.currentMode.refreshRate
        window.display = display
        window.layout = display.layout(compensation: window.compensation)
        context.emit(.layoutWindow(id, window.layout))
        if refreshChanged {
            // A rate the governor chose for the old refresh may be above the new one: it plans again.
            window.governedFrameRate = nil
            if window.frameClock != nil {
                context.emit(.stopFrameClock(id))
                window.frameClock = nil
            }
        }
        windows[id] = window
        context.notify(.didChangeLayout(window.attachment))
    }

    /// Visibility, content and frame clock of one window, in the order that never shows a black field and
    /// never leaves a clock ticking for a hidden window.
    mutating func synchronize(_ id: DisplayID, _ context: inout BatchContext) {
        guard var window = windows[id] else { return }
        let visible = windowsShouldBeVisible
        let content: SurfaceContent = isContentReady ? .app : .placeholder
        let clockWanted = visible && content == .app && phase == .active
        if !clockWanted, window.frameClock != nil {
            context.emit(.stopFrameClock(id))
            window.frameClock = nil
        }
        if visible, !window.isVisible {
            context.emit(.showWindow(id, content))
            window.isVisible = true
            window.content = content
        } else if !visible, window.isVisible {
            context.emit(.hideWindow(id))
            window.isVisible = false
        } else if visible, window.content != content {
            context.emit(.setContent(id, content))
            window.content = content
        }
        if clockWanted {
            let wanted = FrameClockState(fps: frameClockRate(for: window),
                                         isPaused: !timing.rendersContinuously.contains(id))
            switch window.frameClock {
            case nil:
                context.emit(.startFrameClock(id, fps: wanted.fps, paused: wanted.isPaused))
            case let clock? where clock.fps != wanted.fps:
                context.emit(.stopFrameClock(id))
                context.emit(.startFrameClock(id, fps: wanted.fps, paused: wanted.isPaused))
            case let clock? where clock.isPaused != wanted.isPaused:
                context.emit(wanted.isPaused ? .pauseFrameClock(id) : .resumeFrameClock(id))
            default:
                break
            }
            window.frameClock = wanted
        }
        windows[id] = window
    }

    private mutating func tearDown(_ id: DisplayID, reason: DetachReason, _ context: inout BatchContext) {
        guard let window = windows[id] else { return }
        if window.frameClock != nil { context.emit(.stopFrameClock(id)) }
        if window.isVisible { context.emit(.hideWindow(id)) }
        context.emit(.destroyWindow(id))
        windows[id] = nil
        context.detached.insert(id)
        context.notify(.didDetach(id, reason: reason))
    }
}
