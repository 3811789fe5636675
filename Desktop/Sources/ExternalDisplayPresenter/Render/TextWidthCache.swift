/// Text widths a canvas has measured, by text, face and size: layout asks for the same words every frame
/// (the timer ticks, the slide does not change), so each is measured by the font engine once per canvas.
/// Bounded: past `capacity` entries it starts afresh.
final class TextWidthCache {
    private struct Key: Hashable {
        var text: String
        var face: FontFace
        var size: Int
    }

    private var widths: [Key: Int] = [:]
    private let capacity: Int

    init(capacity: Int = 65_536) { self.capacity = capacity }

    /// The cached width, or `measure()` remembered.
    func width(_ text: String, face: FontFace, size: Int, measure: () -> Int) -> Int {
        let key = Key(text: text, face: face, size: size)
        if let known = widths[key] { return known }
        if widths.count >= capacity { widths.removeAll(keepingCapacity: true) }
        let measured = measure()
        widths[key] = measured
        return measured
    }
}
