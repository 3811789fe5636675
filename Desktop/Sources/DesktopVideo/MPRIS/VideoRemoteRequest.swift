public import ExternalDisplayMedia

/// What a media widget, `playerctl` or a media key asked `extdisplay play` for over MPRIS, in arrival order.
public enum VideoRemoteRequest: Sendable, Hashable {
    /// A transport command (play, pause, seek, position, rate …) the bus side found actionable.
    case command(RemoteCommand)
    /// A client set `Volume` to this (not yet clamped).
    case volume(Double)
    /// A client called `Quit`.
    case quit
    /// A command the bus side did not pass on, with its status (a `SetPosition` for another track id).
    case ignored(RemoteCommand, RemoteCommandStatus)
}
