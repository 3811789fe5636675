/// What the process does with SIGINT, SIGTERM, SIGHUP and SIGQUIT once ``ModeExitHooks`` handles them: the one
/// decision between a clean stop (the presenter ends its talk, which puts the modes back, and exits 0) and the
/// exit hooks (restore, then `_exit(128 + signal)`), so the two never race.
///
/// - A signal the clean stop has taken over (``captureForCleanStop(_:)``) asks it to stop — at once when it is
///   ready (``cleanStopReady()``), else as soon as it is — and arms a deadline (``ModeExitHooks/cleanStopGrace``).
/// - A second such signal, the deadline passing (a hung loop), or any other signal: restore and exit
///   `128 + signal`.
/// - Nothing happens once the process is exiting (``exitStarted()``): its exit runs the hooks.
///
/// ```swift
/// var policy = ExitSignalPolicy()
/// policy.captureForCleanStop([SIGTERM])
/// policy.cleanStopReady()            // []
/// policy.signal(SIGTERM)             // [.askCleanStop(SIGTERM), .armDeadline(SIGTERM)]
/// policy.deadlinePassed(SIGTERM)     // [.restoreAndExit(status: 143)]
/// ```
public struct ExitSignalPolicy: Sendable, Equatable {
    /// What to do.
    public enum Action: Sendable, Equatable {
        /// Ask the clean stop to end the talk (signal number).
        case askCleanStop(Int32)
        /// Start the deadline for the clean stop of this signal.
        case armDeadline(Int32)
        /// Run every exit hook, then `_exit` with this status.
        case restoreAndExit(status: Int32)
    }

    /// The signals a clean stop has taken over.
    public private(set) var cleanStopSignals: Set<Int32> = []
    /// Whether a clean stop is there to ask.
    public private(set) var isReady = false
    /// The signal that asked for (or is waiting for) the clean stop, if any.
    public private(set) var pending: Int32?
    /// Whether the clean stop was asked (once at most).
    public private(set) var hasAsked = false
    /// Whether the process is exiting (by `exit` or a hook's `_exit`).
    public private(set) var isExiting = false

    /// A policy with no clean stop: every signal restores and exits.
    public init() {}

    /// From now on `signals` end the talk through the clean stop (remembered until it is ready).
    public mutating func captureForCleanStop(_ signals: [Int32]) { cleanStopSignals.formUnion(signals) }

    /// The clean stop is ready: a signal remembered meanwhile asks it now.
    public mutating func cleanStopReady() -> [Action] {
        isReady = true
        guard !isExiting, !hasAsked, let pending else { return [] }
        hasAsked = true
        return [.askCleanStop(pending)]
    }

    /// The clean stop is over (the talk ended): later signals restore and exit.
    public mutating func cleanStopGone() {
        isReady = false
        cleanStopSignals = []
    }

    /// `number` arrived.
    public mutating func signal(_ number: Int32) -> [Action] {
        guard !isExiting else { return [] }
        if pending == nil, cleanStopSignals.contains(number) {
            pending = number
            hasAsked = isReady
            return (isReady ? [.askCleanStop(number)] : []) + [.armDeadline(number)]
        }
        isExiting = true
        return [.restoreAndExit(status: 128 + number)]
    }

    /// The deadline armed for `number` passed with the process still running.
    public mutating func deadlinePassed(_ number: Int32) -> [Action] {
        guard !isExiting, pending == number else { return [] }
        isExiting = true
        return [.restoreAndExit(status: 128 + number)]
    }

    /// The process began to exit (`exit`, `atexit` handlers running).
    public mutating func exitStarted() { isExiting = true }
}
