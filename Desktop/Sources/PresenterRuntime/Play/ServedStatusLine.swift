#if canImport(CSDL2)
import DesktopVideo
import ExternalDisplayMedia
import Foundation

/// The console of served-only `extdisplay play` as one line of text: what the film does, where it stands, and
/// where it plays (`status: playing at 5.213 s of 24.000 s (0:05.2 / 0:24.0), rate 1×, volume 100%, on 2 browser
/// pages`). Printed after every request and change, and once a second while playing.
struct ServedStatusLine: Equatable {
    /// Playing, paused, ended or stopped.
    var status: String
    /// The position, in seconds.
    var position: Double
    /// The film's length, if known.
    var duration: Double?
    /// The core's preferred rate.
    var rate: Double
    /// The core's volume, 0…1.
    var volume: Double
    /// Where the core plays it (the indicator's route, `browser pages`), or the main window.
    var place: String
    /// Pages connected now.
    var pages: Int

    /// The line for `playback` at `now` with `pages` pages connected.
    init(playback: VideoPlayback, now: Double, pages: Int) {
        status = switch playback.status {
        case .playing: "playing"
        case .paused: playback.hasReachedEnd ? "ended" : "paused"
        case .stopped: "stopped"
        }
        position = playback.position(at: now)
        duration = playback.timeline.duration
        rate = playback.preferredRate
        volume = playback.volume
        place = playback.placement?.display?.name ?? "the main window"
        self.pages = pages
    }

    /// Whether the two differ in anything but the position moving on.
    func differs(from other: ServedStatusLine) -> Bool {
        status != other.status || rate != other.rate || volume != other.volume || place != other.place || pages != other.pages
            || duration != other.duration
    }

    /// The line.
    var text: String {
        let length = duration.map { String(format: " of %.3f s", $0) } ?? ""
        let clock = PlayerConsole.clock(position) + " / " + (duration.map(PlayerConsole.clock) ?? "--:--")
        let where_ = place == ServedPlayer.display.name
            ? "on \(pages) browser page\(pages == 1 ? "" : "s")" : "in \(place)"
        return String(format: "status: %@ at %.3f s", status, position) + length + " (\(clock)), rate "
            + PlayStep.format(rate) + "×, volume \(Int((volume * 100).rounded()))%, " + where_
    }
}
#endif
