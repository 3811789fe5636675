/// Why an MPRIS player could not start or keep serving; each message says what to do about it.
public enum MPRISError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `DBUS_SESSION_BUS_ADDRESS` is not set: there is no session bus to serve on.
    case noSessionBus
    /// The session bus at `address` could not be reached.
    case sessionBusUnreachable(address: String, reason: String)
    /// The session bus at `address` accepted the connection but did not answer `operation` within `seconds`.
    case busTimedOut(address: String, operation: String, seconds: Double)
    /// `name` cannot be used in a bus name.
    case invalidPlayerName(String)
    /// Another program already owns the bus name.
    case nameTaken(busName: String)
    /// A D-Bus operation failed with an errno-style code.
    case busFailure(operation: String, reason: String)
    /// MPRIS players exist only on Linux.
    case unsupportedPlatform

    /// A one-line explanation with the fix.
    public var description: String {
        switch self {
        case .noSessionBus:
            "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set; run inside a desktop session or start one with `dbus-run-session -- <command>`"
        case .sessionBusUnreachable(let address, let reason):
            "cannot reach the D-Bus session bus at \(address) (\(reason)); check DBUS_SESSION_BUS_ADDRESS or start a bus with `dbus-run-session -- <command>`"
        case .busTimedOut(let address, let operation, let seconds):
            "the D-Bus session bus at \(address) did not answer \(operation) within \(String(format: "%g", seconds)) s; "
                + "it may be stuck: check DBUS_SESSION_BUS_ADDRESS or restart the session"
        case .invalidPlayerName(let name):
            "invalid player name \"\(name)\": use ASCII letters, digits, '_' and '-' in dot-separated parts that do not start with a digit"
        case .nameTaken(let busName):
            "the bus name \(busName) is already taken by another player; choose another name (for example --name extdisplay2)"
        case .busFailure(let operation, let reason):
            "D-Bus \(operation) failed (\(reason)); is the session bus still running?"
        case .unsupportedPlatform:
            "MPRIS players are served on Linux only; use the Now Playing binding of your platform instead"
        }
    }
}
