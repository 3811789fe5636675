import CWaylandClient
import ExternalDisplayKit
import Foundation

/// One output's mode and place as output management describes it: what a switch asks for and what a restore
/// puts back.
struct WaylandModeSetting: Codable, Hashable, Sendable {
    /// The output name (`HEADLESS-2`, `HDMI-A-1`).
    var output: String
    var width: Int
    var height: Int
    /// The refresh rate in mHz (0: the compositor picks).
    var milliHertz: Int
    var x: Int
    var y: Int
}

/// Switches modes through `zwlr_output_configuration_v1`: one configuration naming every head (the one switched
/// with its new mode and place, the other enabled heads as they are, the disabled ones disabled), applied, and
/// answered with succeeded, failed or cancelled.
enum WaylandModeConfigurator {
    /// How long a compositor may take to answer a configuration before the switch counts as refused.
    static let answerTimeout = 10.0

    /// The mode and place `outputName` has now (its current mode and logical position); nil when no output of
    /// that name drives a display.
    static func currentSetting(of outputName: String, client: WaylandClient) -> WaylandModeSetting? {
        guard let output = client.outputs().first(where: { $0.outputName == outputName }) else { return nil }
        let mode = output.display.currentMode
        return WaylandModeSetting(output: outputName, width: mode.size.width, height: mode.size.height,
                                  milliHertz: Int((mode.refreshRate * 1000).rounded()), x: output.bounds.x,
                                  y: output.bounds.y)
    }

    /// The setting that puts `outputName` in `mode`: the head's offered mode of that size with the closest
    /// refresh rate (higher on a tie), or — for a head that lists no modes, as virtual outputs do — that size
    /// and rate as a custom mode. The place stays.
    static func setting(for mode: DisplayMode, on outputName: String,
                        client: WaylandClient) throws(WaylandError) -> WaylandModeSetting {
        guard let current = currentSetting(of: outputName, client: client),
              let (_, head) = client.head(named: outputName) else { throw .unknownOutput(outputName) }
        let offered = head.modes.compactMap { client.modes[$0] }.filter { $0.width > 0 && $0.height > 0 }
        var target = current
        if offered.isEmpty {
            target.width = mode.size.width
            target.height = mode.size.height
            // Outside the accepted 0…1,000 Hz (or not finite): let the compositor pick.
            let hz = mode.refreshRate
            target.milliHertz = hz.isFinite && (0...1_000).contains(hz) ? Int((hz * 1000).rounded()) : 0
            return target
        }
        guard let best = closest(offered, to: mode) else { throw .modeNotOffered(output: outputName, mode: mode) }
        target.width = best.width
        target.height = best.height
        target.milliHertz = best.milliHertz
        return target
    }

    /// Of `offered`, the mode of `mode`'s size whose refresh rate is closest (higher on a tie); nil when none has
    /// that size.
    static func closest(_ offered: [RawMode], to mode: DisplayMode) -> RawMode? {
        let wanted = mode.refreshRate * 1000
        let sized = offered.filter { $0.width == mode.size.width && $0.height == mode.size.height }
        return sized.min { a, b in
            let da = abs(Double(a.milliHertz) - wanted), db = abs(Double(b.milliHertz) - wanted)
            return da != db ? da < db : a.milliHertz > b.milliHertz
        }
    }

    /// Applies `setting`; retries once when the compositor cancels because the outputs changed meanwhile.
    static func apply(_ setting: WaylandModeSetting, client: WaylandClient) throws(WaylandError) {
        var outcome = try applyOnce(setting, client: client)
        if outcome == EDK_CONFIG_CANCELLED {
            try client.roundtrip()
            outcome = try applyOnce(setting, client: client)
        }
        switch outcome {
        case EDK_CONFIG_SUCCEEDED:
            try client.roundtrip()
        case EDK_CONFIG_FAILED:
            throw .refused(output: setting.output, detail: "the compositor rejected \(setting.width)x\(setting.height)")
        case EDK_CONFIG_CANCELLED:
            throw .refused(output: setting.output, detail: "cancelled twice: the outputs kept changing meanwhile")
        default:
            throw .refused(output: setting.output, detail: "no answer within \(Int(answerTimeout)) s")
        }
    }

