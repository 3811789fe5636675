import DesktopText
import Foundation
import Testing

/// `FontCoverage` (what `extdisplay doctor DECK` says about a deck's scripts) against fontconfig configurations
/// whose fonts are known: none at all, and the system's (scripts/install-deps.sh installs DejaVu, Noto CJK and
/// Noto Color Emoji).
@Suite("Font coverage of a text")
struct FontCoverageTests {
    static let text = "Hello Ελληνικά 中文字 🎉"

    @Test("no fonts: every script is a gap, in order, counted by distinct characters, with its package")
    func noFonts() {
        let gaps = FontCoverage.gaps(in: Self.text + " Hello", fallback: .withoutFonts())
        #expect(gaps.map(\.script) == ["Latn", "Grek", "Hani", "Zyyy"], "\(gaps)")
        #expect(gaps.first?.count == 4, "H, e, l, o: \(gaps)")
        #expect(gaps.first { $0.script == "Hani" }?.count == 3)
        #expect(gaps.first { $0.script == "Hani" }?.example == "U+4E2D")
        #expect(gaps.first { $0.script == "Hani" }?.package == "fonts-noto-cjk")
        #expect(gaps.first { $0.script == "Zyyy" }?.package == "fonts-noto-color-emoji")
        #expect(gaps.first { $0.script == "Grek" }?.package.contains("fonts-noto-core") == true)
    }

    @Test("the system's fonts cover Latin, Greek, Han and emoji; spaces and controls are never looked up")
    func systemFonts() {
        #expect(FontCoverage.gaps(in: Self.text + "\n\t\u{200D}", fallback: .shared).isEmpty)
        #expect(FontCoverage.gaps(in: " \n\t\u{200D}\u{FE0F}", fallback: .withoutFonts()).isEmpty)
    }
}
