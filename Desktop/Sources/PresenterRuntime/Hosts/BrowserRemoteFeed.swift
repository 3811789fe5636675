#if canImport(CSDL2)
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
import Foundation

/// What the speaker's remote (`/remote?token=…`, the private display) is sent: the state (slide, timer, notes,
/// the current and next slide's text) and one picture of two halves — the audience view of the current slide on
/// top, the next slide below (black after the last one) — each 640×360, rendered only when one of them changed,
/// off the console's thread on a renderer of its own (the speaker's picture never waits behind the audience's;
/// a newer one cancels one under way). The state goes out at once, the picture when it is ready.
@MainActor
final class BrowserRemoteFeed {
    /// Each half of the picture.
    static let half = PixelSize(width: 640, height: 360)
    private let controller: PresenterController
    private let platform: BrowserDisplayPlatform
    /// Text is measured with this canvas; pictures are drawn by `renderer`.
    private var metrics: SDLPresenterCanvas?
    private let renderer: BrowserPictureRenderer
    private let caches: DrawingCaches
    private var rendering: BrowserPictureRenderer.Ticket?
    private var shown: BrowserRemoteState?
    /// The finished room strokes of the slide the picture shows, as last pictured (a change is a new picture).
    private var shownInk: [InkStroke] = []
    private var pictured: [DisplayList]?
    private var number: UInt32 = 1
    /// Pictures rendered so far.
    private(set) var picturesRendered = 0

    init(controller: PresenterController, platform: BrowserDisplayPlatform, caches: DrawingCaches) {
        self.caches = caches
        renderer = BrowserPictureRenderer(caches: caches)
        self.controller = controller
        self.platform = platform
    }

    /// Publishes the remote's state and picture when they changed.
    func update(now: Double, clock: String) {
        let state = controller.state, deck = controller.deck
        let slides = deck.slides
        let current = slides.indices.contains(state.slideIndex) ? slides[state.slideIndex] : nil
        let next = state.nextSlideIndex.map { slides[$0] }
        let pace = state.paceSignal(at: now)
        let remote = BrowserRemoteState(
            slide: slides.isEmpty ? 0 : state.slideIndex + 1, slideCount: slides.count,
            title: current?.plainTitle ?? deck.title, text: current.map(Self.text) ?? "",
            nextTitle: next?.plainTitle, nextText: next.map(Self.text),
            notes: current?.notes.joined(separator: "\n") ?? "",
            timer: PresentationTimer.format(state.timer.elapsed(at: now)), timerPaused: state.timer.isPaused,
            blank: state.isBlackedOut, frozen: state.frozenSlideIndex != nil, countdown: pace?.countdownWithLimits,
            pace: pace?.line, paceStanding: pace.map { Self.standing($0.standing) })
            .drawing(tool: state.ink.tool.rawValue, colour: Self.colour(state.ink), width: state.ink.width,
                     area: drawArea(now: now, clock: clock))
        // A finished stroke, an erasure, an undo is a new picture; a stroke growing is not (the page that draws it
        // shows it itself, and the picture follows when it is finished).
        let ink = state.ink.layers[InkLayerKey(page: state.audienceSlideIndex, isPrivate: false)] ?? []
        guard remote != shown || ink != shownInk else { return }
        shownInk = ink
        if remote != shown {
            shown = remote
            platform.publishRemote(remote, picture: nil)
        }
        renderPicture(now: now, clock: clock)
    }

    /// The remote's current half as a display of the audience view.
    private static var display: AudienceDisplay {
        let mode = DisplayMode(size: half)
        return AudienceDisplay(id: "remote", name: "remote", mode: mode,
                               layout: DisplayLayout(mode: mode, overscan: 0, compensation: .none))
    }

    /// Where the slide a finger draws on lies in the current half (``BrowserRemoteState/drawArea``): nil unless the
    /// room sees the speaker's current slide (the one ink goes to).
    private func drawArea(now: Double, clock: String) -> [Double]? {
        let state = controller.state
        guard state.audienceSlideIndex == state.slideIndex,
              let (slide, clip) = PresenterLayout.audienceSlideArea(controller.scene(at: now, clock: clock), on: Self.display)
        else { return nil }
        let w = Double(Self.half.width), h = Double(Self.half.height)
        func fractions(_ r: Rect) -> [Double] {
            let x: Double = Double(r.x) / w, y: Double = Double(r.y) / h
            let width: Double = Double(r.width) / w, height: Double = Double(r.height) / h
            return [x, y, width, height]
        }
        return fractions(slide) + fractions(clip)
    }

    /// The current tool's colour as `#rrggbbaa` (the highlighter translucent).
    static func colour(_ ink: InkBoard) -> String {
        let c = ink.colour
        let alpha = ink.tool == .highlighter ? UInt8((InkStroke.highlighterOpacity * 255).rounded()) : 255
        return "#" + [c.red, c.green, c.blue, alpha].map { String(format: "%02x", $0) }.joined()
    }

    /// The two halves as display lists: what the audience sees now, and the next slide's audience view.
    func lists(now: Double, clock: String, metrics: any TextMetrics) -> [DisplayList] {
        let layout = PresenterLayout(metrics: metrics, theme: controller.theme)
        let now = layout.external(controller.scene(at: now, clock: clock), on: Self.display)
        let frame = Rect(x: 0, y: 0, width: Self.half.width, height: Self.half.height)
        let next = controller.state.nextSlideIndex.map {
            layout.audience(controller.deck, slideIndex: $0, size: Self.half, safeFrame: frame)
        } ?? DisplayList(size: Self.half, operations: [.fill(frame, controller.theme.letterbox)])
        return [now, next]
    }

    /// Renders the stacked picture (640×720, opaque) unless it is the one sent last, and publishes it with the
    /// state when it is ready.
    private func renderPicture(now: Double, clock: String) {
        if metrics == nil { metrics = try? SDLPresenterCanvas(size: PixelSize(width: 1, height: 1), caches: caches) }
        guard let metrics else { return }
        let lists = lists(now: now, clock: clock, metrics: metrics)
        guard lists != pictured else { return }
        pictured = lists
        rendering?.cancel()
        picturesRendered += 1
        rendering = renderer.render(BrowserPictureRenderer.Job(size: Self.half, lists: lists)) { [weak self] png in
            guard let self, let png, let shown else { return }
            rendering = nil
            let frame = BrowserFrame(number: number, png: png)
            number &+= 1
            platform.publishRemote(shown, picture: frame)
        }
    }

    /// The remote's name for how the talk stands.
    static func standing(_ pace: Countdown.Pace) -> BrowserRemoteState.PaceStanding {
        switch pace {
        case .ahead: .ahead
        case .onPace: .onPace
        case .behind: .behind
        case .overtime: .overtime
        }
    }

    private static func text(_ slide: Slide) -> String {
        slide.blocks.compactMap { block -> String? in
            switch block {
            case .heading(let runs), .paragraph(let runs): InlineRun.plainText(runs)
            case .bullet(let level, let runs): String(repeating: "  ", count: level) + "• " + InlineRun.plainText(runs)
            case .image(let alt, _): "[\(alt)]"
            case .clip(let alt, let clip): "[video: \(alt.isEmpty ? clip.url.lastPathComponent : alt)]"
            case .page(let page): "[PDF page \(page.index + 1) of \(page.pageCount)]"
            }
        }.joined(separator: "\n")
    }
}
#endif
