/// The presenter's colours. ``notes`` is used by speaker notes and nothing else, so a picture that contains
/// that exact colour shows notes.
public struct PresenterTheme: Hashable, Sendable {
    /// Letterbox bars and blackout.
    public var letterbox = RGBA(0, 0, 0)
    /// Slide background.
    public var slideBackground = RGBA(18, 24, 38)
    /// Slide titles.
    public var title = RGBA(255, 255, 255)
    /// Slide body text.
    public var body = RGBA(222, 228, 238)
    /// Bullet marks and subheadings.
    public var accent = RGBA(94, 178, 255)
    /// Inline code text.
    public var code = RGBA(140, 230, 190)
    /// Inline code background.
    public var codeBackground = RGBA(34, 44, 66)
    /// Console background.
    public var console = RGBA(28, 28, 32)
    /// Console labels and secondary text.
    public var muted = RGBA(150, 150, 160)
    /// Console primary text.
    public var consoleText = RGBA(240, 240, 240)
    /// Warnings on the console: timer paused, blackout, a display gone.
    public var warning = RGBA(255, 110, 90)
    /// Speaker notes: used for nothing else.
    public var notes = RGBA(255, 214, 10)

    /// The default dark theme.
    public init() {}
}
