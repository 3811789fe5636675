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
/// frame, the same PNG the headless snapshots write, the ink aside) and handed to the pages; an unchanged picture is never sent
/// again. The remote gets the speaker's state (notes included) and pictures of the current and next slide (BrowserRemoteFeed).
///
/// Ink: a page's picture leaves the room's ink out, and the ink goes to the page as a text message it draws over
/// the picture (`PresenterLayout.browserInk`, at most one a page per ``inkInterval``, the newest winning, timed on
/// the runtime's clock through ``nextDeadline(after:)``): a stroke is no new picture. Ink over the message's
/// budget is drawn into the picture instead.
///
/// Ahead of time: the pictures the next and the previous key would show are rendered too and given to the pages
/// to hold decoded (``BrowserSurface/preload(_:)``), so a flip is a few-byte message and a draw on the page.
///
/// Budgets a page cannot exceed: the distinct picture sizes rendered at once hold at most `pixelBudget` pixels,
/// and the pictures held and in flight at most the configuration's ``ExternalDisplayBrowser/PictureBudget``
/// bytes (pictures ahead give way first, then further sizes show the picture of the closest shape). Pictures are
/// rendered off the console's thread (`BrowserPictureRenderer`), the ones shown now first, one at a time, the
/// newest wanted only: a render no longer wanted is cancelled. The console's thread only lays them out.
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
    /// The pictures admitted by the budgets, most wanted first (shown now, then ahead): the render order.
    private var wanted: [FrameKey] = []
    private var wantedSet: Set<FrameKey> = []
    /// The render under way.
    private var rendering: (key: FrameKey, ticket: BrowserPictureRenderer.Ticket)?
    /// Pictures whose canvas could not be made (not tried again while wanted).
    private var unrenderable: Set<FrameKey> = []
    /// The PNG bytes of the last picture of each size (what the next one is expected to take).
    private var expectedBytes: [PixelSize: Int] = [:]
    private let renderer: BrowserPictureRenderer
    private let caches: DrawingCaches
    /// Text is measured with this canvas when laying pictures out (the sizes of pages do not change it).
    private var metrics: SDLPresenterCanvas?
    private var nextNumber: UInt32 = 1
    /// The speaker's remote: state and pictures (BrowserRemoteFeed.swift).
    private let remote: BrowserRemoteFeed
    /// Audience pictures rendered so far (one per distinct size and content, not per page), ahead ones included.
    public private(set) var framesRendered = 0
    /// Ink messages handed to pages so far (each page's own).
    public private(set) var inkMessagesSent = 0
    /// The last ink message each page was given, and when (on the runtime's clock).
    private var inkSent: [DisplayID: (text: String, at: Double)] = [:]
    /// When a page's newer ink may go (a message was sent less than ``inkInterval`` before).
    private var inkDeadline: Double?

    private struct FrameKey: Hashable {
        var size: PixelSize
        var list: DisplayList
    }

    /// A host serving `controller`'s audience view with `configuration`, its pictures drawn from the run's `caches`; call ``listen(qrOnConsole:)`` before the
    /// runtime runs.
    public init(controller: PresenterController, configuration: BrowserServerConfiguration,
                displayConfiguration: DisplayConfiguration, caches: DrawingCaches) {
        self.controller = controller
        self.caches = caches
        renderer = BrowserPictureRenderer(caches: caches)
        platform = BrowserDisplayPlatform(configuration: configuration)
        coordinator = DisplayCoordinator(platform: platform, configuration: displayConfiguration)
        remote = BrowserRemoteFeed(controller: controller, platform: platform, caches: caches)
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
        listenForDrawing(runtime)
        let reporter = DisplayReporter(runtime: runtime)
        self.reporter = reporter
        coordinator.delegate = reporter
        coordinator.start()
    }

    /// Stops serving; every page is disconnected and the render under way is cancelled.
    public func stop() {
        rendering?.ticket.cancel()
        rendering = nil
        coordinator.stop()
    }

    /// Pages connected now.
    public var viewers: Int { platform.viewerCount }

    /// After each pass: the pages and the remote brought up to date.
    public func afterPass(at now: Double) { update(now: now) }

    /// The next moment a page's held-back ink may go.
    public func nextDeadline(after now: Double) -> Double? { inkDeadline.map { max($0, now) } }

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
        case .freeze: .freeze
        }
    }

    /// A layout's picture now and the pictures ahead, and the ink drawn over the picture now.
    private typealias Plan = (current: FrameKey, ahead: [FrameKey], ink: BrowserInkLayer)

    /// Brings every page and the remote up to date (call after each change of state): shows each page its
    /// picture when it is ready (else asks for it first of all), gives it the pictures ahead that are ready, and
    /// asks for the others, within the budgets.
    func update(now: Double) {
        let clock = presenterClock(Date())
        let scene = controller.scene(at: now, clock: clock)
        let scenesAhead = platform.configuration.sendsAhead ? Self.scenesAhead(of: scene) : []
        // Each layout's own plan while the distinct sizes fit the pixel budget; pages of further sizes share.
        var plans: [DisplayLayout: Plan] = [:]
        var layouts: [DisplayLayout] = []
        var sizes: Set<PixelSize> = []
        var pages: [(surface: BrowserSurface, layout: DisplayLayout)] = []
        for display in controller.state.audienceDisplays {
            guard let surface = coordinator.surface(for: display.id) else { continue }
            pages.append((surface, display.layout))
            guard plans[display.layout] == nil else { continue }
            let size = display.layout.frame.size
            let pixelsLeft = Self.pixelBudget - sizes.reduce(0) { $0 + $1.width * $1.height }
            if !sizes.contains(size), size.width * size.height > pixelsLeft, !plans.isEmpty { continue }
            guard let made = plan(display, scene, scenesAhead) else { continue }
            plans[display.layout] = made
            layouts.append(display.layout)
            sizes.insert(size)
        }
        // The byte budget: pictures shown now first, then the first picture ahead of each layout, then the second.
        var wants: [FrameKey] = []
        var seen: Set<FrameKey> = []
        let ranks = layouts.compactMap { plans[$0].map { [$0.current] + $0.ahead } }
        for rank in 0..<(ranks.map(\.count).max() ?? 0) {
            for keys in ranks where rank < keys.count && seen.insert(keys[rank]).inserted { wants.append(keys[rank]) }
        }
        frames = frames.filter { seen.contains($0.key) }
        let held = frames.values.reduce(0) { $0 + $1.byteCount }
        let admitted = platform.configuration.pictureBudget.admit(
            wants.map { PictureBudget.Want(size: $0.size, heldBytes: frames[$0]?.byteCount,
                                           expectedBytes: expectedBytes[$0.size] ?? 0) },
            pinnedBytes: BrowserFrame.liveBytes - held)
        // Pictures ahead count only for layouts whose picture shown now is admitted (the others share one).
        let fits = Set(zip(wants, admitted).filter(\.1).map(\.0))
        let useful = Set(layouts.flatMap { layout -> [FrameKey] in
            guard let plan = plans[layout], fits.contains(plan.current) else { return [] }
            return [plan.current] + plan.ahead
        })
        wanted = wants.filter { fits.contains($0) && useful.contains($0) }
        wantedSet = Set(wanted)
        // Only the pictures wanted now are kept: memory does not grow with the sizes pages ever had.
        frames = frames.filter { wantedSet.contains($0.key) }
        unrenderable = unrenderable.intersection(wantedSet)
        expectedBytes = expectedBytes.filter { sizes.contains($0.key) }
        for layout in layouts { plans[layout]?.ahead.removeAll { !wantedSet.contains($0) } }
        let own = plans.filter { wantedSet.contains($0.value.current) }
        inkDeadline = nil
        var inkPages: Set<DisplayID> = []
        for (surface, layout) in pages {
            // A page whose own picture does not fit shows the picture of the closest shape, which it scales.
            guard let plan = own[layout] ?? Self.closest(layout.frame.size, in: own) else { continue }
            if let frame = frames[plan.current] {
                surface.show(frame)
                inkPages.insert(surface.display)
                sendInk(plan.ink.message(frame: frame.number), to: surface, now: now)
            }
            surface.preload(plan.ahead.compactMap { frames[$0] })
        }
        inkSent = inkSent.filter { inkPages.contains($0.key) }
        renderNext()
        remote.update(now: now, clock: clock)
    }

    /// At most one ink message a page per frame (60 a second): a stroke's points arrive faster than that.
    static let inkInterval = 1.0 / 60

    /// Gives a page the ink over the picture it shows, unless it has it; newer ink than a message sent less than
    /// ``inkInterval`` ago waits for the loop's next pass at the deadline (the newest then wins).
    private func sendInk(_ message: String, to surface: BrowserSurface, now: Double) {
        let last = inkSent[surface.display]
        guard last?.text != message else { return }
        if let last, now - last.at < Self.inkInterval {
            inkDeadline = min(inkDeadline ?? .infinity, last.at + Self.inkInterval)
            return
        }
        guard surface.showInk(message) else { return }
        inkSent[surface.display] = (message, now)
        inkMessagesSent += 1
    }

    /// The most pixels of distinct picture sizes rendered for pages at once (four 4K displays' worth): the work
    /// a flip costs. Pages of further sizes show the rendered picture of the closest shape, scaled: a crowd of
    /// pages of every size, or a page resizing among huge sizes, costs what four displays do.
    static let pixelBudget = 4 * 3_840 * 2_160

    /// The plan whose picture is closest in shape (aspect ratio; then the larger) to `size`.
    private static func closest(_ size: PixelSize, in plans: [DisplayLayout: Plan]) -> Plan? {
        func aspect(_ size: PixelSize) -> Double { Double(max(size.width, 1)) / Double(max(size.height, 1)) }
        let wanted = aspect(size)
        return plans.values.min { a, b in
            let da = abs(log(aspect(a.current.size) / wanted)), db = abs(log(aspect(b.current.size) / wanted))
            if da != db { return da < db }
            return a.current.size.width * a.current.size.height > b.current.size.width * b.current.size.height
        }
    }

    /// What a display shows now and after each key the presenter may press next.
    private func plan(_ display: AudienceDisplay, _ scene: PresenterScene, _ scenesAhead: [PresenterScene]) -> Plan? {
        let size = display.layout.frame.size
        if metrics == nil { metrics = try? SDLPresenterCanvas(size: PixelSize(width: 1, height: 1), caches: caches) }
        guard let metrics else { return nil }
        let layout = PresenterLayout(metrics: metrics, theme: controller.theme)
        // The room's ink goes to the page as a message drawn over the picture, not in it (unless it does not fit
        // the message's budget): a stroke is no new picture.
        let ink = layout.browserInk(scene, on: display)
        let current = FrameKey(size: size, list: layout.external(scene, on: display, inkInPicture: ink == nil))
        var ahead: [FrameKey] = []
        for scene in scenesAhead {
            let fits = layout.browserInk(scene, on: display) != nil
            let key = FrameKey(size: size, list: layout.external(scene, on: display, inkInPicture: !fits))
            if key != current, !ahead.contains(key) { ahead.append(key) }
        }
        return (current, ahead, ink ?? .empty)
    }

    /// The scenes the core says may come next (``ExternalDisplayPresenter/PresenterState/statesAhead(at:)``).
    private static func scenesAhead(of scene: PresenterScene) -> [PresenterScene] {
        scene.state.statesAhead(at: scene.now).map { state in
            PresenterScene(deck: scene.deck, state: state, now: scene.now, clock: scene.clock,
                           mainDisplay: scene.mainDisplay)
        }
    }

    /// Renders the next wanted picture (pictures shown now first) off the console's thread, then brings the
    /// pages up to date and goes on with the next one. A render no longer wanted is cancelled.
    private func renderNext() {
        if let (key, ticket) = rendering, !wantedSet.contains(key) {
            ticket.cancel()
            rendering = nil
        }
        guard rendering == nil,
              let key = wanted.first(where: { frames[$0] == nil && !unrenderable.contains($0) }) else { return }
        let number = nextNumber
        nextNumber &+= 1
        framesRendered += 1
        let ticket = renderer.render(BrowserPictureRenderer.Job(size: key.size, lists: [key.list])) { [weak self] png in
            guard let self else { return }
            rendering = nil
            if let png {
                expectedBytes[key.size] = png.count
                if wantedSet.contains(key) { frames[key] = BrowserFrame(number: number, png: png) }
            } else {
                unrenderable.insert(key)
            }
            update(now: runtime?.now ?? 0)
            // Ink held back here (off a pass) has its deadline read after the next pass: wake the loop for it.
            if inkDeadline != nil { runtime?.wake() }
        }
        rendering = (key, ticket)
    }
}
#endif
