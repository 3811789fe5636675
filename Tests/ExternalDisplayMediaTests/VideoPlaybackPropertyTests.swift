import ExternalDisplayMedia
import ExternalDisplayTesting
import Foundation
import Testing

/// The video playback core over random batches of events (before and after loading, bad numbers included),
/// judged after every batch by rules stated here from the documentation.
@Suite("Video playback core properties")
struct VideoPlaybackPropertyTests {
    static let displays = [tv, projector, VideoDisplay(id: "VGA-1", name: "Old projector")]
    static let numbers: [Double] = [0, 1, 5, 30, 60, 119.5, 120, 121, -3, 1e9, -1e9, .nan, .infinity, -.infinity,
                                    0.5, 2, 1.5, 3, 0.25]
    static let items = [film, teaser, liveChannel,
                        VideoItem(metadata: NowPlayingMetadata(identifier: "clip", title: "Clip", mediaType: .video),
                                  isFullScreen: false)]

    static func event(_ random: inout SeededRandom) -> VideoPlaybackEvent {
        let number = random.pick(from: numbers)
        switch Int.random(in: 0..<18, using: &random) {
        case 0, 1: return .displayAttached(random.pick(from: displays))
        case 2, 3: return .displayDetached(id: random.pick(from: displays).id)
        case 4: return .load(random.pick(from: items), at: number, playing: random.chance(0.5))
        case 5: return .unload
        case 6: return .play
        case 7: return .pause
        case 8: return .togglePlayPause
        case 9: return .seek(to: number)
        case 10: return .seekBy(number)
        case 11: return .setRate(number)
        case 12: return .setVolume(number)
        case 13: return .remote(random.pick(from: [.play, .pause, .togglePlayPause, .stop, .nextTrack,
                                                   .skipForward(15), .seek(by: number), .changePosition(to: number),
                                                   .changeRate(to: number)]))
        case 14: return random.chance(0.5) ? .moveToExternalDisplay : .moveToMainWindow
        case 15: return .durationFound(number)
        case 16: return .endOfMedia
        default: return .mediaFailed("truncated")
        }
    }

    @Test func everyBatchLeavesTheDocumentedState() {
        let run = MediaRandomRun(defaultCases: 400)
        for index in 0..<run.cases {
            let seed = run.seed(ofCase: index)
            var random = SeededRandom(state: seed)
            let named = random.chance(0.3)
            var playback = VideoPlayback(configuration: VideoPlaybackConfiguration(
                display: named ? .named("Projector") : .automatic))
            var time = Double.random(in: 0...1_000, using: &random)
            var lastSequence = 0
            var history: [String] = []
            for number in 0..<60 {
                let batch = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.event(&random) }
                time += random.chance(0.2) ? 0 : Double.random(in: 0...30, using: &random)
                let stamp = random.chance(0.03) ? random.pick(from: [.nan, time - 50]) : time
                let before = playback
                let effects = playback.handle(batch, at: stamp)
                history.append("batch \(number) at \(stamp): \(batch) → \(effects.map(spell))")
                let problems = Self.problems(before: before, after: playback, batch: batch, effects: effects,
                                             lastSequence: &lastSequence)
                guard problems.isEmpty else {
                    Issue.record(Comment(rawValue: """
                        case \(index), seed \(seed): \(problems.joined(separator: "; "))
                        display choice \(named ? "Projector" : "automatic"); last batches:
                          \(history.suffix(5).joined(separator: "\n  "))
                        replay: \(MediaRandomRun.replay(seed, test: "everyBatchLeavesTheDocumentedState"))
                        """))
                    return
                }
            }
        }
    }

    /// The rules, checked on one batch.
    static func problems(before: VideoPlayback, after: VideoPlayback, batch: [VideoPlaybackEvent],
                         effects: [VideoPlaybackEffect], lastSequence: inout Int) -> [String] {
        var problems: [String] = []
        let now = after.hostTime ?? 0
        // Where: the chosen attached display for a feature shown full screen, else the main window.
        let wanted: VideoPlacement? = after.item.map { item in
            let candidates = after.displays.filter {
                if case .named(let name) = after.configuration.display { $0.name == name || $0.id == name } else { true }
            }
            guard item.content == .featureVideo, item.isFullScreen, !after.isKeptInMainWindow,
                  let display = candidates.first else { return .mainWindow }
            return .externalDisplay(display)
        }
        if after.placement != wanted { problems.append("placement \(String(describing: after.placement)), expected \(String(describing: wanted))") }
        if after.indicator.isVisible != (after.placement?.display != nil) { problems.append("indicator \(after.indicator)") }
        // Unplug: the display the film played on is gone → not playing.
        if let was = before.placement?.display, !after.displays.contains(was), before.status == .playing,
           after.item == before.item, after.status == .playing, !batch.contains(.play), !batch.contains(.togglePlayPause),
           !batch.contains(where: { if case .remote = $0 { true } else { false } }),
           !batch.contains(where: { if case .load = $0 { true } else { false } }) {
            problems.append("still playing after its display \(was.id) was unplugged")
        }
        // The position never leaves the item; the volume stays in 0…1; numbers stay finite.
        let position = after.position(at: now)
        if !position.isFinite || position < 0 || position > (after.timeline.duration ?? .infinity) {
            problems.append("position \(position) outside the item")
        }
        if !(0...1).contains(after.volume) { problems.append("volume \(after.volume)") }
        if !after.preferredRate.isFinite || after.preferredRate <= 0 { problems.append("rate \(after.preferredRate)") }
        if (after.status == .playing) != (after.timeline.rate > 0) { problems.append("status \(after.status) with rate \(after.timeline.rate)") }
        // At most one timeline message and one publication per batch, sequence numbers increasing by one.
        let messages = effects.compactMap { if case .timeline(let m) = $0 { m } else { nil } }
        let publications = effects.compactMap { if case .nowPlaying(let p) = $0 { p } else { nil } }
        if messages.count > 1 || publications.count > 1 { problems.append("\(messages.count) messages, \(publications.count) publications") }
        for message in messages {
            if message.sequence != lastSequence + 1 { problems.append("sequence \(message.sequence) after \(lastSequence)") }
            lastSequence = message.sequence
            if message.item != after.item?.metadata.identifier { problems.append("message for \(String(describing: message.item))") }
        }
        // Only feature video and audio claim Now Playing.
        if let publication = publications.first, publication.reason != .cleared,
           after.item?.content == .incidentalVideo {
            problems.append("an incidental clip published Now Playing")
        }
        // Bad numbers are refused with a message, never taken.
        let refusals = effects.filter { if case .failed = $0 { true } else { false } }.count
        let badNumbers = batch.filter {
            switch $0 {
            case .seek(let x), .seekBy(let x), .setVolume(let x), .durationFound(let x), .load(_, let x, _): !x.isFinite
            case .setRate(let x): !x.isFinite || x <= 0
            default: false
            }
        }.count
        if refusals < badNumbers { problems.append("\(badNumbers) bad numbers, \(refusals) refusals") }
        return problems
    }
}
