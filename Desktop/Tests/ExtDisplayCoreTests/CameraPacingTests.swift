import ExtDisplayCore
import Testing

@Suite("the camera's frame pacing (a changed picture at once, the last one again at the steady rate)")
struct CameraPacingTests {
    /// Whether a deadline is `expected` (sums of tenths are not exact in binary).
    static func at(_ deadline: Double?, _ expected: Double) -> Bool { deadline.map { abs($0 - expected) < 1e-9 } ?? false }

    @Test func nothingIsRepeatedBeforeTheFirstPicture() {
        let pacing = CameraPacing()
        #expect(pacing.decision(pictureChanged: false, at: 0) == .wait)
        #expect(pacing.decision(pictureChanged: false, at: 100) == .wait)
        #expect(pacing.nextDeadline == nil)
    }

    @Test func aChangedPictureIsSentAtOnceEvenRightAfterAnother() {
        var pacing = CameraPacing()
        #expect(pacing.decision(pictureChanged: true, at: 10) == .sendNew)
        pacing.sent(at: 10)
        #expect(pacing.decision(pictureChanged: true, at: 10.001) == .sendNew)
    }

    @Test func anUnchangedPictureIsRepeatedAtTheSteadyRate() {
        var pacing = CameraPacing()
        #expect(pacing.repeatInterval == 1 / CameraPacing.defaultRepeatsPerSecond)
        pacing.sent(at: 10)
        #expect(Self.at(pacing.nextDeadline, 10.2))
        #expect(pacing.decision(pictureChanged: false, at: 10.1) == .wait)
        #expect(pacing.decision(pictureChanged: false, at: 10.19) == .wait)
        // A timer that wakes the loop within the slack before the deadline repeats then.
        #expect(pacing.decision(pictureChanged: false, at: 10.2 - CameraPacing.slack / 2) == .repeatLast)
        #expect(pacing.decision(pictureChanged: false, at: 10.2) == .repeatLast)
        pacing.sent(at: 10.2)
        #expect(pacing.decision(pictureChanged: false, at: 10.3) == .wait)
        #expect(Self.at(pacing.nextDeadline, 10.4))
        // A loop that slept longer (a slow pass) repeats once, and the next deadline counts from then.
        #expect(pacing.decision(pictureChanged: false, at: 12) == .repeatLast)
        pacing.sent(at: 12)
        #expect(Self.at(pacing.nextDeadline, 12.2))
    }

    @Test func aNewPictureMovesTheNextRepeat() {
        var pacing = CameraPacing()
        pacing.sent(at: 10)
        pacing.sent(at: 10.15)   // a key: the new slide went out at 10.15
        #expect(pacing.decision(pictureChanged: false, at: 10.2) == .wait)
        #expect(Self.at(pacing.nextDeadline, 10.35))
    }

    @Test func theRateIsClampedToWhatCallApplicationsAccept() {
        #expect(CameraPacing(repeatsPerSecond: 0).repeatInterval == 2)
        #expect(CameraPacing(repeatsPerSecond: 1000).repeatInterval == 1.0 / 30)
        #expect(CameraPacing(repeatsPerSecond: .nan).repeatInterval == 0.2)
        #expect(CameraPacing(repeatsPerSecond: 10).repeatInterval == 0.1)
    }

    /// A webcam in the corner (`--webcam`): its frames make new pictures at its own rate, capped to the camera's.
    @Test func liveFramesAreSentAtTheirRateCappedToTheCamerasOwn() {
        var pacing = CameraPacing(liveFramesPerSecond: 30)
        #expect(pacing.liveInterval == 1.0 / 30)
        // Nothing before the first picture, even with a live frame waiting.
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: true, at: 0) == .wait)
        #expect(pacing.nextFrameDeadline(liveFrameWaiting: true) == nil)
        pacing.sent(at: 10)
        // A webcam frame 10 ms after the last frame waits for the cap (1/30 s), then goes out as a new picture.
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: true, at: 10.01) == .wait)
        #expect(Self.at(pacing.nextFrameDeadline(liveFrameWaiting: true), 10 + 1.0 / 30))
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: true, at: 10 + 1.0 / 30) == .sendNew)
        pacing.sent(at: 10 + 1.0 / 30)
        // A 15 fps webcam: its next frame 1/15 s later is sent when it comes (past the cap).
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: true, at: 10 + 3.0 / 30) == .sendNew)
        pacing.sent(at: 10.1)
        // No live frame waiting (the webcam stalled or stopped): the steady repeats again.
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: false, at: 10.2) == .wait)
        #expect(Self.at(pacing.nextFrameDeadline(liveFrameWaiting: false), 10.3))
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: false, at: 10.3) == .repeatLast)
        // A key's changed slide goes at once, whatever the cap.
        #expect(pacing.decision(pictureChanged: true, liveFrameWaiting: true, at: 10.301) == .sendNew)
    }

    /// A camera advertising fewer frames than the steady repeats: a live frame waits for its cap while the last
    /// picture is repeated meanwhile.
    @Test func aSlowCameraCapsLiveFramesAndStillRepeats() {
        var pacing = CameraPacing(liveFramesPerSecond: 2)
        pacing.sent(at: 10)
        #expect(Self.at(pacing.nextFrameDeadline(liveFrameWaiting: true), 10.2))
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: true, at: 10.2) == .repeatLast)
        pacing.sent(at: 10.2)
        #expect(pacing.decision(pictureChanged: false, liveFrameWaiting: true, at: 10.7) == .sendNew)
        #expect(CameraPacing(liveFramesPerSecond: 0).liveInterval == 1)
        #expect(CameraPacing(liveFramesPerSecond: 1000).liveInterval == 1.0 / 60)
        #expect(CameraPacing(liveFramesPerSecond: .infinity).liveInterval == 1.0 / 30)
    }

    /// A live source that sends nothing for 10 s (asked for, or since its last frame) is silent.
    @Test func aLiveSourceThatSendsNothingIsSilent() {
        var pacing = CameraPacing()
        #expect(!pacing.liveIsSilent(at: 1000) && pacing.liveSilenceDeadline == nil)
        pacing.heardLive(at: 10)
        #expect(Self.at(pacing.liveSilenceDeadline, 20))
        #expect(!pacing.liveIsSilent(at: 19.9))
        #expect(pacing.liveIsSilent(at: 20 - CameraPacing.slack / 2))
        pacing.heardLive(at: 15)   // a frame sent
        #expect(!pacing.liveIsSilent(at: 20) && pacing.liveIsSilent(at: 25))
        pacing.forgetLive()
        #expect(!pacing.liveIsSilent(at: 100))
    }
}
