import DesktopImages
import CSDL2
import Foundation

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

    /// The folders searched for DejaVu, in order: `EXTDISPLAY_FONT_DIR` when set, then where Debian, Fedora,
    /// Arch and local installs put it.
    package static func fontDirectoryCandidates(
        environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let chosen = environment["EXTDISPLAY_FONT_DIR"].map { [$0] } ?? []
        return chosen + [systemFontDirectory, "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF", "/usr/local/share/fonts"]
    }

    /// The first of ``fontDirectoryCandidates(environment:)`` that holds `DejaVuSans.ttf`, or nil when none
    /// does.
    package static func findFontDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        fontDirectoryCandidates(environment: environment).first {
            FileManager.default.fileExists(atPath: $0 + "/DejaVuSans.ttf")
        }
    }

    /// The folder DejaVu is read from: found once per process (``findFontDirectory(environment:)``), else
    /// ``systemFontDirectory`` (text then fails with ``CanvasError/missingFont(path:)``).
    public static let fontDirectory: String = findFontDirectory() ?? systemFontDirectory

    /// What to do when DejaVu is missing, for error messages.
    package static let missingFontsAdvice = "the DejaVu fonts are missing: install fonts-dejavu-core "
        + "(scripts/install-deps.sh) or set EXTDISPLAY_FONT_DIR to a folder with DejaVuSans.ttf"

    /// The file that will be opened: `path`, else the weight's DejaVu file in ``fontDirectory``.
    public var resolvedPath: String {
        if let path { return path }
        switch weight {
        case .regular: return "\(Self.fontDirectory)/DejaVuSans.ttf"
        case .bold: return "\(Self.fontDirectory)/DejaVuSans-Bold.ttf"
        case .monospaced: return "\(Self.fontDirectory)/DejaVuSansMono.ttf"
        }
    }
}
