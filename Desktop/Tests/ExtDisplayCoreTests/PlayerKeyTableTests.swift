import ExtDisplayCore
import Testing

/// The playing mode's key table, checked against a table written out here by hand (not derived from the code).
@Suite("the playing mode's key table")
struct PlayerKeyTableTests {
    /// What each key should do while a film plays, as the command's help and the README promise it.
    static let expected: [(KeyPress, PlayerCommand?)] = [
        (KeyPress(.space), .togglePlayPause),
        (KeyPress(.character("v")), .togglePlayPause),
        (KeyPress(.character("k")), .togglePlayPause),
        (KeyPress(.left), .seekBy(-5)),
        (KeyPress(.character("j")), .seekBy(-5)),
        (KeyPress(.right), .seekBy(5)),
        (KeyPress(.character("l")), .seekBy(5)),
        (KeyPress(.down), .seekBy(-60)),
        (KeyPress(.pageDown), .seekBy(-60)),
        (KeyPress(.up), .seekBy(60)),
        (KeyPress(.pageUp), .seekBy(60)),
        (KeyPress(.home), .seekTo(0)),
        (KeyPress(.character("e")), .toExternalDisplay),
        (KeyPress(.character("m")), .toMainWindow),
        (KeyPress(.escape), .cancel),
        (KeyPress(.f5), .cancel),
        (KeyPress(.character("q")), .quitRequest),
        (KeyPress(.character("q"), control: true), .quit),
        (KeyPress(.character("x")), nil),
        (KeyPress(.character("1")), nil),
        (KeyPress(.enter), nil),
        (KeyPress(.tab), nil),
        (KeyPress(.end), nil),
        (KeyPress(.backspace), nil),
        (KeyPress(.character("e"), control: true), nil),
        (KeyPress(.space, control: true), nil),
    ]

    @Test func everyKeyMeansWhatTheHelpSays() {
        for (press, command) in Self.expected {
            #expect(PlayerKeyTable.command(for: press) == command, "\(press)")
        }
    }

    /// "Esc, Q, Space and the arrows mean the same thing wherever they can": the keys that end or cancel mean the
    /// same in both modes' tables.
    @Test func quitAndCancelKeysMeanTheSameWhilePresentingAndPlaying() {
        for press in [KeyPress(.escape), KeyPress(.f5)] {
            #expect(PresenterKeyTable.command(for: press) == .key(.cancel))
            #expect(PlayerKeyTable.command(for: press) == .cancel)
        }
        #expect(PresenterKeyTable.command(for: KeyPress(.character("q"))) == .key(.quitRequest))
        #expect(PlayerKeyTable.command(for: KeyPress(.character("q"))) == .quitRequest)
        #expect(PresenterKeyTable.command(for: KeyPress(.character("q"), control: true)) == .key(.quit))
        #expect(PlayerKeyTable.command(for: KeyPress(.character("q"), control: true)) == .quit)
        // The slide clip's keys in `present` (V, J, L) do to the film what they do to a clip.
        #expect(PresenterKeyTable.command(for: KeyPress(.character("v"))) == .key(.clipPlayPause))
        #expect(PlayerKeyTable.command(for: KeyPress(.character("v"))) == .togglePlayPause)
        #expect(PresenterKeyTable.command(for: KeyPress(.character("j"))) == .key(.clipBack))
        #expect(PlayerKeyTable.command(for: KeyPress(.character("j"))) == .seekBy(-5))
        #expect(PresenterKeyTable.command(for: KeyPress(.character("l"))) == .key(.clipForward))
        #expect(PlayerKeyTable.command(for: KeyPress(.character("l"))) == .seekBy(5))
    }
}
