/// How the speaker numbers the deck: each page's label, and which pages make one slide.
///
/// Beamer overlays (`\pause`, `\only<2>`) turn one slide into several PDF pages that share a page label.
/// Like pdfpc, the presenter treats them as one slide: the console shows the label, the overview shows one
/// tile per slide (its last page, with every overlay uncovered), and typing a number goes to the slide with
/// that label, while next and previous still step through the pages one by one.
///
/// Consecutive pages with the same label form a slide. A page without a label (nil or empty) is a slide of
/// its own, labelled with its page number.
///
/// ```swift
/// let n = SlideNumbering(labels: ["1", "2", "2", "2", "3"])
/// n.slideCount            // 3
/// n.label(ofPage: 3)      // "2"
/// n.pages(ofSlide: 1)     // 1..<4
/// n.slide(labelled: "3")  // 2
/// ```
public struct SlideNumbering: Hashable, Sendable {
    /// Each page's label (a page without one gets its 1-based page number).
    public private(set) var labels: [String]
    /// The first page of each slide, in order.
    public private(set) var firstPages: [Int]
    private var slideOfPage: [Int]

    /// One slide per page, labelled 1, 2, 3…: a deck without page labels.
    public init(pageCount: Int) {
        self.init(labels: Array(repeating: nil, count: max(0, pageCount)))
    }

    /// Slides grouped from per-page labels (nil or empty: no label).
    public init(labels: [String?]) {
        self.labels = []
        firstPages = []
        slideOfPage = []
        var previous: String?
        for (page, label) in labels.enumerated() {
            let given = label.flatMap { $0.isEmpty ? nil : $0 }
            if given == nil || given != previous { firstPages.append(page) }
            slideOfPage.append(firstPages.count - 1)
            self.labels.append(given ?? String(page + 1))
            previous = given
        }
    }

    /// How many pages.
    public var pageCount: Int { labels.count }
    /// How many slides (a slide is one page, or several overlays sharing a label).
    public var slideCount: Int { firstPages.count }
    /// Whether every page is a slide of its own labelled with its page number (no labels, or labels 1, 2, 3…).
    public var isPlain: Bool { slideCount == pageCount && labels.enumerated().allSatisfy { $0.element == String($0.offset + 1) } }

    /// The slide (0-based) a page belongs to; pages outside the deck are clamped into it.
    public func slide(ofPage page: Int) -> Int {
        guard !slideOfPage.isEmpty else { return 0 }
        return slideOfPage[min(max(page, 0), slideOfPage.count - 1)]
    }

    /// The pages of a slide (0-based); a slide outside the deck is clamped into it.
    public func pages(ofSlide slide: Int) -> Range<Int> {
        guard !firstPages.isEmpty else { return 0..<0 }
        let s = min(max(slide, 0), firstPages.count - 1)
        return firstPages[s]..<(s + 1 < firstPages.count ? firstPages[s + 1] : pageCount)
    }

    /// The page's label, or its 1-based number when the page is outside the deck.
    public func label(ofPage page: Int) -> String {
        labels.indices.contains(page) ? labels[page] : String(page + 1)
    }

    /// The label of a slide (0-based).
    public func label(ofSlide slide: Int) -> String {
        let pages = pages(ofSlide: slide)
        return pages.isEmpty ? String(slide + 1) : labels[pages.lowerBound]
    }

    /// The first slide whose label is `label`, if any.
    public func slide(labelled label: String) -> Int? {
        firstPages.firstIndex { labels[$0] == label }
    }

    /// The page a typed slide number leads to: the last page (every overlay shown) of the slide with that label,
    /// else of the `number`-th slide (clamped to the deck); nil for input that is not a positive number.
    public func page(forTyped typed: String) -> Int? {
        guard !firstPages.isEmpty else { return nil }
        if let slide = slide(labelled: typed) { return pages(ofSlide: slide).upperBound - 1 }
        guard let number = Int(typed), number >= 1 else { return nil }
        return pages(ofSlide: number - 1).upperBound - 1
    }

    /// `"3"`, or `"3 (2/4)"` on the second of four overlays of slide 3.
    public func position(ofPage page: Int) -> String {
        let pages = pages(ofSlide: slide(ofPage: page))
        let label = label(ofPage: page)
        guard pages.count > 1, pages.contains(page) else { return label }
        return "\(label) (\(page - pages.lowerBound + 1)/\(pages.count))"
    }
}
