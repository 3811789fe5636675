#if canImport(CSDL2)
public import ExternalDisplayBrowser
public import ExternalDisplayKit
public import ExternalDisplayPresenter
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopText
import SDLWindows
import X11Outputs
public import Foundation

/// The presenter's audience view in browsers: a coordinator whose platform is the browser-display server,
/// reporting pages to the same runtime as the desktop or terminal console. Each pass lays the audience view
/// out once per distinct page layout, and each distinct picture is rendered once (pages of one mode share one
/// frame, the same PNG the headless snapshots write) and handed to the pages; an unchanged picture is never sent
/// again. The remote gets the speaker's state (notes included) and pictures of the current and next slide (BrowserRemoteFeed).
///
/// Ahead of time: the pictures the next and the previous key would show are rendered too and given to the pages
/// to hold decoded (``BrowserSurface/preload(_:)``), so a flip is a few-byte message and a draw on the page. The
/// renderer draws on the main actor one picture at a time (the current ones first) and encodes the PNG off it, so
/// the console is never held up by an encoder.
@MainActor
public final class BrowserAudienceHost: PresenterHost {
    /// The browser-display server.
    public let platform: BrowserDisplayPlatform
    private let coordinator: DisplayCoordinator<BrowserDisplayPlatform>
    private let controller: PresenterController
    private weak var runtime: PresenterRuntime?
    private var reporter: DisplayReporter?
    /// The QR panel on a desktop console (nil with the console in the terminal, which prints the codes).
    private var qr: ConsoleQR?
    /// Pictures ready, by size and content: those shown now and those held ahead.
    private var frames: [FrameKey: BrowserFrame] = [:]
    /// Pictures wanted and not ready: shown now (urgent) and ahead.
    private var urgent: [FrameKey] = []
    private var ahead: [FrameKey] = []
    private var wanted: Set<FrameKey> = []
    private var rendering: FrameKey?
    private var canvases: [PixelSize: SDLPresenterCanvas] = [:]
    private var nextNumber: UInt32 = 1
    /// The speaker's remote: state and pictures (BrowserRemoteFeed.swift).
    private let remote: BrowserRemoteFeed
    /// Audience pictures rendered so far (one per distinct size and content, not per page), ahead ones included.
    public private(set) var framesRendered = 0

    private struct FrameKey: Hashable {
        var size: PixelSize
        var list: DisplayList
    }

    /// A host serving `controller`'s audience view with `configuration`; call ``listen(qrOnConsole:)`` before the
    /// runtime runs.
    public init(controller: PresenterController, configuration: BrowserServerConfiguration,
                displayConfiguration: DisplayConfiguration) {
        self.controller = controller
        platform = BrowserDisplayPlatform(configuration: configuration)
        coordinator = DisplayCoordinator(platform: platform, configuration: displayConfiguration)
        remote = BrowserRemoteFeed(controller: controller, platform: platform)
    }

    /// Opens the server; returns the audience URL. With `qrOnConsole`, a desktop console shows the QR panel.
    public func listen(qrOnConsole: Bool) async throws(BrowserServerError) -> URL {
        let url = try await platform.listen()
        if qrOnConsole { qr = ConsoleQR(audienceURL: url.absoluteString, remoteURL: platform.remoteURL?.absoluteString) }
        return url
    }

