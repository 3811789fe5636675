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
    /// The speaker's remote: state and pictures (BrowserRemoteFeed.swift).
    private let remote: BrowserRemoteFeed
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
        remote = BrowserRemoteFeed(controller: controller, platform: platform)
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
        remote.update(now: now, clock: clock)
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
}
#endif
