#if canImport(CGStreamer) && canImport(CSDL2)
import ExternalDisplayMedia
import Foundation

extension HeadlessPlayer {
    /// Serves MPRIS when the steps include `listen:S` (only then is there time for a client to act); without a
    /// session bus the run goes on and says why once.
    func startRemote(title: String) {
        guard steps.contains(where: { if case .listen = $0 { true } else { false } }) else { return }
        #if os(Linux)
        do { remote = try VideoRemote.start(title: title, configuration: playback.configuration, clock: clock, log: log) } catch {
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

    /// `listen:S`: virtual time runs with the monotonic clock for `seconds` while remote commands are handed to
    /// the core as they arrive (every 5 ms); an MPRIS `Quit` ends it early. The end of the film is noticed on the way.
    func listen(_ seconds: Double) {
        clock.run()
        let end = ProcessInfo.processInfo.systemUptime + seconds
        while ProcessInfo.processInfo.systemUptime < end, !quitRequested {
            #if os(Linux)
            if let taken = remote?.take() {
                if !taken.events.isEmpty { apply(taken.events) }
                quitRequested = taken.quit
            }
            #endif
            if playback.status == .playing, let duration = playback.timeline.duration,
               playback.position(at: now) >= duration {
                apply([.endOfMedia])
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        clock.hold(at: now)
    }
}
#endif
