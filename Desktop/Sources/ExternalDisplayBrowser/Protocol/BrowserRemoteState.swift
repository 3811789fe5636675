import Foundation

/// What the remote page shows the speaker: where the talk is, the current and next slide, the notes, the timer
/// and the pace. Only the remote (which needs the token) ever receives it; audience pages get pixels only.
///
/// ```swift
/// platform.publishRemote(BrowserRemoteState(slide: 2, slideCount: 6, title: "Why", nextTitle: "How",
///                                           notes: "Mention the demo.", timer: "3:20"), picture: frame)
/// ```
public struct BrowserRemoteState: Hashable, Sendable, Codable {
    /// The current slide, counted from 1.
    public var slide: Int
    /// How many slides there are.
    public var slideCount: Int
    /// The current slide's title.
    public var title: String
    /// The current slide's text (its title and blocks as plain lines).
    public var text: String
    /// The next slide's title, if there is a next slide.
    public var nextTitle: String?
    /// The next slide's text.
    public var nextText: String?
    /// The speaker notes of the current slide.
    public var notes: String
    /// The timer, formatted (`"3:20"`).
    public var timer: String
    /// Whether the timer is paused.
    public var timerPaused: Bool
    /// Whether the audience displays are blanked.
    public var blank: Bool
    /// Whether the audience is frozen on a slide while the speaker moves on.
    public var frozen: Bool
    /// The countdown (`"12:30 left"`, `"+1:05 over"`), when the talk has a planned length.
    public var countdown: String?
    /// The pace cue with a shape and a word (`"▲ 0:12 ahead, end ≈ 19:40 of 20:00"`), when the talk is paced.
    public var pace: String?
    /// How the talk stands against its plan, for the cue's colour (the shape and the word are in ``pace``).
    public var paceStanding: PaceStanding?
    /// The drawing tool a finger on the current slide's picture draws with (`pen`, `highlighter`, `eraser`).
    public var inkTool: String?
    /// The tool's colour, `#rrggbbaa` (the highlighter translucent), for the page's own preview of a stroke.
    public var inkColour: String?
    /// The tool's line width as a fraction of the slide's height.
    public var inkWidth: Double?
    /// Where the slide drawn on lies in the current slide's picture, as fractions of the picture's width and
    /// height: the whole slide (x, y, width, height; zoomed, larger than the picture and shifted), then the part
    /// shown (x, y, width, height). Nil when a finger cannot draw on what the picture shows (the room sees
    /// another slide, frozen, or nothing, blanked).
    public var drawArea: [Double]?

    /// How the talk stands against its plan.
    public enum PaceStanding: String, Hashable, Sendable, Codable {
        /// Ahead of the plan.
        case ahead
        /// Within the tolerance of the plan.
        case onPace
        /// Behind the plan.
        case behind
        /// Past the planned length.
        case overtime
    }

    /// A state.
    public init(slide: Int, slideCount: Int, title: String, text: String = "", nextTitle: String? = nil,
                nextText: String? = nil, notes: String = "", timer: String = "0:00", timerPaused: Bool = false,
                blank: Bool = false, frozen: Bool = false, countdown: String? = nil, pace: String? = nil,
                paceStanding: PaceStanding? = nil) {
        self.slide = slide
        self.slideCount = slideCount
        self.title = title
        self.text = text
        self.nextTitle = nextTitle
        self.nextText = nextText
        self.notes = notes
        self.timer = timer
        self.timerPaused = timerPaused
        self.blank = blank
        self.frozen = frozen
        self.countdown = countdown
        self.pace = pace
        self.paceStanding = paceStanding
    }

    /// The state with the drawing tool and where the picture's slide lies (see ``drawArea``).
    public func drawing(tool: String, colour: String, width: Double, area: [Double]?) -> BrowserRemoteState {
        var copy = self
        copy.inkTool = tool
        copy.inkColour = colour
        copy.inkWidth = width
        copy.drawArea = area
        return copy
    }

    /// The message sent to the remote: `{"type":"state", …fields}`.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        return "{\"type\":\"state\"," + body.dropFirst()
    }
}
