import ExternalDisplayKit
import ExternalDisplayMedia
import Foundation
import Testing
@testable import ExtDisplayCore

/// A slide's clip as a `VideoPlayback` of its own inside ``SlideClipPlayback``: the clip's rules the film
/// reducer lacks (its start…stop window, looping, the end, the problem), events judged one after the other within a
/// batch, non-finite inputs and events while nothing is loaded. Expected positions are worked out by hand in the
/// comments, not computed by the wrapper.
@Suite("Slide clip playback (VideoPlayback inside)")
struct SlideClipPlaybackTests {
    static let a = SlideClip(url: URL(fileURLWithPath: "/talk/a.webm"), autoplay: true)
    static let b = SlideClip(url: URL(fileURLWithPath: "/talk/b.webm"), autoplay: false)

    /// The refusals among `effects`.
    static func failures(_ effects: [VideoPlaybackEffect]) -> [VideoPlaybackError] {
        effects.compactMap { if case .failed(let error) = $0 { error } else { nil } }
    }

    /// How many timeline messages `effects` holds.
    static func timelines(_ effects: [VideoPlaybackEffect]) -> Int {
        effects.filter { if case .timeline = $0 { true } else { false } }.count
    }

    @Test func aLoopWrapsRoundBetweenStartAndStopAndPausesWhereItShows() {
        let looping = SlideClip(url: URL(fileURLWithPath: "/talk/loop.webm"), autoplay: true, loops: true,
                                start: 1, stop: 4)
        var clip = SlideClipPlayback(slideIndex: 0, clip: looping, isPlaying: true, anchorPosition: 1, anchorTime: 0)
        #expect(clip.position(at: 2.5) == 3.5)
        // 1 + 3 = 4 is the stop: back to 1; at 10 the timeline says 11, 10 s past the start: 1 + (10 mod 3) = 2.
        #expect(clip.position(at: 3) == 1)
        #expect(clip.position(at: 10) == 2)
        #expect(clip.hasEnded(at: 1_000) == false)
        // V at 10 pauses where it shows (2), and the child's timeline is anchored there, not at 11.
        clip.handle([.togglePlayPause], at: 10)
        #expect(clip.isPlaying == false)
        #expect(clip.anchorPosition == 2)
        #expect(clip.position(at: 50) == 2)
        // V at 60 plays on from 2: 3 at 61, the stop at 62 is 1 again.
        clip.handle([.togglePlayPause], at: 60)
        #expect(clip.position(at: 61) == 3)
        #expect(clip.position(at: 62) == 1)
        // A length shorter than the stop ends the loop earlier: 1…2.5. At 62.5 the timeline says 4.5:
        // 3.5 past the start, mod 1.5 = 0.5, so 1.5.
        clip.handle([.durationFound(2.5)], at: 62)
        #expect(clip.end == 2.5)
        #expect(clip.position(at: 62.5) == 1.5)
        // The decoder's end of media means nothing to a loop.
        let before = clip
        #expect(clip.handle([.endOfMedia], at: 63) == [])
        #expect(clip == before)
    }

    @Test func seeksAndPlayStayWithinTheStartStopWindow() {
        let windowed = SlideClip(url: URL(fileURLWithPath: "/talk/w.webm"), start: 2, stop: 6)
        var clip = SlideClipPlayback(slideIndex: 0, clip: windowed, isPlaying: false, anchorPosition: 2, anchorTime: 0)
        #expect(clip.end == 6)
        clip.handle([.seek(to: 0)], at: 1)
        #expect(clip.position(at: 5) == 2)
        clip.handle([.seek(to: 99)], at: 2)
        #expect(clip.position(at: 5) == 6)
        #expect(clip.hasEnded(at: 5))
        clip.handle([.seekBy(-100)], at: 3)
        #expect(clip.position(at: 5) == 2)
        // Played at 10 from 2: 5 at 13; held at the stop (6) from 14 on, and ended.
        clip.handle([.play], at: 10)
        #expect(clip.position(at: 13) == 5)
        #expect(clip.position(at: 20) == 6)
        #expect(clip.hasEnded(at: 20))
        #expect(clip.consoleLine(at: 20).hasPrefix("clip: w.webm 0:06 / 0:06 ■"))
        // V at its end: again from the start (2), playing: 3 at 22.
        clip.handle([.togglePlayPause], at: 21)
        #expect(clip.isPlaying)
        #expect(clip.position(at: 22) == 3)
        // A length shorter than the stop is the end: 4, reached at 23.
        clip.handle([.durationFound(4)], at: 22)
        #expect(clip.end == 4)
        #expect(clip.position(at: 23.5) == 4)
        #expect(clip.hasEnded(at: 23.5))
        // A stop before the start is no stop: the end is the length, once known.
        var odd = SlideClipPlayback(slideIndex: 0, clip: SlideClip(url: windowed.url, start: 5, stop: 3),
                                    isPlaying: false, anchorPosition: 5, anchorTime: 0)
        #expect(odd.end == nil)
        odd.handle([.durationFound(8)], at: 1)
        #expect(odd.end == 8)
    }

