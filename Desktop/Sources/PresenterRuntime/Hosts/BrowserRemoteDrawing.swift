#if canImport(CSDL2)
public import ExternalDisplayBrowser
public import ExternalDisplayPresenter

/// Drawing from the speaker's remote page (issue 36, item 1): a finger on the current slide's picture draws as the
/// console's mouse does. The page names the tools by their key names and sends its strokes' points in slide
/// fractions, checked by the browser library (``ExternalDisplayBrowser/BrowserRemoteInk``); here they become the very
/// inputs a mouse drag on the console's slide gives the core (``PresenterController/inkInput(_:)``), so there is
/// one ink model and one key table.
extension BrowserAudienceHost {
    /// The keys the remote may send: the core's ink keys (tools, colour, width, clear, undo, redo), the speaker's
    /// private marks aside (the remote's picture is the room's view).
    public static let remoteKeys: [PresenterKey] = PresenterKey.allCases.filter { $0.isInkKey && $0 != .inkPrivate }

    /// The core's inputs for a remote's pen message: the first point of a stroke presses the pen, the others move
    /// it, and its end lifts it (or cancels the stroke) — what the console's mouse sends for the same points.
    public static func inputs(for ink: BrowserRemoteInk, controller: PresenterController) -> [PresenterInput] {
        var inputs: [PresenterInput] = []
        for (index, p) in ink.points.enumerated() {
            let point = InkPoint(x: p.x, y: p.y, pressure: p.pressure)
            inputs.append(controller.inkInput(index == 0 && ink.down ? .begin(point) : .move(point)))
        }
        switch ink.end {
        case .up?: inputs.append(controller.inkInput(.end))
        case .cancel?: inputs.append(controller.inkInput(.cancel))
        case nil: break
        }
        return inputs
    }

    /// The core's input for a remote's zoom message: the rectangle the pinch ended on, or the whole slide.
    public static func input(for zoom: BrowserRemoteZoom) -> PresenterInput {
        .zoom(zoom.rectangle.map { SlideRectangle(x: $0.x, y: $0.y, width: $0.width, height: $0.height) })
    }

    /// Takes the remote's tools and strokes to the core; a refused message is said once a connection.
    func listenForDrawing(_ runtime: PresenterRuntime) {
        platform.remoteKeyNames = Set(Self.remoteKeys.map(\.rawValue))
        platform.onRemoteKey = { [weak runtime] name in
            guard let key = PresenterKey(rawValue: name), Self.remoteKeys.contains(key) else { return }
            runtime?.send(.key(key))
        }
        platform.onRemoteInk = { [weak runtime] ink in
            guard let runtime else { return }
            for input in Self.inputs(for: ink, controller: runtime.controller) { runtime.send(input) }
        }
        platform.onRemoteZoom = { [weak runtime] zoom in runtime?.send(Self.input(for: zoom)) }
        platform.onRemoteRefused = { [weak runtime] line in runtime?.onSay(line) }
    }
}
#endif