    private static func applyOnce(_ setting: WaylandModeSetting,
                                  client: WaylandClient) throws(WaylandError) -> edk_wl_event_kind? {
        guard let manager = client.outputManager?.proxy else { throw .modeSwitchingUnsupported(output: setting.output) }
        guard client.head(named: setting.output) != nil else { throw .unknownOutput(setting.output) }
        let outputs = Dictionary(client.outputs().map { ($0.outputName, $0) }, uniquingKeysWith: { a, _ in a })
        client.configurationOutcome = nil
        guard let configuration = edk_create_configuration(manager, client.serial, client.sink) else {
            throw .refused(output: setting.output, detail: "no configuration object")
        }
        defer { edk_configuration_destroy(configuration) }
        for (key, head) in client.heads {
            guard let proxy = OpaquePointer(bitPattern: key) else { continue }
            if head.name == setting.output {
                guard let configured = edk_configuration_enable_head(configuration, proxy) else { continue }
                let exact = head.modes.first { id in
                    client.modes[id].map { $0.width == setting.width && $0.height == setting.height
                        && $0.milliHertz == setting.milliHertz } ?? false
                }
                if let exact, let mode = OpaquePointer(bitPattern: exact) {
                    edk_configuration_head_set_mode(configured, mode)
                } else {
                    edk_configuration_head_set_custom_mode(configured, Int32(clamping: setting.width),
                                                           Int32(clamping: setting.height),
                                                           Int32(clamping: setting.milliHertz))
                }
                edk_configuration_head_set_position(configured, Int32(clamping: setting.x), Int32(clamping: setting.y))
            } else if head.isTrustworthy(client.modes) {
                if head.enabled {
                    _ = edk_configuration_enable_head(configuration, proxy)
                } else {
                    edk_configuration_disable_head(configuration, proxy)
                }
            } else if let name = head.name, let output = outputs[name],
                      let configured = edk_configuration_enable_head(configuration, proxy) {
                // A head whose state is not to be believed (sway 1.7's virtual outputs): restate what its
                // wl_output shows, or the compositor would apply the head's empty state.
                let mode = output.display.currentMode
                edk_configuration_head_set_custom_mode(configured, Int32(clamping: mode.size.width),
                                                       Int32(clamping: mode.size.height),
                                                       Int32(clamping: Int((mode.refreshRate * 1000).rounded())))
                edk_configuration_head_set_position(configured, Int32(clamping: output.bounds.x),
                                                    Int32(clamping: output.bounds.y))
            } else {
                edk_configuration_disable_head(configuration, proxy)
            }
        }
        edk_configuration_apply(configuration)
        _ = try client.dispatch(until: { client.configurationOutcome != nil }, timeout: answerTimeout)
        return client.configurationOutcome
    }

    /// Puts each setting back (outputs gone or disabled since are skipped) the way `method` switched it
    /// (wlr-output-management, or KWin's kde-output-management-v2); returns a line per output.
    @discardableResult
    static func restore(_ settings: [WaylandModeSetting], client: WaylandClient,
                        method: WaylandModeMethod = .outputManagement) -> [String] {
        settings.map { setting in
            guard let now = currentSetting(of: setting.output, client: client) else {
                return "\(setting.output) is gone; nothing to restore there"
            }
            if now == setting { return "\(setting.output) is already \(setting.width)x\(setting.height)" }
            do {
                if method == .kde {
                    try KWinModeConfigurator.apply(setting, client: client)
                } else {
                    try apply(setting, client: client)
                }
                return "restored \(setting.output) to \(setting.width)x\(setting.height) at (\(setting.x),\(setting.y))"
            } catch {
                return "could not restore \(setting.output): \(error)"
            }
        }
    }

    /// Whether a line of ``restore(_:client:)`` says an output did not come back.
    static func isFailure(_ line: String) -> Bool { line.hasPrefix("could not restore ") }
}
