/// What the engine knows about one external display's window: the display as it was attached, the layout in
/// force, visibility, content, and its frame clock.
public struct WindowState: Hashable, Sendable {
    /// The display, in the mode the window is laid out for.
    public var display: Display
    /// The compensation applied before the window was created.
    public var compensation: OverscanCompensation
    /// The window's layout.
    public var layout: DisplayLayout
    /// Whether the window is shown.
    public var isVisible: Bool
    /// What it shows (meaningful while visible).
    public var content: SurfaceContent
    /// The frame clock, while one exists.
    public var frameClock: FrameClockState?
    /// The fraction of pixels the app draws (1 = all; the frame-budget governor lowers it).
    public var renderScale: Double
    /// The rate the governor drives this display's content at, if it lowered it.
    public var governedFrameRate: Double?

    /// The mode the window is laid out for.
    public var mode: DisplayMode { display.currentMode }

    /// What the app is told about this window.
    public var attachment: DisplayAttachment {
        DisplayAttachment(display: display, layout: layout, traits: DisplayTraits(layout: layout))
    }
}

/// A frame clock the engine has started: its rate and whether it is paused.
public struct FrameClockState: Hashable, Sendable {
    /// Frames per second it ticks at (never above the display's refresh rate).
    public var fps: Double
    /// Paused clocks cost no wakeups: the app renders on demand, not continuously.
    public var isPaused: Bool

    /// Creates a state.
    public init(fps: Double, isPaused: Bool) {
        self.fps = fps
        self.isPaused = isPaused
    }
}
