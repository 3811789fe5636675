/// How the platform compensates for a display that crops the edges of the picture (overscan).
///
/// Only matters when the display overscans; with no overscan all three give the full bounds.
public enum OverscanCompensation: String, Sendable, CaseIterable, Codable {
    /// The app fills the full frame buffer and the platform shrinks the picture into the visible area.
    /// The default; costs a scaling pass and leaves a black border.
    case scale
    /// The app gets smaller bounds that fit the visible area; nothing is scaled.
    case insetBounds
    /// The app fills the full frame buffer and keeps important content inside a smaller safe frame; the
    /// edges are cropped by the panel. Formerly "inset application frame".
    case none
}

/// Where a window goes on an external display: its frame and the safe frame inside it that the panel shows
/// in full, in points (1 point = 1 pixel horizontally corrected for pixel shape).
///
/// Computed, never measured:
/// - bounds `W × H` = ``DisplayMode/boundsInPoints`` (`W = max(1, round(width × pixelAspectRatio))`);
/// - insets `h = min(round(f × W), ⌊(W − 1) / 2⌋)`, `v = min(round(f × H), ⌊(H − 1) / 2⌋)` on each edge, with `f`
///   the display's overscan (so a frame is never narrower than 1 point, even for a 2-pixel mode);
/// - `scale`: frame = safe frame = `[0, 0, W, H]`;
/// - `insetBounds`: frame = safe frame = `[0, 0, W − 2h, H − 2v]`;
/// - `none`: frame = `[0, 0, W, H]`, safe frame = `[h, v, W − 2h, H − 2v]`.
///
/// ```swift
/// let tv = DisplayMode(width: 1280, height: 720)
/// let layout = DisplayLayout(mode: tv, overscan: 0.025, compensation: .none)
/// layout.safeFrame // [32, 18, 1216, 684]
/// ```
public struct DisplayLayout: Hashable, Sendable {
    /// The window's frame.
    public var frame: Rect
    /// The part of the frame the viewer sees in full.
    public var safeFrame: Rect
    /// Points per pixel of the window's content (external displays: 1).
    public var contentScale: Double

    /// Creates a layout from explicit rectangles.
    public init(frame: Rect, safeFrame: Rect, contentScale: Double = 1) {
        self.frame = frame
        self.safeFrame = safeFrame
        self.contentScale = contentScale
    }

    /// Computes the layout of a mode on a display that crops `overscan` of each edge.
    public init(mode: DisplayMode, overscan: Double, compensation: OverscanCompensation) {
        let bounds = Rect(origin0: mode.boundsInPoints)
        let f = overscan.isFinite ? min(max(overscan, 0), 0.25) : 0
        let h = min(Int((f * Double(bounds.width)).rounded()), max(0, (bounds.width - 1) / 2))
        let v = min(Int((f * Double(bounds.height)).rounded()), max(0, (bounds.height - 1) / 2))
        switch compensation {
        case .scale:
            self.init(frame: bounds, safeFrame: bounds)
        case .insetBounds:
            let inset = Rect(x: 0, y: 0, width: bounds.width - 2 * h, height: bounds.height - 2 * v)
            self.init(frame: inset, safeFrame: inset)
        case .none:
            self.init(frame: bounds, safeFrame: bounds.insetBy(dx: h, dy: v))
        }
    }
}
