extension Slide {
    /// The video clips of the slide, in order: its Markdown clip blocks, then the clips of its PDF page.
    public var clips: [SlideClip] {
        blocks.flatMap { block -> [SlideClip] in
            switch block {
            case .clip(_, let clip): [clip]
            case .page(let page): page.clips
            case .heading, .paragraph, .bullet, .image: []
            }
        }
    }
}

extension Deck {
    /// Each slide's clips, in slide order (what the presenter's core decides playback from).
    public var clipTable: [[SlideClip]] { slides.map(\.clips) }
}
