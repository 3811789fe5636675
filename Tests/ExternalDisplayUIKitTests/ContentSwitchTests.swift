import ExternalDisplayKit
import Testing

@Suite("Switching external content off and on")
struct ContentSwitchTests {
    let tv = Display(id: "screen-1", modes: [DisplayMode(width: 1920, height: 1080)])

    @Test("Off mirrors every display with app content; on extends them again; repeats do nothing")
    func toggles() {
        var external = ExternalContentSwitch()
        let off = external.set(false, connected: ["screen-1", "screen-2"], mirrored: ["screen-2"])
        #expect(off.map(\.name) == ["mirror"])
        #expect(off.first?.display == "screen-1")
        #expect(external.set(false, connected: ["screen-1"], mirrored: []).isEmpty)
        let on = external.set(true, connected: ["screen-1", "screen-2"], mirrored: ["screen-1", "screen-2"])
        #expect(on.map(\.name) == ["extend", "extend"])
    }

    @Test("A display attaching while off gets no window: the system keeps mirroring it")
    func connectWhileOff() {
        let external = ExternalContentSwitch(isEnabled: false)
        var engine = DisplayEngine()
        _ = engine.handle([.launch])
        let effects = engine.handle(external.events(connecting: tv))
        let commands = effects.compactMap { if case .command(let c) = $0 { c.name } else { nil } }
        #expect(!commands.contains("createWindow"))
        #expect(!commands.contains("setMode"))
        #expect(engine.windows.isEmpty)
    }

    @Test("Switching off through the engine releases the window; on creates it again")
    func throughEngine() {
        var external = ExternalContentSwitch()
        var engine = DisplayEngine()
        _ = engine.handle([.launch] + external.events(connecting: tv))
        #expect(engine.windows[tv.id] != nil)
        _ = engine.handle(external.set(false, connected: engine.connectionOrder, mirrored: engine.mirroredDisplays))
        #expect(engine.windows[tv.id] == nil)
        _ = engine.handle(external.set(true, connected: engine.connectionOrder, mirrored: engine.mirroredDisplays))
        #expect(engine.windows[tv.id] != nil)
    }
}
