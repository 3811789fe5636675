import Foundation
import Testing

// Hostile numbers over a real bus (the model's own checks: ExternalDisplayMPRISTests/MPRISHostileNumberTests).

/// The same on a private session bus: `Properties.Set Rate` to NaN or ±inf gets InvalidArgs from the real
/// player, and the rate in force does not change.
extension MPRISPlayerIntegrationTests {
    @Test(arguments: ["nan", "inf", "-inf"])
    func nonFiniteRateOverTheBusIsInvalidArgs(_ rate: String) throws {
        try withPlayer { bus, harness in
            let set = try bus.call(Self.busName, "org.freedesktop.DBus.Properties.Set",
                                   "string:org.mpris.MediaPlayer2.Player", "string:Rate", "variant:double:\(rate)")
            #expect(set.status != 0, "Rate \(rate) accepted")
            #expect(set.error.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(set.error)")
            #expect(try bus.playerProperty(Self.busName, "Rate") == "double 1")
            #expect(harness.received.isEmpty)
        }
    }
}
