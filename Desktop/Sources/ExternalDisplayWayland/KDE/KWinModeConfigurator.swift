import CWaylandClient
import ExternalDisplayKit

/// Mode switches on KDE through KWin's `kde_output_management_v2`: a configuration naming one output device
/// (`kde_output_device_v2`, matched to the `wl_output` by name) and one of the modes it lists, applied, and
/// answered with `applied` or `failed`. The same ``WaylandModeSetting``s as the other paths: the mode and the
/// output's logical place (a switch keeps it, a restore puts it back).
enum KWinModeConfigurator {
    /// The setting that puts `outputName` in `mode`: the device's listed mode of that size with the closest
    /// refresh rate, the place kept. Throws when KWin has no device of that name or lists no mode of that size.
    static func setting(for mode: DisplayMode, on outputName: String,
                        client: WaylandClient) throws(WaylandError) -> WaylandModeSetting {
        guard var target = WaylandModeConfigurator.currentSetting(of: outputName, client: client),
              let (_, device) = client.kdeDevice(named: outputName) else { throw .unknownOutput(outputName) }
        let offered = device.modes.compactMap { client.kdeModes[$0] }
        guard let best = WaylandModeConfigurator.closest(offered, to: mode) else {
            throw .modeNotOffered(output: outputName, mode: mode)
        }
        target.width = best.width
        target.height = best.height
        target.milliHertz = best.milliHertz
        return target
    }

    /// Applies `setting`: its listed mode of that size and refresh rate, at its place.
    static func apply(_ setting: WaylandModeSetting, client: WaylandClient) throws(WaylandError) {
        guard let manager = client.kdeManagement else { throw .modeSwitchingUnsupported(output: setting.output) }
        guard let (device, record) = client.kdeDevice(named: setting.output) else { throw .unknownOutput(setting.output) }
        let listed = record.modes.first { id in
            client.kdeModes[id].map { $0.width == setting.width && $0.height == setting.height
                && $0.milliHertz == setting.milliHertz } ?? false
        }
        guard let listed, let mode = OpaquePointer(bitPattern: listed) else {
            throw .modeNotOffered(output: setting.output, mode: DisplayMode(
                width: setting.width, height: setting.height, refreshRate: Double(setting.milliHertz) / 1000))
        }
        client.configurationOutcome = nil
        guard let configuration = edk_kde_create_configuration(manager, client.sink) else {
            throw .refused(output: setting.output, detail: "no configuration object")
        }
        defer { edk_kde_configuration_destroy(configuration) }
        edk_kde_configuration_mode(configuration, device, mode)
        edk_kde_configuration_position(configuration, device, Int32(clamping: setting.x), Int32(clamping: setting.y))
        edk_kde_configuration_apply(configuration)
        _ = try client.dispatch(until: { client.configurationOutcome != nil }, timeout: WaylandModeConfigurator.answerTimeout)
        switch client.configurationOutcome {
        case EDK_CONFIG_SUCCEEDED:
            try client.roundtrip()
        case EDK_CONFIG_FAILED:
            throw .refused(output: setting.output, detail: "KWin rejected \(setting.width)x\(setting.height)")
        default:
            throw .refused(output: setting.output, detail: "no answer within \(Int(WaylandModeConfigurator.answerTimeout)) s")
        }
    }
}
