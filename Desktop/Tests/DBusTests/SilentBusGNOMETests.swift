#if os(Linux)
import ExtDisplayTestSupport
@testable import ExternalDisplayWayland
import Foundation
import Testing

/// The GNOME display configuration's connection (`org.gnome.Mutter.DisplayConfig`, read when `present` runs on a
/// Wayland session) on a session bus that accepts and never answers (``SilentBus``): the handshake is bounded. Before,
/// sd-bus began the handshake and its first call waited for the 90 s authentication timeout, whatever the call's
/// own 5 s.
@Suite("GNOME's display configuration on a silent session bus")
struct SilentBusGNOMETests {
    @Test func connectingGivesUpAtTheHandshakeTimeoutWithAMessage() throws {
        let bus = try SilentBus()
        defer { bus.stop() }
        let start = DispatchTime.now()
        do {
            let connection = try DBusConnection(address: bus.address, handshakeTimeout: 1)
            connection.close()
            Issue.record("connected to a bus that never answers")
        } catch {
            #expect(error.description == "the D-Bus session bus at \(bus.address) did not answer within 1 s "
                    + "(authentication and Hello); check DBUS_SESSION_BUS_ADDRESS", "\(error)")
        }
        let seconds = SilentBusTests.seconds(since: start)
        // A hang guard, not a speed test: sd-bus alone waits 90 s.
        #expect(seconds < 30, "took \(seconds) s")
        #expect(bus.connections == 1, "the connection reached the silent bus")
    }

    @Test func theDisplayConfigurationOnASilentBusFailsAsABusProblem() throws {
        let bus = try SilentBus()
        defer { bus.stop() }
        do {
            _ = try MutterDisplayConfig(busAddress: bus.address)
            Issue.record("connected to a bus that never answers")
        } catch {
            guard case .bus(let failure) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(failure.message.contains("did not answer within 5 s"), "\(failure)")
        }
    }
}
#endif
