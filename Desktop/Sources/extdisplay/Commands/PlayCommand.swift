import ArgumentParser
import DesktopFiles
import DesktopVideo
import ExternalDisplayKit
import ExternalDisplayMedia
import ExternalDisplayPresenter
import Foundation
import PresenterRuntime

/// `extdisplay play FILE`: a video on the external display, the controls on the main one: windows on X11 or
/// Wayland (``LivePlayer``), or headless on simulated displays (a PNG of every display after each step).
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a video on the external display, the controls on the main one (X11, Wayland, or headless snapshots).",
        discussion: """
        Decoding: GStreamer (decodebin), dynamically linked (LGPL-2+); FFmpeg's avdec_* decoders (GPL as Debian \
        builds them) are ranked down unless EXTDISPLAY_ALLOW_AVDEC=1. WebM/Matroska with VP8 or VP9 plays with \
        gstreamer1.0-plugins-good; H.264 needs openh264dec (gstreamer1.0-plugins-bad; Debian builds OpenH264 from \
        source, so Cisco's patent licence does not cover it) or the opt-in.

        Sound (on X11): through pulsesink (PulseAudio, or PipeWire with pipewire-pulse), the picture following the \
        sound's clock; pause, seek, rate (pitch kept) and volume apply to it. Without a sound server the film \
        plays silently and says so once on standard error. Headless runs play no sound.

        On X11 (DISPLAY set): a borderless window on the external output, the controls on the main one (where \
        present puts its console: never the output --display names). Keys, as in present where they can mean the \
        same: Space or V play/pause, Left/Right (J/L) 5 s back/forward, Up/Down 60 s, Home the start, E external \
        display, M main window, Esc never quits, Q twice within 2 s or Ctrl-Q quits.

        On Wayland (WAYLAND_DISPLAY set; sway, GNOME/Mutter, KDE/KWin): the film fullscreen on the external output, \
        the controls fullscreen on the main one (the compositor's main output, never the one --display names), outputs and \
        hotplug from the Wayland output API; the same keys.

        Where it plays: on the external display (--display NAME, or auto: the first), letterboxed in its safe \
        frame; unplugged mid-film it pauses and comes back to the main window at the same position; plugged in \
        again it moves out, still paused, and continues on play.

        Headless (no DISPLAY, or --simulate): runs on simulated displays in virtual time and writes one PNG per \
        display after each step of --keys, e.g. --keys wait:5,pause,unplug:hdmi-tv-1080p,plug:hdmi-tv-1080p,play,wait:2 \
        Steps: play, pause, toggle, seek:S, seek:+S, seek:-S, wait:S, listen:S, unplug:ID, plug:PRESET, external, \
        main, rate:R, volume:V, quit, or a key of the controls window (space, left, right, e, m, escape, q, ctrl+q: \
        the same key table decides). Each step takes 1/60 s; wait:S lets S seconds pass; listen:S serves MPRIS for \
        S seconds of real time (the film's time runs with the wall clock), an MPRIS Quit ends it and the run.

        MPRIS: with a session bus, the player is org.mpris.MediaPlayer2.extdisplay_play (playerctl -p \
        extdisplay_play): title, length, position, Seeked, play/pause/stop, seek, SetPosition, Rate 0.5…2, Volume, \
        Quit; live always, headless during listen:S steps.

        Browsers (--serve [HOST:]PORT): every page that opens the printed URL plays the file itself, in step with \
        the player; the remote's URL (printed, with its token) adds controls: play/pause, seek, position, rate, \
        volume, decided by the player like MPRIS requests. Served only (--display browser, or no DISPLAY and no \
        --simulate): the pages are the only displays, nothing is decoded here, and standard output shows where the \
        film stands and on how many pages; MPRIS and the remote control it. Headless --simulate runs refuse --serve.

        Exit status: 0 played cleanly; 1 a problem during playback (a truncated or damaged file; the message says \
        which); 2 the file cannot be opened or an argument is wrong; 74 the output cannot be written (a full disk, a closed \
        pipe).
        """)

    @Argument(help: "The video file (WebM, Matroska, MP4 …).")
    var file: String

    @Option(help: ArgumentHelp("The external display to play on: its id or name, auto (the first), or browser "
                               + "(with --serve: the browser pages only, nothing decoded here)."))
    var display: String = "auto"

    @Option(help: "Run on simulated displays (catalog presets, main display first), e.g. laptop,hdmi-tv-1080p.")
    var simulate: String?

    @Option(help: "Headless: write PNG snapshots here (default: ./play-snapshots).")
    var snapshot: String?

    @Option(help: "Headless: steps to play, comma-separated (play, pause, seek:S, wait:S, unplug:ID, plug:PRESET …).")
    var keys: String = ""

    @Option(help: ArgumentHelp("Serve the film to browsers on [HOST:]PORT: each page plays the file itself (range "
                               + "requests, never re-encoded) in step with this player. Loopback only unless a host "
                               + "is named; port 0: any free port. With --display browser or without DISPLAY, the "
                               + "pages are the only displays.",
                               valueName: "[HOST:]PORT"))
    var serve: String?

    @Option(help: "Display server: auto (Wayland when WAYLAND_DISPLAY is set, else X11 when DISPLAY is), x11 or wayland.")
    var backend: DesktopBackend = .auto

    @Option(help: ArgumentHelp("The external displays' mode, as in present: preferred, highest, lowest or WxH, put back "
                               + "at exit; without it every display keeps the mode it runs.", valueName: "MODE"))
    var mode: String?

    @MainActor
    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let choice: VideoPlaybackConfiguration.DisplayChoice = display == "auto" ? .automatic : .named(display)
        // Before any player, server or thread: a FIFO or device is refused here, never waited on.
        let film = openFilm()
        let modeRequest: PresenterModeRequest
        do { modeRequest = try PresenterModeRequest(argument: mode) } catch { Self.fail(error.description) }
        // The engine's mode policy; the film is letterboxed in the safe frame, never compensated for overscan.
        let displays = DisplayConfiguration(modeSelection: modeRequest.selection, overscanCompensation: .none)
        // Its descriptor stays open (and its /proc/self/fd path valid) until the film has played.
        defer { withExtendedLifetime(film) {} }
        if let servedOnly = servedOnlyMode(environment) {
            await playServedOnly(servedOnly, film: film)
            return
        }
        let displayServer: PlayerDisplayServer?
        switch PresenterBackend.choose(backend.request, environment: environment, simulate: simulate != nil) {
        case .success(.x11): displayServer = .x11
        case .success(.wayland): displayServer = .wayland
        case .success(.headless): displayServer = nil
        case .failure(let message): Self.fail(message.description)
        }
        if let displayServer {
            if snapshot != nil || !keys.isEmpty {
                Self.warn("--snapshot and --keys have no effect with a display server; add --simulate to use them")
            }
            // Each line written at once (a log read while the film plays, not when it ends).
            let player = LivePlayer(file: film.playURL, display: choice, server: displayServer, displays: displays) { line in
                StandardStreams.line(PrintableText.line(line))
            }
            // Pages follow the film's timeline on the player's clock (the runtime's), as a host of its runtime.
            if let pages = await startServing(film, clock: player.timeSource) {
                pages.follow(player.remotes)
                player.onFramePresented = { pages.framePresented(mediaTime: $0, hostTime: $1) }
                player.add(pages)
            }
            let problems: [String]
            do { problems = try await player.run() } catch { Self.fail(error.description) }
            if let last = problems.last {
                Self.warn("\(problems.count) problem(s) during playback; the last: \(last)")
                Foundation.exit(1)
            }
            return
        }
        if serve != nil { Self.fail(Self.headlessServeProblem) }
        if simulate == nil {
            Self.warn("no DISPLAY or WAYLAND_DISPLAY set: running on simulated displays (laptop,hdmi-tv-1080p)")
        }
        let steps: [PlayStep]
        do { steps = try PlayStep.parseList(keys) } catch { Self.fail(error.description) }
        let presets = (simulate ?? "laptop,hdmi-tv-1080p").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        let run = HeadlessPlayer(file: film.playURL, displays: presets, steps: steps, display: choice)
        if modeRequest.switches { run.displayConfiguration = displays }
        let outcome: HeadlessPlayer.Outcome
        do {
            // Each line written at once: a client driving a listen:S step reads the log while it runs.
            outcome = try await run.run(writingTo: URL(fileURLWithPath: snapshot ?? "play-snapshots")) { line in
                StandardStreams.line(PrintableText.line(line))
            }
        } catch {
            Self.fail(error.description)
        }
        if !outcome.problems.isEmpty {
            Self.warn("\(outcome.problems.count) problem(s) during playback; the last: \(outcome.problems.last!)")
            Foundation.exit(1)
        }
    }

    static func warn(_ message: String) {
        // File names and what tools said about them are data: controls escaped, the line bounded.
        StandardStreams.errorLine("extdisplay play: " + PrintableText.line(message))
    }

    static func fail(_ message: String) -> Never {
        warn(message)
        Foundation.exit(2)
    }
}
