import ExternalDisplayKit

/// The simulator's stand-in for an external window: it records what the platform was told to do with it,
/// so tests can assert on what the user would see.
///
/// ```swift
/// let surface = platform.surface(for: "tv")!
/// #expect(surface.isVisible && surface.content == .app)
/// ```
@MainActor
public final class SimulatedSurface {
    /// The display it is on.
    public let display: DisplayID
    /// Its current layout.
    public internal(set) var layout: DisplayLayout
    /// Whether it is shown.
    public internal(set) var isVisible = false
    /// What it shows.
    public internal(set) var content: SurfaceContent = .placeholder
    /// Its frame clock (nil unless started).
    public internal(set) var frameClock: FrameClockState?
    /// Fraction of pixels drawn (the governor's render scale).
    public internal(set) var renderScale: Double = 1
    /// The rate the governor set, if any.
    public internal(set) var frameRate: Double?
    /// Whether it ever took key status or focus (it must not).
    public internal(set) var tookFocus = false
    /// Every command this surface received, in order.
    public internal(set) var history: [DisplayCommand] = []
    /// The display's frame clock on virtual time, while one is started.
    public internal(set) var clock: VirtualFrameClock?
    /// Called on every tick of the surface's unpaused frame clock: where a test app draws.
    public var onFrame: (@MainActor (FrameTick) -> Void)?
    /// Frames drawn (ticks of the unpaused frame clock).
    public internal(set) var framesDrawn = 0

    init(display: DisplayID, layout: DisplayLayout) {
        self.display = display
        self.layout = layout
    }
}
