import ExtDisplayCore
import Testing

@Suite("key names (--keys)")
struct KeyPressNameTests {
    static let keys: [KeyPress.Key] = [.right, .left, .up, .down, .pageUp, .pageDown, .home, .end, .enter, .escape,
                                       .backspace, .tab, .space, .f5]
        + "abcdefghijklmnopqrstuvwxyz0123456789.,;-=/[]'`".map { KeyPress.Key.character($0) }

    @Test func everyKeyIsFoundAgainByTheNameItPrintsAs() {
        for key in Self.keys {
            for control in [false, true] {
                let press = KeyPress(key, control: control)
                #expect(KeyPress(name: press.description) == press, "\(press)")
            }
        }
    }

    @Test func aliasesAndCase() {
        #expect(KeyPress(name: "ESC") == KeyPress(.escape))
        #expect(KeyPress(name: "Return") == KeyPress(.enter))
        #expect(KeyPress(name: "period") == KeyPress(.character(".")))
        #expect(KeyPress(name: "Ctrl-Q") == KeyPress(.character("q"), control: true))
        #expect(KeyPress(name: "Q") == KeyPress(.character("q")))
    }

    @Test func namesOfNoKeyAreRefused() {
        for name in ["", " ", "ctrl+", "ctrl+ctrl+", "qq", "f6", "é", "\u{1B}", "\0", "ctrl+é", "\u{7F}", "wait:3", "space bar"] {
            #expect(KeyPress(name: name) == nil, "\(name.debugDescription)")
        }
    }
}
