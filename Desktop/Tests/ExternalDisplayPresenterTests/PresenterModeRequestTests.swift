import ExternalDisplayKit
import Testing
@testable import ExternalDisplayPresenter

/// The desktop's mode rule: without `--mode` a display keeps the mode it runs (no switch, nothing to put back);
/// `--mode` switches as asked. Checked on the request alone and through the real engine's commands.
@Suite("Presenter mode request")
struct PresenterModeRequestTests {
    static let uhd30 = DisplayMode(width: 3840, height: 2160, refreshRate: 30)
    static let hd = DisplayMode(width: 1280, height: 720, refreshRate: 60)
    static let fhd = DisplayMode(width: 1920, height: 1080, refreshRate: 60)

    /// A projector the desktop set to 3840×2160@30 that calls 1280×720 preferred (the harness).
    static let projector = Display(id: "DUMMY1", name: "projector", modes: [hd, fhd, uhd30],
                                   preferredMode: hd, currentMode: uhd30)

    /// The `setMode` commands the engine gives when `projector` attaches under the request.
    static func switches(_ request: PresenterModeRequest, display: Display = projector) -> [DisplayMode] {
        var engine = DisplayEngine(configuration: DisplayConfiguration(modeSelection: request.selection))
        return engine.handle([.launch, .connect(display)]).compactMap { effect in
            if case .command(.setMode(_, let mode)) = effect { return mode }
            return nil
        }
    }

    @Test func withoutModeTheDisplayKeepsTheModeItRuns() throws {
        let request = try PresenterModeRequest(argument: nil)
        #expect(request == .keep)
        #expect(!request.switches)
        #expect(request.mode(for: Self.projector) == Self.uhd30)
        #expect(Self.switches(request) == [])
    }

    @Test func modeSwitchesAsAsked() throws {
        #expect(Self.switches(try PresenterModeRequest(argument: "preferred")) == [Self.hd])
        #expect(Self.switches(try PresenterModeRequest(argument: "lowest")) == [Self.hd])
        #expect(Self.switches(try PresenterModeRequest(argument: "HIGHEST")) == [])  // it already runs the largest
        #expect(Self.switches(try PresenterModeRequest(argument: "1920x1080")) == [Self.fhd])
        #expect(Self.switches(try PresenterModeRequest(argument: "3840x2160")) == [])
        for word in ["preferred", "highest", "lowest", "1280x720"] {
            #expect(try PresenterModeRequest(argument: word).switches)
        }
    }

    /// A display already in its preferred mode is not touched either way, and one whose current mode equals
    /// another offered size is kept too.
    @Test func keepingNeverSwitchesWhateverTheDisplayRuns() {
        for current in [Self.hd, Self.fhd, Self.uhd30] {
            let display = Display(id: "HDMI-1", name: "tv", modes: [Self.hd, Self.fhd, Self.uhd30],
                                  preferredMode: Self.hd, currentMode: current)
            #expect(Self.switches(.keep, display: display) == [])
            #expect(PresenterModeRequest.keep.mode(for: display) == current)
        }
    }

    @Test func badArgumentsSayWhatToWrite() throws {
        let cases: [(String, String)] = [
            ("", "use preferred, highest, lowest or WxH"), ("native", "use preferred, highest, lowest or WxH"),
            ("1280x", "use preferred, highest, lowest or WxH"), ("x720", "use preferred, highest, lowest or WxH"),
            ("1280x720x2", "use preferred, highest, lowest or WxH"), ("١٢٨٠x720", "use preferred, highest, lowest or WxH"),
            ("0x0", "each side must be 1…16384"), ("99999x99999", "each side must be 1…16384"),
            ("-1280x720", "each side must be 1…16384"), ("16385x1", "each side must be 1…16384"),
            ("99999999999999999999x1", "use preferred, highest, lowest or WxH"),
        ]
        for (argument, message) in cases {
            #expect(throws: ModeArgumentError.self, "\(argument)") { try PresenterModeRequest(argument: argument) }
            do {
                _ = try PresenterModeRequest(argument: argument)
            } catch {
                #expect(error.description.contains(message), "\(argument): \(error.description)")
                #expect(error.description.contains("--mode '\(argument)'"))
            }
        }
        #expect(try PresenterModeRequest(argument: "16384x1") == .size(PixelSize(width: 16384, height: 1)))
    }
}
