/// One line of text cut into runs that each have one font, one direction and one script, placed left to
/// right in the order they are drawn. Measuring and drawing both read it, so they cannot disagree.
struct ShapedLine {
    /// A piece drawn by one SDL_ttf call.
    struct Run {
        /// The characters, in logical order (HarfBuzz lays a right-to-left run out from right to left).
        var text: String
        /// The open font.
        var font: OpaquePointer
        /// Whether the run is right-to-left (odd embedding level).
        var isRightToLeft: Bool
        /// ISO 15924 script tag, e.g. "Hebr".
        var script: String
        /// Scale applied to the rendered run (a bitmap strike drawn at the text size), 1 otherwise.
        var scale: Double
        /// Left edge, from the line's left edge.
        var x: Int
        /// Advance width after scaling.
        var width: Int
        /// Top edge, from the line's top: aligns this font's baseline with the primary font's.
        var y: Int
    }

    /// Runs in drawing order, left to right.
    var runs: [Run]
    /// The whole line's advance width.
    var width: Int
    /// Whether the line's base direction is right-to-left.
    var isRightToLeft: Bool
}
