import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private PipeWire daemon with WirePlumber (its session manager: it links a consumer to the node it asks for)
/// for one test, in a folder of its own (its own `XDG_RUNTIME_DIR` and `HOME`) on a private session bus, so tests
/// never touch the user's PipeWire. ``dump()`` reads the graph with `pw-dump` (a client that is not ours).
/// Killed by pid with ``stop()`` (also at deinit).
public final class PipeWireSession: @unchecked Sendable {
    /// The runtime folder holding the daemon's socket (`pipewire-0`): a client's `XDG_RUNTIME_DIR`.
    public let runtimeDirectory: String
    private let home: String
    private let folder: URL
    private let bus: SessionBus
    private let processes: [ChildProcess]

    /// What a PipeWire client (extdisplay, `gst-launch-1.0`, `pw-dump`) needs to reach this daemon, with no X or
    /// Wayland display (a presenter started with it runs its console in the terminal).
    public var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory, "PIPEWIRE_RUNTIME_DIR": runtimeDirectory, "HOME": home,
         "DBUS_SESSION_BUS_ADDRESS": bus.address]
    }

    /// The same for ``ChildProcess`` and `Process`: also unsets what would point elsewhere.
    public var childEnvironment: [String: String?] {
        var out: [String: String?] = environment.mapValues { $0 }
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "PIPEWIRE_REMOTE", "PULSE_SERVER"] { out[key] = .some(nil) }
        return out
    }

    private init(runtimeDirectory: String, home: String, folder: URL, bus: SessionBus, processes: [ChildProcess]) {
        self.runtimeDirectory = runtimeDirectory
        self.home = home
        self.folder = folder
        self.bus = bus
        self.processes = processes
    }

    /// Starts the bus, `pipewire`, then `wireplumber`; returns once `pw-dump` answers with WirePlumber among
    /// the clients (hang guard 20 s). Throws (failing the test, never skipping it) when a program is missing or
    /// does not start. `busActivation` false: the session bus starts no installed service on demand (see
    /// ``SessionBus/start(activation:)``).
    public static func start(busActivation: Bool = true) throws -> PipeWireSession {
        let missing = ["pipewire", "wireplumber", "pw-dump"].filter { !Shell.has($0) }
        guard missing.isEmpty else {
            throw SupportError("missing \(missing.joined(separator: ", ")): run scripts/install-deps.sh "
                               + "(installs pipewire, wireplumber and pipewire-bin)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edk-pipewire-\(UUID().uuidString)")
        let runtime = folder.appendingPathComponent("run"), home = folder.appendingPathComponent("home")
        for made in [runtime, home] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let bus = try SessionBus.start(activation: busActivation)
        var environment: [String: String?] = ["XDG_RUNTIME_DIR": runtime.path, "PIPEWIRE_RUNTIME_DIR": runtime.path,
                                              "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": bus.address]
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "PIPEWIRE_REMOTE"] { environment[key] = .some(nil) }
        var processes = [try ChildProcess(["pipewire"], environment: environment)]
        let socket = runtime.appendingPathComponent("pipewire-0").path
        guard poll(20, { FileManager.default.fileExists(atPath: socket) }) else {
            let errors = processes[0].stderr
            bus.stop()
            throw SupportError("pipewire made no socket at \(socket) within 20 s: \(errors)")
        }
        processes.append(try ChildProcess(["wireplumber"], environment: environment))
        let session = PipeWireSession(runtimeDirectory: runtime.path, home: home.path, folder: folder, bus: bus,
                                      processes: processes)
        let ready = poll(20, every: 0.1) {
            session.dump().contains { $0.type.hasSuffix("Client") && $0.props["application.name"] == "WirePlumber" }
        }
        guard ready else {
            let errors = processes.map(\.stderr).joined(separator: "\n")
            session.stop()
            throw SupportError("WirePlumber did not join the private PipeWire within 20 s: \(errors)")
        }
        return session
    }

    /// One object of the graph as `pw-dump` prints it.
    public struct Object: Sendable {
        /// Its id.
        public var id: Int
        /// `PipeWire:Interface:Node` …
        public var type: String
        /// Its properties, as strings.
        public var props: [String: String]
        /// Its node state (`suspended`, `idle`, `running`), for a node.
        public var state: String?
        /// The raw video formats a node offers (`EnumFormat`'s `format`, e.g. `I420`) and the one negotiated
        /// (`Format`), when it has them.
        public var offeredFormats: [String], negotiatedFormat: String?
    }

    /// The graph now (`pw-dump`); empty when it does not answer.
    public func dump() -> [Object] {
        guard let result = try? Shell.run(["timeout", "-s", "KILL", "10", "pw-dump"], environment: environment),
              result.status == 0, let data = result.output.data(using: .utf8),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return list.compactMap { object in
            guard let id = object["id"] as? Int, let type = object["type"] as? String else { return nil }
            let info = object["info"] as? [String: Any]
            let props = (info?["props"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
            let params = info?["params"] as? [String: Any]
            let formats = { (key: String) in
                (params?[key] as? [[String: Any]] ?? []).compactMap { $0["format"] as? String }
            }
            return Object(id: id, type: type, props: props, state: info?["state"] as? String,
                          offeredFormats: formats("EnumFormat"), negotiatedFormat: formats("Format").first)
        }
    }

    /// The node named `name` now, if there is one.
    public func node(named name: String) -> Object? {
        dump().first { $0.type.hasSuffix("Node") && $0.props["node.name"] == name }
    }

    /// Kills WirePlumber, the daemon and the bus, once.
    public func stop() {
        for process in processes.reversed() {
            process.signal(SIGKILL)
            _ = process.exitStatus(timeout: 10)
        }
        bus.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
