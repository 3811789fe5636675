import DesktopImages
import CSDL2

/// A font and size for ``Canvas`` text: DejaVu from fonts-dejavu-core by default, or any TrueType file.
///
/// ```swift
/// let title = CanvasFont(size: 64, weight: .bold)
/// let size = canvas.measure("Hello", font: title)   // for layout
/// canvas.text("Hello", x: 40, y: 40, font: title, color: .white)
/// ```
public struct CanvasFont: Hashable, Sendable {
    /// Regular, bold or monospaced.
    public enum Weight: String, Hashable, Sendable {
        /// DejaVu Sans.
        case regular
        /// DejaVu Sans Bold.
        case bold
        /// DejaVu Sans Mono (for code).
        case monospaced
    }

    /// The font size in pixels (point size at 72 dpi).
    public var size: Int
    /// The weight, used when `path` is nil.
    public var weight: Weight
    /// A TrueType file to use instead of DejaVu.
    public var path: String?

    /// Creates a font description.
    public init(size: Int, weight: Weight = .regular, path: String? = nil) {
        self.size = size
        self.weight = weight
        self.path = path
    }

    /// Where DejaVu lives on Debian.
    public static let systemFontDirectory = "/usr/share/fonts/truetype/dejavu"

    /// The file that will be opened.
    public var resolvedPath: String {
        if let path { return path }
        switch weight {
        case .regular: return "\(Self.systemFontDirectory)/DejaVuSans.ttf"
        case .bold: return "\(Self.systemFontDirectory)/DejaVuSans-Bold.ttf"
        case .monospaced: return "\(Self.systemFontDirectory)/DejaVuSansMono.ttf"
        }
    }
}
