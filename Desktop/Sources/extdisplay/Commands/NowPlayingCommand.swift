import ArgumentParser
import DesktopFiles
import ExternalDisplayMPRIS
import ExternalDisplayMedia
import Foundation

/// `extdisplay nowplaying`: serves a Now Playing player on the D-Bus session bus (MPRIS) and prints every
/// remote command it receives as one JSON line — a demo of ExternalDisplayMPRIS and a tool to test desktop
/// integrations (media keys, widgets, `playerctl`).
struct NowPlayingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nowplaying",
        abstract: "Serve a Now Playing player over MPRIS and print each remote command as a JSON line.",
        discussion: """
            The player is org.mpris.MediaPlayer2.NAME on the session bus, so `playerctl -p NAME` finds it. \
            It starts playing track 1 of a queue of --tracks tracks (titled "T", "T (2)", …) and acts on \
            commands: play/pause change the status, next/previous change the track, seek and position move \
            the timeline. Stop it with Ctrl-C (SIGINT) or SIGTERM.
            """)

    @Option(help: "The title of the first track.")
    var title: String

    @Option(help: "The artist.")
    var artist: String?

    @Option(help: "The album.")
    var album: String?

    @Option(help: "The length of each track in seconds (omit for an item of unknown length).")
    var duration: Double?

    @Option(help: "The player name: the bus name is org.mpris.MediaPlayer2.NAME.")
    var name: String = "extdisplay"

    @Option(help: "How many tracks the queue holds (next/previous move through them).")
    var tracks: Int = 3

    func validate() throws {
        guard tracks >= 1 else { throw ValidationError("--tracks must be at least 1") }
        if let duration, !(duration.isFinite && duration > 0 && duration <= 1e9) {
            throw ValidationError("--duration must be a number of seconds in (0, 1e9], e.g. --duration 215")
        }
        guard MPRISNames.isValidPlayerName(name) else { throw ValidationError(MPRISError.invalidPlayerName(name).description) }
    }

    func run() async throws {
        #if os(Linux)
        let queue = NowPlayingQueue(title: title, artist: artist, album: album, duration: duration, count: tracks)
        let player: MPRISPlayer
        do {
            player = try MPRISPlayer.start(name: name, identity: "extdisplay nowplaying (\(title))",
                                           capabilities: queue.capabilities)
        } catch {
            StandardStreams.errorLine("extdisplay nowplaying: \(error.description)")
            throw ExitCode(1)
        }
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { player.stop() }
        defer { signals.cancel() }
        StandardStreams.errorLine("extdisplay nowplaying: serving \(player.busName); Ctrl-C to stop")

        var queueState = queue
        let session = NowPlayingSession(clock: player.clock, publisher: player)
        session.load(queueState.currentItem, playing: true)
        for await received in player.commands {
            // One unbuffered write per line: each command is on stdout as soon as it arrives.
            StandardStreams.line(RemoteCommandLine.jsonLine(for: received))
            guard received.decision.status == .success, let action = received.decision.action else { continue }
            switch action {
            case .nextTrack, .previousTrack:
                let wasPlaying = session.state.status == .playing
                queueState.move(forward: action == .nextTrack)
                player.update(capabilities: queueState.capabilities)
                session.load(queueState.currentItem, playing: wasPlaying)
            default:
                session.apply(action)
            }
        }
        if let failure = player.failure {
            StandardStreams.errorLine("extdisplay nowplaying: \(failure.description)")
            throw ExitCode(1)
        }
        #else
        StandardStreams.errorLine("extdisplay nowplaying: \(MPRISError.unsupportedPlatform.description)")
        throw ExitCode(1)
        #endif
    }
}

/// The demo queue: `count` tracks sharing the options, the first titled as given and the others numbered.
struct NowPlayingQueue {
    let title: String
    let artist: String?
    let album: String?
    let duration: Double?
    let count: Int
    private(set) var index = 1

    init(title: String, artist: String?, album: String?, duration: Double?, count: Int) {
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
        self.count = count
    }

    var currentItem: NowPlayingMetadata {
        NowPlayingMetadata(identifier: "track-\(index)", title: index == 1 ? title : "\(title) (\(index))",
                           artist: artist, album: album, duration: duration)
    }

    var capabilities: PlaybackCapabilities {
        PlaybackCapabilities(hasNextItem: index < count, hasPreviousItem: index > 1,
                             supportedRates: 0.5...2, skipIntervals: [15])
    }

    mutating func move(forward: Bool) {
        index = min(count, max(1, index + (forward ? 1 : -1)))
    }
}

/// One remote command as printed on stdout: compact JSON with sorted keys, one object per line.
struct RemoteCommandLine: Encodable {
    var command: String
    var argument: Double?
    var status: String
    var action: String?
    var target: Double?

    static func jsonLine(for received: ReceivedRemoteCommand) -> String {
        var line = RemoteCommandLine(command: received.command.kind.rawValue, status: received.decision.status.rawValue)
        switch received.command {
        case .skipForward(let seconds), .skipBackward(let seconds), .seek(by: let seconds),
             .changePosition(to: let seconds), .changeRate(to: let seconds):
            line.argument = seconds
        default: break
        }
        switch received.decision.action {
        case .seek(to: let position)?: (line.action, line.target) = ("seek", position)
        case .setRate(let rate)?: (line.action, line.target) = ("setRate", rate)
        case let action?: line.action = "\(action)"
        case nil: break
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(line)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}

/// Runs `handler` when any of `signals` arrives (instead of the default termination).
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable () -> Void) {
        // A parent may have left these signals blocked (a blocked mask is inherited across exec); unblock
        // them on this thread so that Ctrl-C and SIGTERM always reach the handler.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        signals.forEach { sigaddset(&unblocked, $0) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
