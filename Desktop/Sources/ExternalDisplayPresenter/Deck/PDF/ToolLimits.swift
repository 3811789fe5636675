import Foundation

/// How long each PDF tool may run before its process group is killed, in seconds.
///
/// Defaults: `pdfinfo` 30 s (a deck that cannot be measured in 30 s cannot be presented), `mutool` 10 s (page
/// labels are optional: the talk starts without them), `pdftoppm` 60 s per render (a page that takes longer is
/// shown as a frame with the reason). Each can be set for a run with an environment variable —
/// `EXTDISPLAY_PDFINFO_TIMEOUT`, `EXTDISPLAY_MUTOOL_TIMEOUT`, `EXTDISPLAY_PDFTOPPM_TIMEOUT` — a number of
/// seconds in 0.1…3600 (anything else is ignored).
///
/// ```swift
/// ToolLimits.current.pdfinfo  // 30
/// ```
public struct ToolLimits: Hashable, Sendable {
    /// Seconds `pdfinfo` may take (page count and sizes).
    public var pdfinfo: Double = 30
    /// Seconds `mutool show` may take (page labels).
    public var mutool: Double = 10
    /// Seconds one `pdftoppm` render may take.
    public var pdftoppm: Double = 60
    /// Bytes of `mutool show` output read (labels: a few kilobytes; a tool printing without end stops here).
    public var mutoolOutput: Int = 4 << 20
    /// Bytes of `pdfinfo` output read (about 60 bytes a page: 16 MiB is over 250,000 pages).
    public var pdfinfoOutput: Int = 16 << 20

    /// The defaults.
    public init() {}

    /// The limits in force: the defaults, with the environment's overrides.
    public static var current: ToolLimits { from(ProcessInfo.processInfo.environment) }

    /// The defaults with the overrides found in `environment`.
    public static func from(_ environment: [String: String]) -> ToolLimits {
        var limits = ToolLimits()
        func seconds(_ name: String) -> Double? {
            guard let text = environment[name], let value = Double(text), value.isFinite, value >= 0.1, value <= 3600
            else { return nil }
            return value
        }
        if let value = seconds("EXTDISPLAY_PDFINFO_TIMEOUT") { limits.pdfinfo = value }
        if let value = seconds("EXTDISPLAY_MUTOOL_TIMEOUT") { limits.mutool = value }
        if let value = seconds("EXTDISPLAY_PDFTOPPM_TIMEOUT") { limits.pdftoppm = value }
        return limits
    }

    /// `30 s`, `2.5 s`: a limit as the messages state it.
    public static func describe(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
