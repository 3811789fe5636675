import Foundation

/// What a timed talk needs from its deck, per logical slide (overlays of one slide are one): a fingerprint of its
/// content, so that a timing file recorded on an older version of the deck is matched by content
/// (``ExtDisplayCore/SlideMatching``); its title; and its own time (`<!-- time: 1:30 -->`).
///
/// The fingerprint hashes (FNV-1a, 64 bits, the same in every process and build) the last overlay's title, text,
/// image names, page label and notes. PDF pages carry no text here, so PDF slides are told apart by their labels
/// and notes; pages with neither share one fingerprint and are matched by their nearest number.
public struct DeckTimingPlan: Hashable, Sendable {
    /// Per logical slide: its content's fingerprint (16 hex digits).
    public var fingerprints: [String]
    /// Per logical slide: its title (`"Slide N"` when it has none).
    public var titles: [String]
    /// The slides' own times in seconds, by 0-based logical slide.
    public var deckTimes: [Int: Double]

    /// The plan of `deck`'s slides grouped as `numbering` says (default: one slide per page).
    public init(deck: Deck, numbering: SlideNumbering? = nil) {
        let numbering = numbering.flatMap { $0.pageCount == deck.slides.count ? $0 : nil }
            ?? SlideNumbering(pageCount: deck.slides.count)
        var fingerprints: [String] = [], titles: [String] = [], times: [Int: Double] = [:]
        for slide in 0..<numbering.slideCount {
            let pages = numbering.pages(ofSlide: slide).clamped(to: 0..<deck.slides.count)
            guard let last = pages.last else {
                fingerprints.append(Self.fingerprint("empty"))
                titles.append("Slide \(slide + 1)")
                continue
            }
            let page = deck.slides[last]
            fingerprints.append(Self.fingerprint(Self.content(of: page)))
            titles.append(page.plainTitle)
            if let time = pages.lazy.compactMap({ deck.slides[$0].time }).first { times[slide] = time }
        }
        self.fingerprints = fingerprints
        self.titles = titles
        deckTimes = times
    }

    /// The text that names a slide's content.
    static func content(of slide: Slide) -> String {
        var parts = [slide.title.map(InlineRun.plainText) ?? ""]
        for block in slide.blocks {
            switch block {
            case .heading(let runs), .paragraph(let runs), .bullet(_, let runs): parts.append(InlineRun.plainText(runs))
            case .image(let alt, let url): parts.append("image:" + alt + ":" + url.lastPathComponent)
            case .page(let page): parts.append("page:" + (page.label ?? ""))
            case .clip(let alt, let clip): parts.append("clip:" + alt + ":" + clip.url.lastPathComponent)
            }
        }
        parts += slide.notes
        return parts.joined(separator: "\u{1F}")
    }

    /// FNV-1a over the UTF-8 bytes, as 16 hex digits.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
