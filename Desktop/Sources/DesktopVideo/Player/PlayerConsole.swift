#if canImport(CSDL2)
import DesktopImages
import DesktopText
import ExternalDisplayKit
public import ExternalDisplayMedia
import Foundation
public import SDLWindows

/// The main display of `extdisplay play`: the video itself when it plays here, else where it plays; below it
/// the controls (title, position and duration, playing or paused, rate, volume, the display) and the last
/// problem.
public struct PlayerConsole {
    /// The item's title.
    public var title: String
    /// The playback core after the step.
    public var playback: VideoPlayback
    /// The instant the console shows.
    public var now: Double
    /// The picture on screen, if any.
    public var frame: VideoFrame?
    /// The last problem reported, shown in red.
    public var problem: String?

    /// The console of `playback` at `now`, for the item `title`, with `frame` when the film plays here.
    public init(title: String, playback: VideoPlayback, now: Double, frame: VideoFrame?, problem: String?) {
        self.title = title
        self.playback = playback
        self.now = now
        self.frame = frame
        self.problem = problem
    }

    static let background = Color(hex: 0x101418)
    static let text = Color(hex: 0xE8ECF0)
    static let dim = Color(hex: 0x8A96A3)
    static let accent = Color(hex: 0x3D8BFF)
    static let alarm = Color(hex: 0xFF5C5C)

    /// Draws the console on `canvas`; returns the first font problem, if any (drawing goes on without text).
    public func draw(on canvas: Canvas) -> String? {
        let size = canvas.size
        let margin = max(8, size.height / 30)
        canvas.clear(Self.background)
        let videoArea = Rect(x: margin, y: margin, width: size.width - 2 * margin, height: size.height * 6 / 10)
        var fontProblem: String?
        func say(_ string: String, _ y: Int, _ points: Int, _ color: Color, bold: Bool = false, x: Int? = nil) {
            do {
                try canvas.text(string, x: x ?? margin, y: y, font: CanvasFont(size: max(8, points), weight: bold ? .bold : .regular),
                                color: color)
            } catch {
                if fontProblem == nil { fontProblem = error.description }
            }
        }
        let unit = max(10, size.height / 36)
        if playback.placement == .mainWindow, let frame {
            canvas.fill(videoArea, .black)
            canvas.drawOpaque(frame.pixels, width: frame.width, height: frame.height, order: frame.layout.canvasOrder,
                              in: Letterbox.fit(aspect: Double(frame.width) / Double(max(1, frame.height)), in: videoArea))
        } else {
            canvas.fill(videoArea, Color(hex: 0x1B222B))
            let line = playback.indicator.message ?? (playback.item == nil ? "No video loaded" : "")
            say(line, videoArea.y + videoArea.height / 2 - unit, unit * 2, Self.text, bold: true, x: videoArea.x + margin)
        }
        var y = videoArea.y + videoArea.height + margin
        say(title, y, unit * 3 / 2, Self.text, bold: true)
        y += unit * 2
        let position = playback.position(at: now)
        let status = switch playback.status {
        case .playing: "Playing"
        case .paused: playback.hasReachedEnd ? "Ended" : "Paused"
        case .stopped: "Stopped"
        }
        let duration = playback.timeline.duration
        say("\(status)   \(Self.clock(position)) / \(duration.map(Self.clock) ?? "--:--")   rate \(PlayStep.format(playback.preferredRate))×   "
            + "volume \(Int((playback.volume * 100).rounded()))%", y, unit, Self.text)
        y += unit * 3 / 2
        let bar = Rect(x: margin, y: y, width: size.width - 2 * margin, height: max(4, unit / 2))
        canvas.fill(bar, Color(hex: 0x2A333D))
        if let duration, duration > 0 {
            let done = Int(Double(bar.width) * min(1, max(0, position / duration)))
            canvas.fill(Rect(x: bar.x, y: bar.y, width: done, height: bar.height), Self.accent)
        }
        y += bar.height + unit
        let place = playback.placement?.display.map { "On \($0.name) (\($0.id))" } ?? "On this display"
        say(place, y, unit, Self.dim)
        y += unit * 3 / 2
        if let problem { say(problem, y, unit * 3 / 4, Self.alarm) }
        return fontProblem
    }

    /// `m:ss.t` (or `h:mm:ss.t`).
    public static func clock(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds.isFinite ? seconds : 0) * 10).rounded(.down))
        let s = tenths / 10, fraction = tenths % 10
        let h = s / 3600, m = (s / 60) % 60, sec = s % 60
        return h > 0 ? String(format: "%d:%02d:%02d.%d", h, m, sec, fraction) : String(format: "%d:%02d.%d", m, sec, fraction)
    }
}
extension VideoFrame.Layout {
    /// The canvas's name for this byte order.
    public var canvasOrder: Canvas.PixelOrder {
        switch self {
        case .rgba: .rgba
        case .bgrx: .bgrx
        }
    }
}
#endif
