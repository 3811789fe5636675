import Foundation

/// One page of a PDF deck as the presenter draws it: which file, which page, its size, and which part of it
/// is the slide (a Beamer split page carries its notes on the other half).
///
/// ```swift
/// let page = PDFPage(document: url, index: 0, width: 1024, height: 384, part: .left, notesPart: .right)
/// page.aspect      // 4:3, the left half
/// page.notes?.part // .right, drawn on the console only
/// ```
public struct PDFPage: Hashable, Sendable {
    /// A part of a page.
    public enum Part: String, Hashable, Sendable, CaseIterable {
        /// The whole page.
        case whole
        /// The left half.
        case left
        /// The right half.
        case right
        /// The top half.
        case top
        /// The bottom half.
        case bottom

        /// The part as fractions of the page: x, y, width, height in 0…1.
        public var fraction: (x: Double, y: Double, width: Double, height: Double) {
            switch self {
            case .whole: (0, 0, 1, 1)
            case .left: (0, 0, 0.5, 1)
            case .right: (0.5, 0, 0.5, 1)
            case .top: (0, 0, 1, 0.5)
            case .bottom: (0, 0.5, 1, 0.5)
            }
        }
    }

    /// The PDF file.
    public var document: URL
    /// The page, 0-based.
    public var index: Int
    /// The page's width in points, after its rotation.
    public var width: Double
    /// The page's height in points, after its rotation.
    public var height: Double
    /// The part shown as the slide.
    public var part: Part
    /// The page's rotation clockwise as poppler shows it (its `/Rotate`): 0, 90, 180 or 270. pdftoppm takes a
    /// quarter-turned page's scale in its unturned width and height.
    public var rotation: Int = 0
    /// The part holding the speaker's notes (Beamer split pages), if any. Never drawn on an audience display.
    public var notesPart: Part?
    /// How many pages the document has (0 when unknown): neighbours beyond it are not rendered ahead.
    public var pageCount: Int
    /// The page's label (`/PageLabels` or the `.pdfpc` file), if it has one: overlays share their slide's label.
    public var label: String?
    /// The video clips on the page (movie, screen and link annotations naming local video files), in the order the
    /// page lists them. Empty when the page has none.
    public var clips: [SlideClip]

    /// A region of the part to render alone (zoomed: what the room sees of an enlarged page), nil for the whole
    /// part. Set by the audience layout while zoomed; the deck's pages never have one.
    public var region: Region?

    /// A rectangle of a page's part in fractions of its width and height (0…1, top-left origin): the part of an
    /// enlarged page a display shows, rendered alone at the display's resolution.
    public struct Region: Hashable, Sendable {
        /// Left edge.
        public var x: Double
        /// Top edge.
        public var y: Double
        /// Width.
        public var width: Double
        /// Height.
        public var height: Double

        /// A region; nil unless it is a non-empty rectangle inside 0…1.
        public init?(x: Double, y: Double, width: Double, height: Double) {
            guard [x, y, width, height].allSatisfy(\.isFinite), x >= 0, y >= 0, width > 0, height > 0,
                  x + width <= 1 + 1e-9, y + height <= 1 + 1e-9 else { return nil }
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The same page of the document at `index` (a neighbour rendered ahead): the whole part, no region.
    public func neighbour(_ index: Int) -> PDFPage {
        var page = self
        page.index = index
        page.region = nil
        return page
    }

    /// The version of the file the page was read from (nil: not known). Rendered pages are cached by it, so a
    /// deck read again after the file changed never shows a page of the old file.
    public var version: FileSignature?

    /// Creates a page.
    public init(document: URL, index: Int, width: Double, height: Double, part: Part = .whole, notesPart: Part? = nil,
                pageCount: Int = 0, label: String? = nil, version: FileSignature? = nil,
                clips: [SlideClip] = []) {
        self.version = version
        self.clips = clips
        self.document = document
        self.index = index
        self.width = width
        self.height = height
        self.part = part
        self.notesPart = notesPart
        self.pageCount = pageCount
        self.label = label
    }

    /// Width / height of the shown part (4:3 when the size is unusable).
    public var aspect: Double {
        let f = part.fraction
        let w = width * f.width, h = height * f.height
        guard w.isFinite, h.isFinite, w > 0, h > 0 else { return 4.0 / 3.0 }
        return w / h
    }

    /// The notes half of a Beamer split page as a page of its own (drawn on the console), or nil.
    public var notes: PDFPage? {
        notesPart.map {
            PDFPage(document: document, index: index, width: width, height: height, part: $0, pageCount: pageCount,
                    version: version)
        }
    }
}

extension Slide {
    /// The PDF page this slide shows, if it is a page of a PDF deck.
    public var pdfPage: PDFPage? {
        guard blocks.count == 1, case .page(let page) = blocks[0] else { return nil }
        return page
    }

    /// The slide's aspect ratio: a PDF page's own, else the Markdown slide aspect (16:9).
    public var aspect: Double { pdfPage?.aspect ?? SlideLayout.aspect }
}

extension Deck {
    /// The deck's page labels and slides: a PDF's labels group its overlays; a Markdown deck is one slide per
    /// slide, numbered 1, 2, 3…
    public var numbering: SlideNumbering {
        SlideNumbering(labels: slides.map { $0.pdfPage?.label })
    }
}
