import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The desktop's camera portal as a browser reaches it: Debian's `xdg-desktop-portal` (1.16) and its permission
/// store (`xdg-permission-store`) on a ``PipeWireSession``'s private session bus, with the camera granted to
/// unsandboxed (host) applications in the real permission store, through its D-Bus API (`SetPermission`). Killed by
/// pid with ``stop()`` (also at deinit).
///
/// What 1.16 needs, read from its source (`src/xdg-desktop-portal.c`, `camera.c`, `device.c`, `permissions.c`):
/// - It exports `org.freedesktop.portal.Camera` only when some installed `.portal` file declares an
///   `org.freedesktop.impl.portal.Access` backend (Debian's `xdg-desktop-portal-gtk` does). The backend itself is
///   asked only when the permission store has no answer (`devices`/`camera` for the app id, `""` for a host
///   application): with "yes" stored, `AccessCamera` answers at once and the backend never runs.
/// - The session bus must not start that backend on demand where it cannot run: with no display,
///   `xdg-desktop-portal-gtk` exits at start, the portal's proxies for it are then missing, and 1.16 crashes on
///   `AccessCamera` (SIGSEGV in its request thread). So the session's bus is one without service activation
///   (``PipeWireSession/start(busActivation:)`` with false): the proxies are made for a name nobody owns, as when
///   the backend is simply not running.
/// - `OpenPipeWireRemote` hands out a PipeWire connection from the portal's own process; PipeWire's
///   `module-portal` (which watches the session bus for the portal's name) marks it `pipewire.access=portal`, and
///   WirePlumber's `access-portal.lua` gives a host application's connection (app id `""`) every node.
public final class CameraPortal: @unchecked Sendable {
    /// Debian's paths of the two programs.
    public static let portalProgram = "/usr/libexec/xdg-desktop-portal"
    /// The permission store (Debian's `xdg-desktop-portal` package ships it).
    public static let permissionStoreProgram = "/usr/libexec/xdg-permission-store"
    /// Where 1.16 reads its backends' declarations (`XDG_DESKTOP_PORTAL_DIR` unset).
    public static let backendsFolder = "/usr/share/xdg-desktop-portal/portals"

    private let environment: [String: String]
    private let processes: [ChildProcess]
    private let lock = NSLock()
    private var stopped = false

    private init(environment: [String: String], processes: [ChildProcess]) {
        self.environment = environment
        self.processes = processes
    }

    /// What the portal printed (`--verbose`), for failure messages.
    public var portalLog: String { processes.last?.stderr ?? "" }

    /// Starts the permission store, stores "yes" for host applications' camera, then starts the portal; returns
    /// once the portal owns `org.freedesktop.portal.Desktop` and answers for `org.freedesktop.portal.Camera`
    /// (hang guards 20 s each). Throws (failing the test) when a program or the backend declaration is missing,
    /// or a step fails, saying which.
    public static func start(on session: PipeWireSession) throws -> CameraPortal {
        for program in [portalProgram, permissionStoreProgram] where !FileManager.default.isExecutableFile(atPath: program) {
            throw SupportError("\(program) is missing: run scripts/install-deps.sh (Debian packages xdg-desktop-portal, xdg-desktop-portal-gtk)")
        }
        let declarations = (try? FileManager.default.contentsOfDirectory(atPath: backendsFolder)) ?? []
        let access = declarations.filter { $0.hasSuffix(".portal") }.filter { name in
            let text = (try? String(contentsOfFile: "\(backendsFolder)/\(name)", encoding: .utf8)) ?? ""
            return text.contains("org.freedesktop.impl.portal.Access")
        }
        guard !access.isEmpty else {
            throw SupportError("no .portal file in \(backendsFolder) declares org.freedesktop.impl.portal.Access, so "
                               + "xdg-desktop-portal 1.16 would not export its Camera portal: run scripts/install-deps.sh "
                               + "(Debian package xdg-desktop-portal-gtk)")
        }
        var childEnvironment = session.childEnvironment
        childEnvironment["XDG_CURRENT_DESKTOP"] = .some(nil)
        childEnvironment["XDG_DESKTOP_PORTAL_DIR"] = .some(nil)
        let bus = session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let store = try ChildProcess([permissionStoreProgram, "--replace"], environment: childEnvironment)
        var processes = [store]
        do {
            do {
                try KWinCompositor.waitForOwner(of: "org.freedesktop.impl.portal.PermissionStore", busAddress: bus, timeout: 20)
            } catch {
                throw SupportError("xdg-permission-store: \(error); it printed: \(store.stderr)")
            }
            try call(session.environment, "org.freedesktop.impl.portal.PermissionStore",
                     "/org/freedesktop/impl/portal/PermissionStore", "org.freedesktop.impl.portal.PermissionStore.SetPermission",
                     ["string:devices", "boolean:true", "string:camera", "string:", "array:string:yes"])
            let portal = try ChildProcess([portalProgram, "--verbose"], environment: childEnvironment)
            processes.append(portal)
            do {
                try KWinCompositor.waitForOwner(of: "org.freedesktop.portal.Desktop", busAddress: bus, timeout: 20)
            } catch {
                throw SupportError("xdg-desktop-portal: \(error); it printed: \(portal.stderr.suffix(2_000))")
            }
            let started = CameraPortal(environment: session.environment, processes: processes)
            do {
                _ = try started.property("version")
            } catch {
                throw SupportError("xdg-desktop-portal runs but has no Camera portal (\(error)); it printed: "
                                   + "\(portal.stderr.suffix(2_000))")
            }
            return started
        } catch {
            for process in processes.reversed() { process.signal(SIGKILL); _ = process.exitStatus(timeout: 10) }
            throw error
        }
    }

    /// The Camera portal's `IsCameraPresent`. 1.16 counts only the `Video/Source` nodes with `media.role`
    /// `Camera` that exist when it starts (it drops its PipeWire registry after the first round trip), so a camera
    /// published later does not change it; Chromium does not read it.
    public func isCameraPresent() throws -> Bool {
        try property("IsCameraPresent").contains("boolean true")
    }

    /// Whether the portal process still runs (1.16 crashes on `AccessCamera` where its backend proxies are missing).
    public var portalIsRunning: Bool { !(processes.last?.hasEnded ?? true) }

    private func property(_ name: String) throws -> String {
        try Self.call(environment, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                      "org.freedesktop.DBus.Properties.Get", ["string:org.freedesktop.portal.Camera", "string:\(name)"])
    }

    /// One `dbus-send` call on the session's bus; its printed reply, or an error with what it said.
    @discardableResult
    private static func call(_ environment: [String: String], _ destination: String, _ path: String, _ method: String,
                             _ arguments: [String]) throws -> String {
        let sender = try ChildProcess(["dbus-send", "--session", "--print-reply", "--reply-timeout=10000",
                                       "--dest=\(destination)", path, method] + arguments,
                                      environment: environment.mapValues { $0 })
        guard let status = sender.exitStatus(timeout: 20) else {
            sender.signal(SIGKILL)
            throw SupportError("dbus-send \(method) to \(destination) did not end within 20 s (hang guard)")
        }
        guard status == 0 else {
            throw SupportError("dbus-send \(method) to \(destination) failed (status \(status)): \(sender.stderr)")
        }
        return sender.stdout
    }

    /// Kills the portal and the permission store, once.
    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        guard first else { return }
        for process in processes.reversed() {
            process.signal(SIGKILL)
            _ = process.exitStatus(timeout: 10)
        }
    }

    deinit { stop() }
}
