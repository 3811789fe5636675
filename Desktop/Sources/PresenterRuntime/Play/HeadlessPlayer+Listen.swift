#if canImport(CGStreamer) && canImport(CSDL2)
import DesktopVideo
import ExternalDisplayMedia
import Foundation

extension HeadlessPlayer {
    /// Serves MPRIS when the steps include `listen:S` (only then is there time for a client to act), through the
    /// runtime's ``RemoteControlHost`` (its requests reach the core at every pass; a `Quit` ends the run after the
    /// step); without a session bus the run goes on and says why once.
    func startRemote(title: String) {
        guard steps.contains(where: { if case .listen = $0 { true } else { false } }) else { return }
        #if os(Linux)
        let host = RemoteControlHost.playing(title: title, configuration: playback.configuration,
                                             clock: RuntimeMediaClock(runtime.timeSource), log: log)
        host.onQuit = { [weak self] in self?.quitByRemote = true }
        if host.serveMPRIS(failure: "warning: no MPRIS remote control") {
            remotes = host
            runtime.add(host)
        } else {
            log("warning: listen steps only let time pass")
        }
        #else
        log("warning: MPRIS exists only on Linux; listen steps only let time pass")
        #endif
    }

    /// `listen:S`: virtual time follows the monotonic clock for `seconds` (moved on every 5 ms, a pass of the loop
    /// each time, in which the remotes' requests reach the core) while remote commands are handed to the core as
    /// they arrive; an MPRIS `Quit` ends it early. The end of the film is noticed on the way.
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
            if playback.status == .playing, let duration = playback.timeline.duration,
               playback.position(at: now) >= duration {
                apply([.endOfMedia])
            }
            runtime.wake()
            await runtime.nextPass()
        }
    }
}
#endif
