public import ExternalDisplayKit

/// Which output the presenter's console goes on, the same rule on X11 and on every Wayland compositor: never
/// the output named by `--display`; the output the desktop calls main (RandR's primary output, a compositor's
/// primary or highest-priority output, a built-in panel); else the output at the origin of the desktop; else the
/// top-left-most one.
///
/// ```swift
/// let outputs = [ConsoleOutputRule.Candidate(name: "eDP-1", origin: (0, 0), isMain: true),
///                ConsoleOutputRule.Candidate(name: "HDMI-1", origin: (1920, 0), isMain: false)]
/// ConsoleOutputRule.choose(among: outputs, audience: nil)?.name        // "eDP-1"
/// ConsoleOutputRule.choose(among: outputs, audience: "eDP-1")?.name    // "HDMI-1"
/// ```
public enum ConsoleOutputRule {
    /// An output as the rule needs it.
    public struct Candidate: Hashable, Sendable {
        /// The output's name.
        public var name: String
        /// Its top-left corner in the desktop's coordinates.
        public var x: Int
        /// Its top-left corner in the desktop's coordinates.
        public var y: Int
        /// Whether the desktop calls it main (primary, priority 1, built-in).
        public var isMain: Bool

        /// A candidate.
        public init(name: String, x: Int, y: Int, isMain: Bool) {
            self.name = name
            self.x = x
            self.y = y
            self.isMain = isMain
        }
    }

    /// The console window's frame when the desktop reports no output at all (a display server that has not listed
    /// its outputs yet): a 1280×720 window at the origin, the same for `present` and `play` on X11 and Wayland.
    public static let fallbackFrame = Rect(x: 0, y: 0, width: 1280, height: 720)

    /// The console's output among `outputs`, never the one named `audience`; nil when none is left.
    public static func choose(among outputs: [Candidate], audience: String?) -> Candidate? {
        let candidates = outputs.filter { $0.name != audience }
        if let main = candidates.first(where: \.isMain) { return main }
        if let origin = candidates.first(where: { $0.x == 0 && $0.y == 0 }) { return origin }
        return candidates.min { ($0.y, $0.x, $0.name) < ($1.y, $1.x, $1.name) }
    }
}
