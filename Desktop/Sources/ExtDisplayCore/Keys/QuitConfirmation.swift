/// The one rule for ending a talk or a film from the keyboard, in every mode: Q asks, and a second Q within
/// ``window`` seconds quits; any other key disarms it. Esc and F5 never quit (a clicker sends them from one
/// button), and Ctrl-Q or closing the window quits at once without asking.
///
/// ```swift
/// var quit = QuitConfirmation()
/// quit.request(at: 10)     // false: armed, "press Q again to quit"
/// quit.request(at: 11.5)   // true: quit
/// ```
public struct QuitConfirmation: Hashable, Sendable {
    /// How long the first Q stays armed, in seconds.
    public static let window: Double = 2

    /// What every mode says after the first Q (`present`, `play`, a clip in focus): one line, the same everywhere.
    public static let prompt = "press q again within 2 s to quit (Ctrl-Q quits at once; Esc cancels)"

    /// When Q was pressed once, if it is still waiting for the second.
    public private(set) var armedAt: Double?

    /// Nothing armed.
    public init() {}

    /// Whether a second Q at `now` would quit (the console says "press Q again to quit" while this holds).
    public func isArmed(at now: Double) -> Bool {
        guard let armedAt, now.isFinite else { return false }
        return now >= armedAt && now - armedAt <= Self.window
    }

    /// Q at `now`: true when it quits (the second within the window), else it arms and returns false. A time that
    /// is not finite never quits and never arms.
    public mutating func request(at now: Double) -> Bool {
        guard now.isFinite else { return false }
        if isArmed(at: now) { return true }
        armedAt = now
        return false
    }

    /// Any other key: the next Q asks again.
    public mutating func disarm() { armedAt = nil }
}
