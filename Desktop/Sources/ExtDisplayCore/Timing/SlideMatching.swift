/// Matches a recorded run's slides to the deck as it is now, by content (their fingerprints), so that a deck
/// edited since a rehearsal — slides added, removed or moved — still gets the rehearsed times of the slides it kept.
///
/// Each recorded slide goes to the first slide of the deck with the same fingerprint not taken yet, nearest its old
/// number when the fingerprint appears several times; recorded slides with no match are listed for the speaker.
public enum SlideMatching {
    /// The run's seconds per slide of the deck (nil for a slide the run has no time for), and a line naming the
    /// recorded slides that match nothing now (nil when all matched).
    public static func seconds(of run: TalkTimings.Run, deckFingerprints: [String]) -> (seconds: [Double?], unmatched: String?) {
        var seconds = [Double?](repeating: nil, count: deckFingerprints.count)
        var positions: [String: [Int]] = [:]
        for (index, fingerprint) in deckFingerprints.enumerated() { positions[fingerprint, default: []].append(index) }
        var missing: [Int] = []
        for slide in run.slides {
            guard var candidates = positions[slide.fingerprint], !candidates.isEmpty else {
                missing.append(slide.index)
                continue
            }
            let best = candidates.indices.min { abs(candidates[$0] - (slide.index - 1)) < abs(candidates[$1] - (slide.index - 1)) } ?? 0
            let index = candidates.remove(at: best)
            positions[slide.fingerprint] = candidates
            seconds[index] = (seconds[index] ?? 0) + slide.seconds
        }
        guard !missing.isEmpty else { return (seconds, nil) }
        let shown = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
        return (seconds, "\(missing.count) rehearsed slide\(missing.count == 1 ? "" : "s") (\(shown)) no longer in the "
                + "deck or changed since; their times are not used")
    }
}
