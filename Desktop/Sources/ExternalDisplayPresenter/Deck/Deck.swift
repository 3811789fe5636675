import Foundation

/// A slide deck read from Markdown: its slides in order, where it came from, and what could not be shown.
///
/// ```swift
/// let deck = DeckParser.parse(contentsOf: URL(fileURLWithPath: "Examples/Decks/ExternalDisplayKit.md"))
/// deck.slides.count      // 8
/// deck.diagnostics       // [] when every line made sense
/// ```
public struct Deck: Hashable, Sendable {
    /// The deck's name: its first slide's title, else the file name without extension.
    public var title: String
    /// The slides that could be shown, in order.
    public var slides: [Slide]
    /// Problems found while reading; each names the slide and line.
    public var diagnostics: [DeckDiagnostic]
    /// The folder images are resolved against (the deck's own folder).
    public var baseDirectory: URL?
    /// The file the deck was read from (``DeckParser/parse(contentsOf:beamerNotes:imageProblem:)``); nil for a
    /// deck parsed from memory. A Markdown deck's ink is saved beside it (``InkFile/companion(of:)``).
    public var file: URL?

    /// Creates a deck.
    public init(title: String, slides: [Slide], diagnostics: [DeckDiagnostic] = [], baseDirectory: URL? = nil) {
        self.title = title
        self.slides = slides
        self.diagnostics = diagnostics
        self.baseDirectory = baseDirectory
    }
}

/// One slide: a title, the blocks shown on screen, and the speaker's notes.
///
/// Notes are private: they are drawn on the presenter console only, never on an audience display.
public struct Slide: Hashable, Sendable {
    /// The slide's number in the source file (1-based), the one diagnostics name.
    public var number: Int
    /// The line of the source file the slide starts on (1-based).
    public var line: Int
    /// The `#` title, if the slide has one.
    public var title: [InlineRun]?
    /// What the audience sees, top to bottom.
    public var blocks: [SlideBlock]
    /// The speaker's notes, one entry per paragraph. Private.
    public var notes: [String]
    /// The slide's own share of the talk in seconds (`<!-- time: 1:30 -->`), if the deck gives one.
    public var time: Double?

    /// Creates a slide.
    public init(number: Int, line: Int = 1, title: [InlineRun]? = nil, blocks: [SlideBlock] = [],
                notes: [String] = [], time: Double? = nil) {
        self.number = number
        self.line = line
        self.title = title
        self.blocks = blocks
        self.notes = notes
        self.time = time
    }

    /// The title as plain text (code spans without backticks), or `"Slide N"` when it has none.
    public var plainTitle: String {
        title.map(InlineRun.plainText) ?? "Slide \(number)"
    }
}

/// A piece of slide content below the title.
public enum SlideBlock: Hashable, Sendable {
    /// A subheading (`##` and deeper).
    case heading([InlineRun])
    /// A paragraph: consecutive text lines joined with spaces.
    case paragraph([InlineRun])
    /// A bullet at a nesting level (0 = top, 1 = nested once).
    case bullet(level: Int, [InlineRun])
    /// An image file that exists, with its alternative text.
    case image(alt: String, url: URL)
    /// A whole PDF page (or the slide half of a Beamer split page), drawn filling the slide at its own aspect.
    case page(PDFPage)
    /// A video file that exists (`![alt](clip.webm)`): laid out like an image, played on the audience displays.
    case clip(alt: String, SlideClip)
}

/// A run of text in one style: plain, or inline `code`.
public struct InlineRun: Hashable, Sendable {
    /// The characters shown.
    public var text: String
    /// Whether the run is inline code (drawn in a monospaced face).
    public var isCode: Bool

    /// Creates a run.
    public init(_ text: String, isCode: Bool = false) {
        self.text = text
        self.isCode = isCode
    }

    /// The runs' text joined, without markup.
    public static func plainText(_ runs: [InlineRun]) -> String { runs.map(\.text).joined() }
}

/// A problem in a deck, located by slide and line, e.g.
/// `deck.md: slide 3, line 17: image 'chart.png' not found; the slide is shown without it`.
public struct DeckDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The deck file's name (last path component), or `"deck"` for text parsed from memory.
    public var file: String
    /// The slide number (1-based) in the source file.
    public var slide: Int
    /// The line number (1-based) in the source file.
    public var line: Int
    /// What is wrong and what happens instead.
    public var message: String

    /// Creates a diagnostic.
    public init(file: String = "deck", slide: Int, line: Int, message: String) {
        self.file = file
        self.slide = slide
        self.line = line
        self.message = message
    }

    /// `"FILE: slide N, line L: MESSAGE"`.
    public var description: String { "\(file): slide \(slide), line \(line): \(message)" }
}
