import Foundation

/// What the remote page shows the speaker: where the talk is, the current and next slide, the notes and the
/// timer. Only the remote (which needs the token) ever receives it; audience pages get pixels only.
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

    /// A state.
    public init(slide: Int, slideCount: Int, title: String, text: String = "", nextTitle: String? = nil,
                nextText: String? = nil, notes: String = "", timer: String = "0:00", timerPaused: Bool = false,
                blank: Bool = false) {
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
    }

    /// The message sent to the remote: `{"type":"state", …fields}`.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        return "{\"type\":\"state\"," + body.dropFirst()
    }
}
