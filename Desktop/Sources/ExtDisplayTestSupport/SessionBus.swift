import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private D-Bus session bus (`dbus-daemon --session`) for one test, so tests never touch the user's own
/// session bus; killed by its pid with ``stop()`` (also at deinit). Children of the test process inherit a signal
/// mask that may block SIGTERM, so it is SIGKILL.
public final class SessionBus: @unchecked Sendable {
    /// The bus address (`unix:path=…`), for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    /// The daemon's process id.
    public let pid: pid_t

    private init(address: String, pid: pid_t) {
        self.address = address
        self.pid = pid
    }

    /// Starts a daemon; throws (failing the test, never skipping it) when dbus-daemon is missing or does not
    /// start. With `activation` false the bus starts no service on demand (no service folders): only the
    /// programs a test starts itself own names on it, so nothing runs that the test cannot stop, and a call to a
    /// name nobody owns fails at once (`ServiceUnknown`) instead of starting the machine's installed service.
    public static func start(activation: Bool = true) throws -> SessionBus {
        guard Shell.has("dbus-daemon") else {
            throw SupportError("dbus-daemon is missing: run scripts/install-deps.sh (installs dbus-daemon, dbus-bin, playerctl)")
        }
        var configuration = ["--session"]
        var file: URL?
        if !activation {
            let written = FileManager.default.temporaryDirectory.appendingPathComponent("edk-bus-\(UUID().uuidString).conf")
            try Data(Self.noActivationConfiguration.utf8).write(to: written)
            configuration = ["--config-file=\(written.path)"]
            file = written
        }
        // Read once at the daemon's start (and on SIGHUP, which no test sends).
        defer { if let file { try? FileManager.default.removeItem(at: file) } }
        // --fork: the daemon outlives the launcher, which prints the address and pid and exits; the output goes
        // to a file (Shell.run), so no pipe waits for the daemon's end.
        let started = try Shell.run(["dbus-daemon"] + configuration + ["--print-address=1", "--print-pid=1", "--fork"])
        let lines = started.output.split(separator: "\n").map(String.init)
        guard started.status == 0, lines.count >= 2, lines[0].hasPrefix("unix:"), let pid = pid_t(lines[1]) else {
            throw SupportError("dbus-daemon did not start (status \(started.status)): it printed \(started.output.debugDescription)")
        }
        return SessionBus(address: lines[0], pid: pid)
    }

    /// A session bus's configuration without `<standard_session_servicedirs/>`: the same policy as Debian's
    /// `session.conf` (anyone may own and call any name), no activatable services.
    static let noActivationConfiguration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """

    /// The test process's environment pointed at this bus (and away from any X display).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment.removeValue(forKey: "DISPLAY")
        return environment
    }

    /// Kills the daemon, once: it is not our child (it forked), so once it is gone its pid may be another
    /// process's, which a second signal would hit.
    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first { kill(pid, SIGKILL) }
    }
    private let lock = NSLock()
    private var stopped = false

    deinit { stop() }
}
