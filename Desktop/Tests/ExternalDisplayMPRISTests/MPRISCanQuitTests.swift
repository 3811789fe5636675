import ExternalDisplayMPRIS
import ExternalDisplayMedia
import Testing

/// `CanQuit` is false until the app handles `Quit`, and turning it on is announced as a root property change.
@Suite("MPRIS model: CanQuit")
struct MPRISCanQuitTests {
    @Test func canQuitFollowsTheAppAndIsAnnounced() {
        var model = MPRISPlayerModel(identity: "Player")
        #expect(model.rootProperties[named: "CanQuit"] == .boolean(false))
        let before = model
        model.canQuit = true
        #expect(model.rootProperties[named: "CanQuit"] == .boolean(true))
        #expect(model.changedRootProperties(since: before).map(\.name) == ["CanQuit"])
        #expect(model.changedPlayerProperties(since: before).isEmpty)
    }
}
