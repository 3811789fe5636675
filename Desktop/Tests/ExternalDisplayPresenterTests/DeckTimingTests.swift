import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// A deck's own slide times (`<!-- time: 1:30 -->`) and the fingerprints that match a timing file to an edited deck.
struct DeckTimingTests {
    @Test("a slide's time: m:ss, h:mm:ss or seconds; anything else is a diagnostic and no time")
    func slideTimes() {
        let deck = DeckParser.parse("""
        # One
        <!-- time: 1:30 -->
        ---
        # Two
        <!--time:90s-->
        ---
        # Three
        <!-- TIME: 1:00:00 -->
        ---
        # Four
        <!-- time: -5 -->
        ---
        # Five
        <!-- time: nan -->
        ---
        # Six
        <!-- time: 1:99 -->
        ---
        # Seven
        <!-- time: 1e9 -->
        ---
        # Eight
        <!-- time: 25:00:00 -->
        ---
        # Nine
        Note:
        say hi
        <!-- time: 0:45 -->
        """, file: "talk.md")
        #expect(deck.slides.map(\.time) == [90, 90, 3600, nil, nil, nil, nil, nil, 45])
        #expect(deck.slides.map { $0.blocks.count } == Array(repeating: 0, count: 9), "the comment is not shown as text")
        #expect(deck.slides[8].notes == ["say hi"])
        let lines = deck.diagnostics.map(\.description)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("is not m:ss, h:mm:ss or seconds") }, "\(lines)")
        #expect(lines.first?.contains("slide 4, line 11") == true, "\(lines)")
    }

    @Test("fingerprints: FNV-1a's published vectors; an edited deck keeps the fingerprints of the slides it kept")
    func fingerprints() {
        // FNV-1a 64-bit test vectors (the FNV authors' list): "" and "a".
        #expect(DeckTimingPlan.fingerprint("") == "cbf29ce484222325")
        #expect(DeckTimingPlan.fingerprint("a") == "af63dc4c8601ec8c")
        let before = DeckParser.parse("# Intro\n<!-- time: 0:30 -->\n---\n# Method\n- step\n---\n# End", file: "talk.md")
        let after = DeckParser.parse("# New\n---\n# Intro\n<!-- time: 0:30 -->\n---\n# End\n---\n# Method\n- step", file: "talk.md")
        let a = DeckTimingPlan(deck: before), b = DeckTimingPlan(deck: after)
        #expect(a.titles == ["Intro", "Method", "End"])
        #expect(b.fingerprints[1] == a.fingerprints[0] && b.fingerprints[2] == a.fingerprints[2]
                && b.fingerprints[3] == a.fingerprints[1])
        #expect(!a.fingerprints.contains(b.fingerprints[0]))
        #expect(a.deckTimes == [0: 30] && b.deckTimes == [1: 30])
        // Overlays: pages labelled 1, 2, 2 are two slides; the second's fingerprint is its last overlay's.
        let overlays = DeckParser.parse("# A\n---\n# B\n---\n# B\n- more", file: "talk.md")
        let plan = DeckTimingPlan(deck: overlays, numbering: SlideNumbering(labels: ["1", "2", "2"]))
        #expect(plan.fingerprints.count == 2)
        #expect(plan.fingerprints[1] == DeckTimingPlan(deck: overlays).fingerprints[2])
    }
}
