#if canImport(CSDL2)
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import ExternalDisplaySDL
import Foundation

/// The presenter's audience view in browsers: a second coordinator whose platform is the browser-display server,
/// feeding the same ``PresenterController`` as the desktop or terminal console. Each pass renders the audience
/// view of every page's size once (pages of one mode share one frame, the same PNG the headless snapshots
/// write) and hands it to the pages; an unchanged picture is never sent again. The remote gets the speaker's
/// state (notes included) and a small picture of the current slide.
@MainActor
final class BrowserAudience {
    let platform: BrowserDisplayPlatform
    private let coordinator: DisplayCoordinator<BrowserDisplayPlatform>
    private let controller: PresenterController
    private var frames: [FrameKey: BrowserFrame] = [:]
    private var canvases: [PixelSize: SDLPresenterCanvas] = [:]
    private var nextNumber: UInt32 = 1
    private var remoteShown: BrowserRemoteState?
    private var remotePicture: (key: FrameKey, frame: BrowserFrame)?
    /// Audience pictures rendered so far (one per distinct size and content, not per page).
    private(set) var framesRendered = 0

    private struct FrameKey: Hashable {
        var size: PixelSize
        var list: DisplayList
    }

    init(controller: PresenterController, configuration: BrowserServerConfiguration,
         displayConfiguration: DisplayConfiguration) {
        self.controller = controller
        platform = BrowserDisplayPlatform(configuration: configuration)
        coordinator = DisplayCoordinator(platform: platform, configuration: displayConfiguration)
        coordinator.delegate = controller
    }

    /// Opens the server and starts reporting pages as displays; returns the audience URL.
    func start() async throws(BrowserServerError) -> URL {
        let url = try await platform.listen()
        coordinator.start()
        return url
    }

    /// Stops serving; every page is disconnected.
    func stop() { coordinator.stop() }

    /// Pages connected now.
    var viewers: Int { platform.viewerCount }

    /// Brings every page and the remote up to date (call after each change of state).
    func update(now: Double) {
        let clock = presenterClock(Date())
        var used: [FrameKey: BrowserFrame] = [:]
        for display in controller.state.audienceDisplays {
            guard let surface = coordinator.surface(for: display.id) else { continue }
            let size = display.layout.frame.size
            guard let canvas = canvas(size),
                  let list = controller.externalList(for: display.id, at: now, clock: clock, metrics: canvas) else { continue }
            let key = FrameKey(size: size, list: list)
            let frame = used[key] ?? frames[key] ?? render(list, on: canvas)
            used[key] = frame
            surface.show(frame)
        }
        // Only the pictures shown now are kept: memory does not grow with the sizes pages ever had.
        frames = used
        canvases = canvases.filter { size, _ in used.keys.contains { $0.size == size } }
        updateRemote(now: now, clock: clock)
    }

    private func canvas(_ size: PixelSize) -> SDLPresenterCanvas? {
        if let canvas = canvases[size] { return canvas }
        guard let canvas = try? SDLPresenterCanvas(size: size) else { return nil }
        canvases[size] = canvas
        return canvas
    }

    private func render(_ list: DisplayList, on canvas: SDLPresenterCanvas) -> BrowserFrame {
        canvas.draw(list)
        framesRendered += 1
        defer { nextNumber &+= 1 }
        // A display shows colour, not transparency: the canvas leaves alpha just under 255 where text is blended,
        // which a browser would composite over black. Frames go out opaque, as a cable display shows them.
        var bitmap = canvas.canvas.readPixels()
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 255 }
        }
        return BrowserFrame(number: nextNumber, png: bitmap.pngData())
    }

    // MARK: Remote

    private func updateRemote(now: Double, clock: String) {
        let state = controller.state, deck = controller.deck
        let slides = deck.slides
        let current = slides.indices.contains(state.slideIndex) ? slides[state.slideIndex] : nil
        let next = state.nextSlideIndex.map { slides[$0] }
        let remote = BrowserRemoteState(
            slide: slides.isEmpty ? 0 : state.slideIndex + 1, slideCount: slides.count,
            title: current?.plainTitle ?? deck.title, text: current.map(Self.text) ?? "",
            nextTitle: next?.plainTitle, nextText: next.map(Self.text),
            notes: current?.notes.joined(separator: "\n") ?? "",
            timer: PresentationTimer.format(state.timer.elapsed(at: now)), timerPaused: state.timer.isPaused,
            blank: state.isBlackedOut)
        guard remote != remoteShown else { return }
        remoteShown = remote
        platform.publishRemote(remote, picture: remotePictureFrame(now: now, clock: clock))
    }

    /// The audience view at 640×360 for the remote, rendered only when it changed.
    private func remotePictureFrame(now: Double, clock: String) -> BrowserFrame? {
        let mode = DisplayMode(width: 640, height: 360)
        let display = AudienceDisplay(id: "remote", name: "remote", mode: mode,
                                      layout: DisplayLayout(mode: mode, overscan: 0, compensation: .none))
        guard let canvas = canvas(mode.size) else { return nil }
        let scene = controller.scene(at: now, clock: clock)
        let list = PresenterLayout(metrics: canvas, theme: controller.theme).external(scene, on: display)
        let key = FrameKey(size: mode.size, list: list)
        if let remotePicture, remotePicture.key == key { return nil }
        let frame = render(list, on: canvas)
        framesRendered -= 1
        remotePicture = (key, frame)
        return frame
    }

    private static func text(_ slide: Slide) -> String {
        slide.blocks.compactMap { block -> String? in
            switch block {
            case .heading(let runs), .paragraph(let runs): InlineRun.plainText(runs)
            case .bullet(let level, let runs): String(repeating: "  ", count: level) + "• " + InlineRun.plainText(runs)
            case .image(let alt, _): "[\(alt)]"
            case .page(let page): "[PDF page \(page.index + 1) of \(page.pageCount)]"
            }
        }.joined(separator: "\n")
    }
}
#endif
