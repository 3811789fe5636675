import ExternalDisplayKit
import ExternalDisplayMedia
import ExternalDisplaySimulator

/// An external display of a headless run: a catalog preset plugged in under an id, its picture laid out in the
/// mode's safe frame (the TV's overscan left out).
struct SimulatedVideoDisplay {
    /// The id used by `unplug:ID` and in snapshot names.
    var id: String
    /// The catalog preset.
    var preset: DisplayCatalog.Preset
    /// The frame and the safe frame of the preferred mode (overscan not compensated by the display).
    var layout: DisplayLayout

    /// The preset plugged in as `id`, or `nil` for an unknown preset.
    init?(preset name: String, id: String) {
        guard let preset = DisplayCatalog.preset(named: name) else { return nil }
        self.id = id
        self.preset = preset
        layout = DisplayLayout(mode: preset.preferred, overscan: preset.overscan, compensation: .none)
    }

    /// What the playback core knows about it.
    var videoDisplay: VideoDisplay { VideoDisplay(id: id, name: preset.displayName) }
}