    /// Starts reporting pages as displays and the remote's commands as the core's inputs.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        platform.onRemoteCommand = { [weak runtime] command in runtime?.send(.remote(Self.command(for: command))) }
        let reporter = DisplayReporter(runtime: runtime)
        self.reporter = reporter
        coordinator.delegate = reporter
        coordinator.start()
    }

    /// Stops serving; every page is disconnected.
    public func stop() { coordinator.stop() }

    /// Pages connected now.
    public var viewers: Int { platform.viewerCount }

    /// After each pass: the pages and the remote brought up to date.
    public func afterPass(at now: Double) { update(now: now) }

    /// The QR panel, on a desktop console only while only the speaker sees it (the remote's code never on a
    /// display the room may see).
    public func consoleOverlay(size: PixelSize) -> [DrawOperation] {
        qr?.operations(size: size, privateConsole: controller.state.mainDisplayIsPrivate) ?? []
    }

    /// U cycles the QR panel.
    public func perform(_ effect: PresenterEffect) {
        guard effect == .cycleShareCode, qr != nil else { return }
        qr?.cycle()
        runtime?.wake()
    }

    /// The core's remote command for a button of the browser remote.
    static func command(for command: BrowserRemoteCommand) -> PresenterRemoteCommand {
        switch command {
        case .next: .next
        case .previous: .previous
        case .blank: .blank
        case .pauseTimer: .playPause
        }
    }

    /// Brings every page and the remote up to date (call after each change of state): shows each page its
    /// picture when it is ready (else asks for it first of all), gives it the pictures ahead that are ready, and
    /// asks for the others.
    func update(now: Double) {
        let clock = presenterClock(Date())
        let scene = controller.scene(at: now, clock: clock)
        let scenesAhead = platform.configuration.sendsAhead ? Self.scenesAhead(of: scene) : []
        var plans: [DisplayLayout: (current: FrameKey, ahead: [FrameKey])] = [:]
        var wanted: Set<FrameKey> = [], urgent: [FrameKey] = [], ahead: [FrameKey] = []
        var sizes: Set<PixelSize> = []
        for display in controller.state.audienceDisplays {
            guard let surface = coordinator.surface(for: display.id) else { continue }
            var planned = plans[display.layout]
            if planned == nil {
                let size = display.layout.frame.size
                let budgetLeft = Self.pixelBudget - sizes.reduce(0) { $0 + $1.width * $1.height }
                if !sizes.contains(size), size.width * size.height > budgetLeft, let shared = Self.closest(size, in: plans) {
                    // Over the budget: this page shows the picture of the closest shape, which it scales to fill itself.
                    planned = shared
                } else if let made = plan(display, scene, scenesAhead) {
                    planned = made
                    plans[display.layout] = made
                    sizes.insert(size)
                    wanted.insert(made.current)
                    wanted.formUnion(made.ahead)
                    if frames[made.current] == nil { urgent.append(made.current) }
                    ahead += made.ahead.filter { frames[$0] == nil }
                }
            }
            guard let plan = planned else { continue }
            if let frame = frames[plan.current] { surface.show(frame) }
            surface.preload(plan.ahead.compactMap { frames[$0] })
        }
        // Only the pictures wanted now are kept: memory does not grow with the sizes pages ever had.
        frames = frames.filter { wanted.contains($0.key) }
        self.wanted = wanted
        self.urgent = urgent
        self.ahead = ahead
        canvases = canvases.filter { size, _ in wanted.contains { $0.size == size } }
        renderNext()
        remote.update(now: now, clock: clock)
    }

    /// The most pixels of distinct picture sizes rendered for pages at once (four 4K displays' worth: 133 MB of
    /// canvases at most). Pages of further sizes show the rendered picture of the closest shape, scaled: a crowd
    /// of pages of every size, or a page resizing among huge sizes, costs what four displays do.
    static let pixelBudget = 4 * 3_840 * 2_160

    /// The plan whose picture is closest in shape (aspect ratio; then the larger) to `size`.
    private static func closest(_ size: PixelSize,
                                in plans: [DisplayLayout: (current: FrameKey, ahead: [FrameKey])]) -> (current: FrameKey, ahead: [FrameKey])? {
        func aspect(_ size: PixelSize) -> Double { Double(max(size.width, 1)) / Double(max(size.height, 1)) }
        let wanted = aspect(size)
        return plans.values.min { a, b in
            let da = abs(log(aspect(a.current.size) / wanted)), db = abs(log(aspect(b.current.size) / wanted))
            if da != db { return da < db }
            return a.current.size.width * a.current.size.height > b.current.size.width * b.current.size.height
        }
    }

    /// What a display shows now and after each key the presenter may press next.
    private func plan(_ display: AudienceDisplay, _ scene: PresenterScene,
                      _ scenesAhead: [PresenterScene]) -> (current: FrameKey, ahead: [FrameKey])? {
        let size = display.layout.frame.size
        guard let canvas = canvas(size) else { return nil }
        let layout = PresenterLayout(metrics: canvas, theme: controller.theme)
        let current = FrameKey(size: size, list: layout.external(scene, on: display))
        var ahead: [FrameKey] = []
        for scene in scenesAhead {
            let key = FrameKey(size: size, list: layout.external(scene, on: display))
            if key != current, !ahead.contains(key) { ahead.append(key) }
        }
        return (current, ahead)
    }

    /// The scenes the core says may come next (``ExternalDisplayPresenter/PresenterState/statesAhead(at:)``).
    private static func scenesAhead(of scene: PresenterScene) -> [PresenterScene] {
        scene.state.statesAhead(at: scene.now).map { state in
            PresenterScene(deck: scene.deck, state: state, now: scene.now, clock: scene.clock,
                           mainDisplay: scene.mainDisplay)
        }
    }

    private func canvas(_ size: PixelSize) -> SDLPresenterCanvas? {
        if let canvas = canvases[size] { return canvas }
        guard let canvas = try? SDLPresenterCanvas(size: size) else { return nil }
        canvases[size] = canvas
        return canvas
    }

    /// Renders the next wanted picture (pictures shown now first): draws it on the main actor once the current
    /// pass is over, encodes it off the main actor, then brings the pages up to date and goes on with the next one.
    private func renderNext() {
        guard rendering == nil else { return }
        guard let key = (urgent + ahead).first(where: { frames[$0] == nil && wanted.contains($0) }),
              let canvas = canvas(key.size) else { return }
        rendering = key
        let number = nextNumber
        nextNumber &+= 1
        framesRendered += 1
        // After this pass: the console is drawn first.
        Task { @MainActor [weak self] in
            let bitmap = Self.draw(key.list, on: canvas)
            let png = await Task.detached(priority: .userInitiated) { bitmap.pngData() }.value
            guard let self else { return }
            rendering = nil
            if wanted.contains(key) { frames[key] = BrowserFrame(number: number, png: png) }
            update(now: runtime?.now ?? 0)
        }
    }

    /// Draws a list and reads the pixels back, opaque. A display shows colour, not transparency: the canvas leaves
    /// alpha just under 255 where text is blended, which a browser would composite over black. Frames go out
    /// opaque, as a cable display shows them.
    private static func draw(_ list: DisplayList, on canvas: SDLPresenterCanvas) -> Bitmap {
        canvas.draw(list)
        var bitmap = canvas.canvas.readPixels()
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 255 }
        }
        return bitmap
    }
}
#endif
