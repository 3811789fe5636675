import ExternalDisplayKit

/// Mode switches and restores on GNOME through ``MutterDisplayConfig``: the same ``WaylandModeSetting``s as
/// the wlr-output-management path (size, refresh, logical position), applied as temporary configurations.
enum MutterModeConfigurator {
    /// The mode and logical position `connector` has now; nil when it is not in Mutter's layout.
    static func currentSetting(of connector: String, state: MutterDisplayState) -> WaylandModeSetting? {
        guard let mode = state.monitors.first(where: { $0.connector == connector })?.currentMode,
              let logical = state.logicalMonitors.first(where: { $0.connectors.contains(connector) }) else { return nil }
        return WaylandModeSetting(output: connector, width: mode.width, height: mode.height,
                                  milliHertz: Int((mode.refreshRate * 1000).rounded()), x: logical.x, y: logical.y)
    }

    /// The setting that puts `connector` in `mode` (an offered mode of that size, the closest refresh rate),
    /// its place kept. Throws when Mutter does not list the monitor or offers no mode of that size.
    static func setting(for mode: DisplayMode, on connector: String,
                        state: MutterDisplayState) throws(WaylandError) -> WaylandModeSetting {
        guard var target = currentSetting(of: connector, state: state) else { throw .unknownOutput(connector) }
        guard let chosen = state.mode(mode, on: connector) else { throw .modeNotOffered(output: connector, mode: mode) }
        target.width = chosen.width
        target.height = chosen.height
        target.milliHertz = Int((chosen.refreshRate * 1000).rounded())
        return target
    }

    /// Applies `setting`'s mode; with `place`, its position too (a restore puts the monitor back where it was;
    /// a switch keeps the layout adjacent instead).
    static func apply(_ setting: WaylandModeSetting, through config: MutterDisplayConfig,
                      movingTo place: Bool) throws(WaylandError) {
        let mode = DisplayMode(width: setting.width, height: setting.height,
                               refreshRate: Double(setting.milliHertz) / 1000)
        do {
            try config.apply(mode, on: setting.output, position: place ? (setting.x, setting.y) : nil)
        } catch {
            throw .refused(output: setting.output, detail: error.description)
        }
    }

    /// Puts each setting back (monitors gone since are skipped); one line per output, in the words of
    /// ``WaylandModeConfigurator/restore(_:client:)``.
    static func restore(_ settings: [WaylandModeSetting], through config: MutterDisplayConfig) -> [String] {
        settings.map { setting in
            let state: MutterDisplayState
            do { state = try config.currentState() } catch {
                return "could not restore \(setting.output): \(error)"
            }
            guard let now = currentSetting(of: setting.output, state: state) else {
                return "\(setting.output) is gone; nothing to restore there"
            }
            if now == setting { return "\(setting.output) is already \(setting.width)x\(setting.height)" }
            do {
                try apply(setting, through: config, movingTo: true)
                return "restored \(setting.output) to \(setting.width)x\(setting.height) at (\(setting.x),\(setting.y))"
            } catch {
                return "could not restore \(setting.output): \(error)"
            }
        }
    }
}
