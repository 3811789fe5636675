/// Where `present` runs: an X server, a Wayland compositor, or the simulator (headless).
public enum PresenterBackend: String, Hashable, Sendable {
    /// X11 RandR and SDL's X11 driver (`DISPLAY`).
    case x11
    /// The Wayland output API and SDL's Wayland driver (`WAYLAND_DISPLAY`).
    case wayland
    /// The simulator: snapshots, no display server.
    case headless

    /// What the user asked for with `--backend`.
    public enum Request: String, Hashable, Sendable, CaseIterable {
        /// Wayland when `WAYLAND_DISPLAY` is set, else X11 when `DISPLAY` is, else headless.
        case auto
        /// X11 only.
        case x11
        /// Wayland only.
        case wayland
    }

    /// The backend for a request in an environment; a forced backend whose server is not there is an error
    /// saying what to set. `simulate` (`--simulate`) always means headless.
    public static func choose(_ request: Request, environment: [String: String],
                              simulate: Bool = false) -> Result<PresenterBackend, BackendUnavailable> {
        if simulate { return .success(.headless) }
        let servers = Self.servers(in: environment)
        let wayland = servers.contains(.wayland), x11 = servers.contains(.x11)
        switch request {
        case .wayland:
            guard wayland else {
                return .failure(BackendUnavailable(description: "--backend wayland: WAYLAND_DISPLAY is not set (e.g. "
                                                   + "wayland-1); run inside a Wayland session or use --backend auto"))
            }
            return .success(.wayland)
        case .x11:
            guard x11 else {
                return .failure(BackendUnavailable(description: "--backend x11: DISPLAY is not set; start X or use --backend auto"))
            }
            return .success(.x11)
        case .auto:
            return .success(wayland ? .wayland : x11 ? .x11 : .headless)
        }
    }
}

extension PresenterBackend {
    /// The display servers `environment` names, in the order `auto` prefers them: Wayland when `WAYLAND_DISPLAY` is
    /// set (not empty), X11 when `DISPLAY` is. Empty: no display server (headless, or browser pages only). Every
    /// command reads the environment through this, so `list`, `watch`, `present` and `play` agree.
    public static func servers(in environment: [String: String]) -> [PresenterBackend] {
        var servers: [PresenterBackend] = []
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty { servers.append(.wayland) }
        if !(environment["DISPLAY"] ?? "").isEmpty { servers.append(.x11) }
        return servers
    }
}

/// A forced backend whose display server is not there, with what to do.
public struct BackendUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is missing and what to do.
    public var description: String
}
