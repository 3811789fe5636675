/// The normative layout arithmetic and mode-selection policies, implemented from the text.
enum CheckerMath {
    /// Rounds half away from zero, tolerating binary noise at exact halves (30.4999999 from 0.025 × 1220 is 31).
    static func roundHalfAway(_ value: Double) -> Int {
        let nudged = value + (value >= 0 ? 1e-9 : -1e-9)
        return Int(nudged.rounded(.toNearestOrAwayFromZero))
    }

    /// Expected `frame` and `safeFrame` for a display in its current mode under a compensation.
    static func expectedFrames(for display: CheckedDisplay,
                               compensation: CheckedCompensation) -> (frame: [Int], safe: [Int]) {
        let width = roundHalfAway(Double(display.current.width) * display.currentAspectRatio)
        let height = display.current.height
        let h = roundHalfAway(display.overscan * Double(width))
        let v = roundHalfAway(display.overscan * Double(height))
        let full = [0, 0, width, height]
        switch compensation {
        case .scale:
            return (full, full)
        case .insetBounds:
            let inset = [0, 0, width - 2 * h, height - 2 * v]
            return (inset, inset)
        case .none:
            return (full, [h, v, width - 2 * h, height - 2 * v])
        }
    }

    /// The mode a policy picks among a display's modes.
    static func pick(_ policy: CheckedPolicy, for display: CheckedDisplay) -> CheckedMode? {
        let modes = display.modes
        guard !modes.isEmpty else { return nil }
        switch policy {
        case .preferred:
            return preferredMode(of: display)
        case .highest:
            return modes.max { a, b in
                a.size.pixels != b.size.pixels ? a.size.pixels < b.size.pixels : (a.refresh ?? 0) < (b.refresh ?? 0)
            }
        case .lowest:
            return modes.min { $0.size.pixels < $1.size.pixels }
        case .maxPixels(let budget):
            let fitting = modes.filter { $0.size.pixels <= budget }
            if fitting.isEmpty { return modes.min { $0.size.pixels < $1.size.pixels } }
            return fitting.max { $0.size.pixels < $1.size.pixels }
        case .size(let size):
            return modes.first { $0.size == size } ?? preferredMode(of: display)
        }
    }

    /// The display's preferred mode, or its current mode when it has none.
    static func preferredMode(of display: CheckedDisplay) -> CheckedMode? {
        let size = display.preferred ?? display.current
        let matches = display.modes.filter { $0.size == size }
        let refresh = matches.compactMap(\.refresh).max()
        let ratio = matches.first?.pixelAspectRatio ?? 1
        return CheckedMode(size: size, refresh: refresh, pixelAspectRatio: ratio)
    }

    /// Whether the refresh rate decides between modes of this size (several refreshes offered at it).
    static func refreshDecides(_ mode: CheckedMode, in display: CheckedDisplay) -> Bool {
        Set(display.modes.filter { $0.size == mode.size }.compactMap(\.refresh)).count > 1
    }

    /// Whether `fps` is the display's refresh divided by a whole number (tolerance 0.01).
    static func divides(_ fps: Double, refresh: Double) -> Bool {
        guard fps > 0, refresh > 0, fps <= refresh + 0.01 else { return false }
        let k = (refresh / fps).rounded()
        return k >= 1 && abs(refresh / k - fps) <= 0.01
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e12 ? String(Int(value)) : String(value)
    }

    static func format(_ rect: [Int]?) -> String {
        guard let rect else { return "none" }
        return "[" + rect.map(String.init).joined(separator: ",") + "]"
    }
}
