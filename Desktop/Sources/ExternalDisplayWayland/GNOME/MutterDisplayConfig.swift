import ExternalDisplayKit
import Foundation

/// Mutter's `org.gnome.Mutter.DisplayConfig` on the session bus: what GNOME's compositor tells a client that
/// Wayland does not (which monitor is primary, each mode's id) and the one way it lets a client switch modes
/// (`ApplyMonitorsConfig` with method 1, temporary: not saved to `monitors.xml`).
///
/// Only believed when it describes the compositor the Wayland connection reached: every `wl_output` name must
/// be one of its connectors (a session bus of another session would name others).
final class MutterDisplayConfig {
    static let service = "org.gnome.Mutter.DisplayConfig"
    static let path = "/org/gnome/Mutter/DisplayConfig"
    /// `ApplyMonitorsConfig`'s temporary method (1): applied now, never saved, gone at the next session.
    static let temporary: UInt32 = 1

    private let connection: DBusConnection

    private init(connection: DBusConnection) { self.connection = connection }

    /// Connects to the session bus at `busAddress` (default: `DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`), without asking Mutter anything yet.
    convenience init(busAddress: String?) throws(MutterConfigError) {
        do { self.init(connection: try DBusConnection(address: busAddress)) } catch { throw .bus(error) }
    }

    /// The interface when Mutter answers on the session bus and names every output in `outputNames`; nil
    /// otherwise (no session bus, another compositor, another session).
    static func open(matching outputNames: [String]) -> MutterDisplayConfig? {
        guard !outputNames.isEmpty, let connection = try? DBusConnection() else { return nil }
        let config = MutterDisplayConfig(connection: connection)
        guard let state = try? config.currentState() else {
            connection.close()
            return nil
        }
        let connectors = Set(state.monitors.map(\.connector))
        guard outputNames.allSatisfy(connectors.contains) else {
            connection.close()
            return nil
        }
        return config
    }

    /// Mutter's monitors now.
    func currentState() throws(MutterConfigError) -> MutterDisplayState {
        let reply: [DBusValue]
        do { reply = try connection.call(Self.service, Self.path, Self.service, "GetCurrentState", timeout: 2) } catch {
            throw .bus(error)
        }
        do { return try MutterDisplayState.decode(reply) } catch { throw .malformed(error.description) }
    }

    /// Puts `connector` in `mode` (an offered mode of that size, the closest refresh rate) as a temporary
    /// configuration; with `position`, also moves its logical monitor there (what a restore does).
    func apply(_ mode: DisplayMode, on connector: String, position: (x: Int, y: Int)? = nil) throws(MutterConfigError) {
        let state = try currentState()
        guard let monitor = state.monitors.first(where: { $0.connector == connector }) else {
            throw .unknownConnector(connector)
        }
        guard let chosen = state.mode(mode, on: connector) else {
            throw .notOffered(connector, offered: monitor.modes.map(\.displayMode))
        }
        guard let arguments = state.applyArguments(setting: connector, to: chosen.id, method: Self.temporary,
                                                   position: position) else {
            throw .unknownConnector(connector)
        }
        do {
            _ = try connection.call(Self.service, Self.path, Self.service, "ApplyMonitorsConfig", arguments, timeout: 10)
        } catch {
            throw .refused(connector, error.description)
        }
    }

    /// Closes the bus connection.
    func close() { connection.close() }
}

/// What went wrong talking to Mutter's display configuration.
enum MutterConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    case bus(DBusFailure)
    case malformed(String)
    case unknownConnector(String)
    case notOffered(String, offered: [DisplayMode])
    case refused(String, String)

    var description: String {
        switch self {
        case .bus(let failure): "Mutter's DisplayConfig did not answer: \(failure)"
        case .malformed(let why): "Mutter's DisplayConfig answered something unexpected: \(why)"
        case .unknownConnector(let name): "Mutter has no monitor \(name) in its layout"
        case .notOffered(let name, let offered):
            "\(name) offers only \(offered.map(\.description).joined(separator: ", "))"
        case .refused(let name, let why): "Mutter refused the configuration for \(name): \(why)"
        }
    }
}
