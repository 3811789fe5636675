#if canImport(CGStreamer) && canImport(CSDL2)
import DesktopVideo
import ExternalDisplayMedia
import Foundation

extension HeadlessPlayer {
    /// Serves MPRIS when the steps include `listen:S` (only then is there time for a client to act); without a
    /// session bus the run goes on and says why once.
    func startRemote(title: String) {
        guard steps.contains(where: { if case .listen = $0 { true } else { false } }) else { return }
        #if os(Linux)
        do {
            remote = try VideoRemote.start(title: title, configuration: playback.configuration,
                                           clock: RuntimeMediaClock(runtime.timeSource), log: log)
        } catch {
            log("warning: no MPRIS remote control: \(error.description); listen steps only let time pass")
        }
        #else
        log("warning: MPRIS exists only on Linux; listen steps only let time pass")
        #endif
    }

    func stopRemote() {
        #if os(Linux)
        remote?.stop()
        remote = nil
        #endif
    }

    /// `listen:S`: virtual time follows the monotonic clock for `seconds` (moved on every 5 ms, a pass of the loop
    /// each time) while remote commands are handed to the core as they arrive; an MPRIS `Quit` ends it early. The
    /// end of the film is noticed on the way.
    func listen(_ seconds: Double) async {
        let real = ContinuousClock()
        let start = real.now
        var passed = Duration.zero
        let length = Duration.nanoseconds(Int64(min(max(0, seconds.isFinite ? seconds : 0), 86_400) * 1e9))
        while passed < length, !quitByRemote, !runtime.controller.wantsQuit {
            try? await Task.sleep(for: .milliseconds(5))
            let elapsed = min(start.duration(to: real.now), length)
            clock.advance(by: elapsed - passed)
            passed = elapsed
            takeRemoteRequests()
            if playback.status == .playing, let duration = playback.timeline.duration,
               playback.position(at: now) >= duration {
                apply([.endOfMedia])
            }
            runtime.wake()
            await runtime.nextPass()
        }
    }

    /// The MPRIS requests that arrived, to the core; a `Quit` ends the run after this step.
    func takeRemoteRequests() {
        #if os(Linux)
        if let taken = remote?.take() {
            apply(taken.events)
            if taken.quit { quitByRemote = true }
        }
        #endif
    }
}
#endif
