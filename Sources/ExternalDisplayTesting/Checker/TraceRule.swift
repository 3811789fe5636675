/// The invariants ``TraceChecker`` enforces, one case per rule; the raw value is a stable name for reports and tests.
///
/// The foundation rules come from DESIGN.md section 5 and issue 2, the timing rules from issue 3, the presentation
/// rules from issue 6. Batch-end rules are evaluated after the last line of each batch and reported at that line.
public enum TraceRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// A line that is not a JSON object with a numeric `t` and a string `type`.
    case malformedLine
    /// A line whose `t` is smaller than the previous line's.
    case timeOrder
    /// A command names a display that is not connected (teardown right after its disconnect, in the same batch, excepted).
    case commandForDisconnectedDisplay
    /// A `createWindow` while the display already has a window, or a `destroyWindow` without one.
    case oneWindowPerDisplay
    /// `layoutWindow`, `showWindow`, `setContent` or `hideWindow` for a display that has no window.
    case commandWithoutWindow
    /// A `createWindow` not preceded (since connect/extend) by `setOverscanCompensation`, or a policy `setMode` after it.
    case modeBeforeWindow
    /// A `setMode` to the display's current mode.
    case setModeToCurrentMode
    /// A `setMode` to a mode the display does not offer.
    case setModeNotOffered
    /// A `setMode` under the `preferred` policy while the display is already in its preferred mode, not asked for
    /// by a `requestMode` in the same batch.
    case setModeUnderPreferredPolicy
    /// A `setMode` that answers neither a `requestMode` in its batch nor the policy for a window created after it
    /// in the batch.
    case setModeWithoutCause
    /// When a window is created, the display's current mode is not the one the configured mode selection picks.
    case policyMode
    /// A window visible (under `hide`) or a frame clock running while the app is not active, at a batch end.
    case activityWhileInactive
    /// A command in a batch that began while the app was suspended and was not a resume batch.
    case commandWhileSuspended
    /// A frame clock running without a visible window with app content in an active app, or missing with one;
    /// or started twice.
    case frameClockMismatch
    /// `showWindow` or `setContent` with `app` content before the content is ready.
    case appContentBeforeReady
    /// At a batch end, a visible window still shows the placeholder although the content is ready.
    case placeholderAfterReady
    /// A `createWindow` or `layoutWindow` frame or safe frame that differs from the layout arithmetic.
    case windowFrame
    /// A `setOverscanCompensation` other than the configured compensation, for a display that overscans.
    case compensationMismatch
    /// A window created for a display that connected and disconnected within the same batch.
    case windowForTransientDisplay
    /// While active, at a batch end, a connected non-mirrored external display without exactly one visible window.
    case visibleWindowCount
    /// At a batch end, a window still exists for a display handed back to mirroring.
    case mirroredDisplayHasWindow
    /// At a batch end, a window still exists for a display that is no longer connected.
    case windowOutlivesDisplay
    /// A mode change for a display with a window, without a `layoutWindow` for it later in the same batch.
    case layoutAfterModeChange
    /// A `modesChanged` (the display's mode list changed under it) for a display with a window that is still
    /// connected and extended at the batch's end, whose window was destroyed in the batch although the app asked
    /// for no mode: the window must stay and be laid out again.
    case windowKeptOnModesChange
    /// At a batch end, the shared refresh runs when it should not, or does not run when it should.
    case refreshRunning
    /// At a batch end, the running shared refresh is not at the highest rate a visible consumer asks for.
    case refreshRate
    /// In an interval, ticks delivered to a consumer differ from the source's ticks scaled by its rate by more than 1.
    case ticksDelivered
    /// At a batch end, a running frame clock is unpaused while its display does not render continuously, or the
    /// reverse; or a pause/resume of a clock that is not running.
    case frameClockPause
    /// Wakeups in an interval where nothing needs them, or more wakeups than ticks.
    case wakeups
    /// An interval whose refresh rate or tick counts disagree with the refresh and frame-clock state.
    case intervalCounts
    /// A `setRenderScale` outside [0.5, 1].
    case renderScale
    /// A `setFrameRate` that does not divide the display's refresh, or a frame clock faster than the display.
    case frameRate
    /// A private item routed to an external display.
    case privateRoutedExternally
    /// An item routed to a display that disconnected or was mirrored, not routed to the device in that batch
    /// (unless the display is back and extended at the batch's end: the batch's net effect).
    case routeOnDisconnect
    /// An item routed to a display that is not connected or is mirrored.
    case routeToUnavailableDisplay
    /// At a batch end, redaction is not on exactly while the screen is captured or a connected display is mirrored.
    case redaction
    /// A command for an extended display in a batch whose only events are `rotate`.
    case commandOnRotate
    /// A `setMode` answering a `requestMode` that is not the mode the request resolves to (the offered mode of that
    /// size closest to the current refresh, the higher on a tie).
    case requestedModeMismatch
    /// An event the documentation says the engine must diagnose (bad input, a display cleaned or refused, a request
    /// that needs a launched app) without a `diagnostic` line of that level for its step in the batch.
    case diagnosticMissing
    /// A `didAttach`, `didDetach` or `didChangeLayout` missing, extra, or disagreeing with the window commands of its
    /// batch (frame, safe frame, mode, detach reason).
    case notificationMismatch
    /// An interval's `droppedFrames` differs from a plain render-thread model of the interval.
    case droppedFrames
    /// The summary's `displays` (what the engine used) differ from the checker's own cleaning of the `connect` lines.
    case cleaningMismatch
    /// The `summary` line disagrees with the state the checker tracked.
    case summaryMismatch
}
