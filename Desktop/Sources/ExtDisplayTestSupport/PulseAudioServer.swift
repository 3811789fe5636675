import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private sound server speaking PulseAudio's protocol for one test, in a folder of its own (its own
/// `XDG_RUNTIME_DIR` and `HOME`), so tests never touch the user's sound: either PulseAudio itself (`pulseaudio -n`
/// with only a null sink and the native protocol) or PipeWire (`pipewire`, `wireplumber` and `pipewire-pulse` on a
/// private session bus, a null sink loaded through `pactl` and made the default). Either way the sink is `null` and
/// its monitor `null.monitor` records what is played. Killed by pid with ``stop()`` (also at deinit).
public final class PulseAudioServer: @unchecked Sendable {
    /// Which server speaks the protocol.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// `pulseaudio`.
        case pulseAudio
        /// PipeWire with `pipewire-pulse` (and WirePlumber as its session manager).
        case pipeWire

        public var description: String { rawValue }
    }

    /// `PULSE_SERVER` for clients: the server's socket.
    public let server: String
    private let processes: [ChildProcess]
    private let bus: SessionBus?
    private let folder: URL

    /// The environment entries that point PulseAudio clients (pulsesink, parec, pactl) at this server.
    public var environment: [String: String] { ["PULSE_SERVER": server] }

    private init(server: String, processes: [ChildProcess], bus: SessionBus?, folder: URL) {
        self.server = server
        self.processes = processes
        self.bus = bus
        self.folder = folder
    }

    /// Starts a server and waits (at most 20 s, a hang guard) until it answers `pactl info` with the sink `null`
    /// as its default; throws (failing the test, never skipping it) when a program is missing or it does not start.
    public static func start(_ kind: Kind = .pulseAudio) throws -> PulseAudioServer {
        let programs = kind == .pulseAudio ? ["pulseaudio"] : ["pipewire", "wireplumber", "pipewire-pulse"]
        let missing = (programs + ["pactl", "parec"]).filter { !Shell.has($0) }
        guard missing.isEmpty else {
            throw SupportError("missing \(missing.joined(separator: ", ")): run scripts/install-deps.sh "
                               + "(installs pulseaudio, pulseaudio-utils, pipewire, wireplumber and pipewire-pulse)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-pulse-\(UUID().uuidString)")
        let runtime = folder.appendingPathComponent("run"), home = folder.appendingPathComponent("home")
        for made in [runtime, home] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let socket = runtime.appendingPathComponent("pulse/native").path
        var environment: [String: String?] = ["XDG_RUNTIME_DIR": runtime.path, "HOME": home.path,
                                              "DBUS_SESSION_BUS_ADDRESS": nil, "PULSE_SERVER": nil]
        var processes: [ChildProcess] = []
        var bus: SessionBus?
        let server: PulseAudioServer
        switch kind {
        case .pulseAudio:
            processes.append(try ChildProcess(["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1",
                                               "--use-pid-file=no", "--disallow-exit", "--log-target=stderr",
                                               "-L", "module-null-sink sink_name=null",
                                               "-L", "module-native-protocol-unix socket=\(socket)"],
                                              environment: environment))
            server = PulseAudioServer(server: "unix:\(socket)", processes: processes, bus: nil, folder: folder)
        case .pipeWire:
            // WirePlumber links streams to sinks and wants a session bus; PipeWire's own socket comes first.
            let started = try SessionBus.start()
            bus = started
            environment["DBUS_SESSION_BUS_ADDRESS"] = started.address
            processes.append(try ChildProcess(["pipewire"], environment: environment))
            let pipewireSocket = runtime.appendingPathComponent("pipewire-0").path
            _ = poll(10) { FileManager.default.fileExists(atPath: pipewireSocket) }
            processes.append(try ChildProcess(["wireplumber"], environment: environment))
            processes.append(try ChildProcess(["pipewire-pulse"], environment: environment))
            server = PulseAudioServer(server: "unix:\(socket)", processes: processes, bus: bus, folder: folder)
        }
        let answered = poll(20, every: 0.1) {
            (try? Shell.run(["pactl", "info"], environment: server.environment).status) == 0
        }
        if answered, kind == .pipeWire {
            _ = try? Shell.run(["pactl", "load-module", "module-null-sink", "sink_name=null"], environment: server.environment)
        }
        let ready = answered && poll(20, every: 0.1) {
            if kind == .pipeWire {
                _ = try? Shell.run(["pactl", "set-default-sink", "null"], environment: server.environment)
            }
            return (try? Shell.run(["pactl", "info"], environment: server.environment).output)?
                .contains("Default Sink: null") == true
        }
        guard ready else {
            let errors = processes.map { $0.stderr }.joined(separator: "\n")
            server.stop()
            throw SupportError("\(kind) did not answer with the null sink as its default within 20 s: \(errors)")
        }
        return server
    }

    /// Stops the process that speaks the protocol (`pulseaudio`, or `pipewire-pulse`) for `seconds` (SIGSTOP,
    /// then SIGCONT; at most 10 s), as a machine too busy to run it does; returns when it runs again.
    public func stallProtocolServer(for seconds: Double) {
        guard let speaker = processes.last else { return }
        speaker.signal(SIGSTOP)
        usleep(UInt32(max(0, min(seconds.isFinite ? seconds : 0, 10)) * 1_000_000))
        speaker.signal(SIGCONT)
    }

    /// Kills the server's processes (and its bus), once.
    public func stop() {
        for process in processes.reversed() {
            process.signal(SIGKILL)
            _ = process.exitStatus(timeout: 10)
        }
        bus?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