    @Test func eventsInOneBatchAreJudgedOneAfterTheOther() {
        var clip = SlideClipPlayback(slideIndex: 0, clip: Self.b, isPlaying: false, anchorPosition: 0, anchorTime: 0)
        // The length, then 5 and 5 more: 10, and one timeline message for the batch.
        let seeks = clip.handle([.durationFound(30), .seekBy(5), .seekBy(5)], at: 1)
        #expect(clip.position(at: 9) == 10)
        #expect(Self.timelines(seeks) == 1)
        // Play then pause in one batch: paused where it was, and nothing for followers to follow.
        let twice = clip.handle([.togglePlayPause, .togglePlayPause], at: 2)
        #expect(clip.isPlaying == false)
        #expect(clip.position(at: 9) == 10)
        #expect(Self.timelines(twice) == 0)
        // To the end, then V: V sees the end the seek reached and plays again from the start (1 s in at 4).
        clip.handle([.seekBy(100), .togglePlayPause], at: 3)
        #expect(clip.isPlaying)
        #expect(clip.position(at: 4) == 1)
        // A length found earlier in the batch bounds a seek later in it.
        clip.handle([.durationFound(8), .seek(to: 99)], at: 5)
        #expect(clip.position(at: 5) == 8)
    }

    @Test func nonFiniteRequestsAndTimesAreRefusedAndChangeNothing() {
        var clip = SlideClipPlayback(slideIndex: 0, clip: Self.a, isPlaying: true, anchorPosition: 0, anchorTime: 10)
        clip.handle([.durationFound(30)], at: 10)
        let timeline = clip.playback.timeline
        let effects = clip.handle([.seek(to: .nan), .seekBy(.infinity), .seekBy(-.infinity), .durationFound(.nan),
                                   .durationFound(-1), .durationFound(0), .durationFound(.infinity)], at: 12)
        #expect(Self.failures(effects).count == 7)
        #expect(effects.count == 7)
        #expect(clip.duration == 30)
        #expect(clip.playback.timeline == timeline)
        #expect(clip.position(at: 15) == 5)
        // A time that is not finite, or earlier than the last, is the last batch's time (12, when it was at 2).
        let pause = clip.handle([.pause], at: .nan)
        if case .invalidHostTime(let time)? = Self.failures(pause).first { #expect(time.isNaN) }
        else { Issue.record("a NaN time was not refused: \(pause)") }
        #expect(clip.position(at: 100) == 2)
        clip.handle([.play], at: -.infinity)
        #expect(clip.position(at: 13) == 3)
        let back = clip.handle([.togglePlayPause], at: 5)
        #expect(Self.failures(back) == [.hostTimeWentBack(5, previous: 12)])
        #expect(clip.position(at: 50) == 2)
        // Positions asked for at hostile times stay within the clip.
        clip.handle([.play], at: 20)
        for now in [Double.nan, .infinity, -.infinity, -1e300, 1e300, 0] {
            let p = clip.position(at: now)
            #expect(p.isFinite && p >= 0 && p <= 30, "\(now): \(p)")
        }
        // Hostile values at creation.
        let hostile = SlideClipPlayback(slideIndex: 0, clip: Self.a, isPlaying: true, anchorPosition: .nan,
                                        anchorTime: -.infinity, duration: .nan)
        #expect(hostile.anchorPosition == 0 && hostile.anchorTime == 0 && hostile.duration == nil)
    }

    @Test func eventsWhileNothingIsLoadedAreRefusedByTheChild() {
        // A clip known to be broken when its slide is shown is never loaded.
        var clip = SlideClipPlayback(slideIndex: 0, clip: Self.a, isPlaying: true, anchorPosition: 0, anchorTime: 0,
                                     problem: "not a video")
        #expect(clip.playback.item == nil)
        let before = clip
        let effects = clip.handle([.togglePlayPause, .play, .pause, .seekBy(5), .seek(to: 3)], at: 1)
        #expect(effects == [.failed(.nothingLoaded(request: "play or pause")), .failed(.nothingLoaded(request: "play")),
                            .failed(.nothingLoaded(request: "pause")), .failed(.nothingLoaded(request: "seek")),
                            .failed(.nothingLoaded(request: "seek"))])
        #expect(clip.isPlaying == false)
        #expect(clip.position(at: 5) == 0)
        #expect(clip.problem == before.problem)
        #expect(clip.consoleLine(at: 5)
                == "clip: a.webm cannot be played (the message says why); the slide goes on without it")
        // One that fails while playing is unloaded; the first reason stays.
        var playing = SlideClipPlayback(slideIndex: 0, clip: Self.a, isPlaying: true, anchorPosition: 0, anchorTime: 0)
        let failed = playing.handle([.mediaFailed("broken")], at: 3)
        #expect(failed.contains(.close))
        #expect(Self.failures(failed) == [.mediaFailed(title: "a.webm", reason: "broken")])
        playing.handle([.mediaFailed("another")], at: 4)
        #expect(playing.problem == "broken")
        #expect(playing.playback.item == nil)
        #expect(playing.handle([.play], at: 5) == [.failed(.nothingLoaded(request: "play"))])
    }

    @Test func reportsOnTheNextSlidesClipArriveBeforeItIsLoadedAndCount() {
        // Slide 1's clip is opened ahead while slide 0 shows: its length and its failure arrive before it plays.
        var core = PresenterCore(state: PresenterState(slideCount: 2, startedAt: 0), clips: [[], [Self.a]])
        #expect(core.handle(.clip(.opened(Self.a.url, duration: 30)), at: 1) == [.stateChanged])
        #expect(core.state.clip == nil)
        core.handle(.key(.next), at: 2)
        #expect(core.state.clip?.duration == 30)
        #expect(core.state.clip?.position(at: 40) == 30)
        var broken = PresenterCore(state: PresenterState(slideCount: 2, startedAt: 0), clips: [[], [Self.b]])
        #expect(broken.handle(.clip(.failed(Self.b.url, reason: "bad")), at: 1)
                == [.stateChanged, .say("slide video: bad (the talk goes on without it)"), .closeClip(Self.b)])
        broken.handle(.key(.next), at: 2)
        #expect(broken.state.clip?.problem == "bad")
        #expect(broken.state.clip?.playback.item == nil)
        #expect(broken.handle(.key(.clipPlayPause), at: 3) == [.say("this slide's video cannot be played")])
    }

    @Test func theCoresClipKeysAreEventsToTheClipsOwnPlayback() {
        #expect(SlideClipPlayback.events(for: .clipPlayPause) == [.togglePlayPause])
        #expect(SlideClipPlayback.events(for: .clipBack) == [.seekBy(-5)])
        #expect(SlideClipPlayback.events(for: .clipForward) == [.seekBy(5)])
        #expect(SlideClipPlayback.events(for: .next) == nil)
        var core = PresenterCore(state: PresenterState(slideCount: 1, startedAt: 0), clips: [[Self.a]])
        #expect(core.state.clip?.playback.status == .playing)
        #expect(core.state.clip?.playback.item == SlideClipPlayback.item(for: Self.a))
        #expect(core.state.clip?.playback.item?.content == .incidentalVideo)
        // V at 3: the child pauses at 3; L at 4: the child's timeline stands at 8. Its timeline is the clip's.
        core.handle(.press(KeyPress(.character("v"))), at: 3)
        #expect(core.state.clip?.playback.status == .paused)
        #expect(core.state.clip?.playback.timeline == PlaybackTimeline(elapsed: 3, at: 3, rate: 0))
        core.handle(.press(KeyPress(.character("l"))), at: 4)
        #expect(core.state.clip?.playback.timeline == PlaybackTimeline(elapsed: 8, at: 4, rate: 0))
        #expect(core.state.clip?.position(at: 9) == 8)
    }
}
