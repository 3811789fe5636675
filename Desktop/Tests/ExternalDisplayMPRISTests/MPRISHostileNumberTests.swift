import ExternalDisplayMedia
import Foundation
import Testing
@testable import ExternalDisplayMPRIS

/// Non-finite and absurd numbers from the bus or the command line: refused with a D-Bus error, never a trap,
/// never a silent success.
@Suite("MPRIS: hostile numbers")
struct MPRISHostileNumberTests {
    var model = MPRISPlayerModel(
        identity: "Test",
        nowPlaying: NowPlayingState(metadata: NowPlayingMetadata(identifier: "t", title: "T", duration: 300),
                                    timeline: PlaybackTimeline(elapsed: 10, at: 0, rate: 1, duration: 300),
                                    status: .playing),
        router: RemoteCommandRouter(capabilities: PlaybackCapabilities(hasNextItem: true, supportedRates: 0.5...2)))

    @Test(arguments: [Double.nan, .infinity, -.infinity, -1, -.greatestFiniteMagnitude])
    mutating func rateThatIsNotAFiniteNonNegativeNumberIsInvalidArgs(_ rate: Double) {
        let response = model.respond(to: .setProperty(interface: MPRISNames.playerInterface, name: "Rate",
                                                      value: .double(rate)), at: 0)
        guard case .failure(let error) = response.reply else {
            Issue.record("Rate \(rate) was accepted: \(response)")
            return
        }
        #expect("\(error)".contains("InvalidArgs") || "\(error)".contains("finite"), "\(error)")
        #expect(response.command == nil)
    }

    @Test(arguments: [1e13, 1e300, -1e300, .greatestFiniteMagnitude])
    func hugeDurationsAndPositionsAreClampedNotTrapped(_ seconds: Double) {
        let micro = MPRISPlayerModel.microseconds(seconds)
        #expect(seconds > 0 ? micro == Int64.max : micro == Int64.min)
        var model = MPRISPlayerModel(
            identity: "Test",
            nowPlaying: NowPlayingState(metadata: NowPlayingMetadata(identifier: "t", title: "T", duration: abs(seconds)),
                                        timeline: PlaybackTimeline(elapsed: 0, at: 0, rate: 1, duration: abs(seconds)),
                                        status: .paused),
            router: RemoteCommandRouter(capabilities: PlaybackCapabilities()))
        _ = model.respond(to: .getAllProperties(interface: MPRISNames.playerInterface), at: 0)
    }
}

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
