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
        // W = max(1, round(width × ratio)); insets never leave less than 1 point (the documented arithmetic).
        let width = max(1, roundHalfAway(Double(display.current.width) * display.currentAspectRatio))
        let height = display.current.height
        let h = min(roundHalfAway(display.overscan * Double(width)), max(0, (width - 1) / 2))
        let v = min(roundHalfAway(display.overscan * Double(height)), max(0, (height - 1) / 2))
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

    /// The documented order of usable modes: ascending by pixel count, then refresh, then width, then pixel
    /// aspect ratio.
    static func ascending(_ a: CheckedMode, _ b: CheckedMode) -> Bool {
        if a.size.pixels != b.size.pixels { return a.size.pixels < b.size.pixels }
        if (a.refresh ?? 0) != (b.refresh ?? 0) { return (a.refresh ?? 0) < (b.refresh ?? 0) }
        if a.size.width != b.size.width { return a.size.width < b.size.width }
        return a.pixelAspectRatio < b.pixelAspectRatio
    }

    /// The mode a policy picks among a display's (cleaned) modes, exactly as the mode-selection table says.
    static func pick(_ policy: CheckedPolicy, for display: CheckedDisplay) -> CheckedMode? {
        let modes = display.modes  // in the documented order
        guard let largest = modes.last else { return nil }
        let preferred = display.preferredMode ?? display.currentMode
        /// The last (highest refresh) of the modes with the fewest pixels.
        func smallest() -> CheckedMode? {
            let fewest = modes[0].size.pixels
            return modes.last { $0.size.pixels == fewest }
        }
        switch policy {
        case .preferred:
            return preferred
        case .highest:
            return largest
        case .lowest:
            return smallest()
        case .maxPixels(let budget):
            return modes.last { $0.size.pixels <= budget } ?? smallest()
        case .size(let size):
            return DisplayCleaning.closest(ofSize: size, to: preferred.refresh, in: modes) ?? preferred
        }
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
