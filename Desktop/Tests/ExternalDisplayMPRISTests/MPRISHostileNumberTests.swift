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
