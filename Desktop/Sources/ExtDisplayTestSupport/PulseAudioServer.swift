import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private PulseAudio server for one test: `pulseaudio -n` with only a null sink (`null`, whose monitor
/// `null.monitor` records what is played) and the native protocol on a socket in a folder of its own (its own
/// `XDG_RUNTIME_DIR` and `HOME`), so tests never touch the user's sound. Killed by its pid with ``stop()`` (also
/// at deinit).
public final class PulseAudioServer: @unchecked Sendable {
    /// `PULSE_SERVER` for clients: the server's socket.
    public let server: String
    private let process: ChildProcess
    private let folder: URL

    /// The environment entries that point PulseAudio clients (pulsesink, parec, pactl) at this server.
    public var environment: [String: String] { ["PULSE_SERVER": server] }

    private init(server: String, process: ChildProcess, folder: URL) {
        self.server = server
        self.process = process
        self.folder = folder
    }

    /// Starts a server and waits (at most 20 s, a hang guard) until it answers `pactl info`; throws (failing the
    /// test, never skipping it) when pulseaudio or pactl is missing or it does not start.
    public static func start() throws -> PulseAudioServer {
        let missing = ["pulseaudio", "pactl", "parec"].filter { !Shell.has($0) }
        guard missing.isEmpty else {
            throw SupportError("missing \(missing.joined(separator: ", ")): run scripts/install-deps.sh "
                               + "(installs pulseaudio and pulseaudio-utils)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-pulse-\(UUID().uuidString)")
        let runtime = folder.appendingPathComponent("run"), home = folder.appendingPathComponent("home")
        for made in [runtime, home] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let socket = runtime.appendingPathComponent("pulse/native").path
        let process = try ChildProcess(["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1",
                                        "--use-pid-file=no", "--disallow-exit", "--log-target=stderr",
                                        "-L", "module-null-sink sink_name=null",
                                        "-L", "module-native-protocol-unix socket=\(socket)"],
                                       environment: ["XDG_RUNTIME_DIR": runtime.path, "HOME": home.path,
                                                     "DBUS_SESSION_BUS_ADDRESS": nil, "PULSE_SERVER": nil])
        let server = PulseAudioServer(server: "unix:\(socket)", process: process, folder: folder)
        let answered = poll(20, every: 0.1) {
            (try? Shell.run(["pactl", "info"], environment: server.environment).status) == 0
        }
        guard answered else {
            let errors = process.stderr
            server.stop()
            throw SupportError("pulseaudio did not answer within 20 s: \(errors)")
        }
        return server
    }

    /// Kills the server, once.
    public func stop() {
        process.signal(SIGKILL)
        _ = process.exitStatus(timeout: 10)
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
