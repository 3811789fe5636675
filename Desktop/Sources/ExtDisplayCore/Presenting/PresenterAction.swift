public import ExternalDisplayKit

/// An external display as the presenter shows it: who it is, its mode and where the slide goes.
public struct AudienceDisplay: Hashable, Sendable {
    /// How a display reaches the room.
    public enum Kind: String, Hashable, Sendable {
        /// A projector, TV or monitor on a cable (or AirPlay): the room sees it.
        case cable
        /// A browser page on the network (`--serve`): anyone who opened the URL sees it.
        case network
    }

    /// The display's identity.
    public var id: DisplayID
    /// Cable or network.
    public var kind: Kind
    /// Its human name.
    public var name: String
    /// The mode it is in.
    public var mode: DisplayMode
    /// The window's frame and safe frame under the chosen overscan compensation.
    public var layout: DisplayLayout

    /// Creates a display entry.
    public init(id: DisplayID, name: String, mode: DisplayMode, layout: DisplayLayout, kind: Kind = .cable) {
        self.id = id
        self.kind = kind
        self.name = name
        self.mode = mode
        self.layout = layout
    }

    /// Creates the entry for an attachment the coordinator reported; a `network` connection is a browser page.
    public init(_ attachment: DisplayAttachment) {
        self.init(id: attachment.display.id, name: attachment.display.name,
                  mode: attachment.display.currentMode, layout: attachment.layout,
                  kind: attachment.display.connection == .network ? .network : .cable)
    }
}

/// Everything that changes the presenter's state.
public enum PresenterAction: Hashable, Sendable {
    /// A key was pressed.
    case key(PresenterKey)
    /// A remote-control command arrived.
    case remote(PresenterRemoteCommand)
    /// An external display got a window (plugged in, or its mode or layout changed).
    case attached(AudienceDisplay)
    /// An external display lost its window.
    case detached(DisplayID)
    /// Go to a slide (0-based), clamped to the deck.
    case goTo(Int)
    /// Plan the talk's length in seconds (`--duration`, `--end-time`): the console counts down and cues the
    /// pace. Not finite or not positive: the plan is dropped.
    case plan(duration: Double)
    /// The speaker's mouse moved over the console's current slide (nil: it left the slide).
    case pointer(SlidePoint?)
    /// Pen input on the current slide, whose aspect (width / height) is `aspect` (the eraser measures on it).
    case ink(InkInput, aspect: Double)
}
