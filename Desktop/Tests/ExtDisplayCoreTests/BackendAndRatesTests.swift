import ExtDisplayCore
import Testing

@Suite("backend choice and assumed rates")
struct BackendAndRatesTests {
    @Test func theServersTheEnvironmentNamesInTheOrderAutoPrefers() throws {
        #expect(PresenterBackend.servers(in: [:]).isEmpty)
        #expect(PresenterBackend.servers(in: ["DISPLAY": "", "WAYLAND_DISPLAY": ""]).isEmpty)
        #expect(PresenterBackend.servers(in: ["DISPLAY": ":1"]) == [.x11])
        #expect(PresenterBackend.servers(in: ["WAYLAND_DISPLAY": "wayland-1"]) == [.wayland])
        #expect(PresenterBackend.servers(in: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]) == [.wayland, .x11])
        #expect(try PresenterBackend.choose(.auto, environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "w"]).get() == .wayland)
        #expect(try PresenterBackend.choose(.auto, environment: [:]).get() == .headless)
        #expect(try PresenterBackend.choose(.x11, environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "w"]).get() == .x11)
        #expect((try? PresenterBackend.choose(.wayland, environment: ["DISPLAY": ":0"]).get()) == nil)
        #expect(try PresenterBackend.choose(.wayland, environment: ["DISPLAY": ":0"], simulate: true).get() == .headless)
    }

    @Test func anUnknownOrImpossibleFrameRateIsThirty() {
        for reported in [nil, 0, -24, .nan, .infinity, -.infinity] as [Double?] {
            #expect(AssumedFrameRate.rate(reported) == 30, "\(String(describing: reported))")
        }
        #expect(AssumedFrameRate.rate(23.976) == 23.976)
        #expect(AssumedFrameRate.rate(1e-3) == 1e-3)
    }

    @Test func theConsoleFallbackIsA720pWindowAtTheOrigin() {
        let frame = ConsoleOutputRule.fallbackFrame
        #expect([frame.x, frame.y, frame.width, frame.height] == [0, 0, 1280, 720])
    }
}
