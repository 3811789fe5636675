/// Rules evaluated at the end of each batch ("after each event is handled"), reported at the batch's last line.
extension CheckerRun {
    mutating func checkBatchEnd(_ open: CheckedBatch) {
        for (id, line) in open.pendingLayout.sorted(by: { $0.key < $1.key }) {
            // Net effect: a mode that changed and changed back within the batch needs no new layout.
            if let window = model.windows[id], let display = model.displays[id] {
                let expected = CheckerMath.expectedFrames(for: display, compensation: model.compensation(for: id))
                if window.frame == expected.frame, window.safeFrame == expected.safe { continue }
            }
            report(.layoutAfterModeChange,
                   "the mode of \(id) changed (line \(line)) but no layoutWindow followed in the batch")
        }
        for (id, line) in open.modesChanged.sorted(by: { $0.key < $1.key }) where open.destroyedWindows.contains(id) {
            // A window goes legitimately when its display left or was mirrored, or the app asked for a mode.
            guard model.isConnected(id), !model.mirrored.contains(id), !open.disconnected.contains(id),
                  open.requestedModes[id] == nil else { continue }
            report(.windowKeptOnModesChange, "the mode list of \(id) changed (line \(line)) and its window was "
                   + "destroyed in the batch; it must stay and be laid out again")
        }
        for (id, line) in open.pendingAttach.sorted(by: { $0.key < $1.key }) {
            report(.setModeWithoutCause, "setMode for \(id) (line \(line)) answers neither a requestMode "
                   + "nor the policy for a window created after it in the batch")
        }
        checkNotificationsAndDiagnostics(open)
        checkWindowOwnership()
        checkActivityAndClocks()
        checkContent()
        if model.phase == .active { checkVisibleWindowCount() }
        checkTimingAtBatchEnd()
        checkPresentationAtBatchEnd(open)
    }

    /// No window outlives its display, and mirrored displays have none.
    mutating func checkWindowOwnership() {
        for id in model.windows.keys.sorted() {
            if !model.isConnected(id) {
                reportState(.windowOutlivesDisplay, id, "\(id) is not connected but its window still exists")
            } else if model.mirrored.contains(id) {
                reportState(.mirroredDisplayHasWindow, id, "\(id) is mirrored but its window still exists")
            }
        }
    }

    /// Nothing visible (under `hide`) and no clock while inactive; otherwise a clock exactly with visible app content.
    mutating func checkActivityAndClocks() {
        let active = model.phase == .active
        if !active, !model.configuration.keepInBackground {
            for (id, window) in model.windows.sorted(by: { $0.key < $1.key }) where window.visible {
                reportState(.activityWhileInactive, "window " + id, "the window of \(id) is visible while the app is "
                       + "\(model.phase.rawValue) under background policy hide")
            }
        }
        let ids = Set(model.windows.keys).union(model.clocks.keys).sorted()
        for id in ids {
            let running = model.clocks[id]?.running ?? false
            if running, !active {
                reportState(.activityWhileInactive, "clock " + id,
                            "the frame clock of \(id) runs while the app is \(model.phase.rawValue)")
                continue
            }
            let window = model.windows[id]
            let wanted = active && window?.visible == true && window?.content == "app" && model.isConnected(id)
            if running != wanted {
                let state = window.map { "visible \($0.visible), content \($0.content ?? "none")" } ?? "no window"
                reportState(.frameClockMismatch, id, running
                       ? "the frame clock of \(id) runs but its window does not show app content (\(state))"
                       : "the window of \(id) shows app content in the active app but its frame clock is not running")
            }
        }
    }

    /// A visible window shows the placeholder until content is ready and app content after.
    mutating func checkContent() {
        guard model.contentReady else { return }
        for (id, window) in model.windows.sorted(by: { $0.key < $1.key })
        where window.visible && window.content != "app" && model.isConnected(id) {
            reportState(.placeholderAfterReady, id,
                   "the window of \(id) shows \(window.content ?? "nothing") although the content is ready")
        }
    }

    /// While active: exactly one visible window per connected non-mirrored external display.
    mutating func checkVisibleWindowCount() {
        for id in model.connectionOrder where model.isExtended(id) {
            guard let window = model.windows[id] else {
                reportState(.visibleWindowCount, id, "\(id) is connected and extended but has no window")
                continue
            }
            if !window.visible {
                reportState(.visibleWindowCount, id, "\(id) is connected and extended but its window is hidden")
            }
        }
    }
}
