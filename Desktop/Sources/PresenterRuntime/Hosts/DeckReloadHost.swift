public import ExternalDisplayPresenter
import Dispatch
public import Foundation

/// Follows the deck's file while presenting: a deck exported again from the slide tool is read once it is
/// complete (``ExternalDisplayPresenter/DeckReloader``) and replaces the one shown, the current slide kept; a
/// damaged version is reported once and the old deck stays. The file is looked at once a second on a queue of
/// its own (reading it never runs on the presenter's loop, which wakes only when the deck changed).
@MainActor
public final class DeckReloadHost: PresenterHost {
    private let box: ReloaderBox
    private var timer: (any DispatchSourceTimer)?
    private let queue = DispatchQueue(label: "extdisplay.deck-reload")

    /// A host following the deck file at `url`.
    public init(url: URL, beamerNotes: BeamerNotes? = nil) {
        box = ReloaderBox(DeckReloader(url: url, beamerNotes: beamerNotes))
    }

    /// Starts looking at the file.
    public func start(in runtime: PresenterRuntime) {
        let slide = SlideIndexBox(runtime.controller.state.slideIndex)
        runtime.onSlideChange.append { index in slide.value = index }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler(handler: Self.check(box, slide, runtime))
        self.timer = timer
        timer.resume()
    }

    /// What the timer does on the host's queue (not on the main actor): reads the file there, and hands a deck
    /// read again, or the reason it cannot be, to the main actor.
    private nonisolated static func check(_ box: ReloaderBox, _ slide: SlideIndexBox,
                                          _ runtime: PresenterRuntime) -> @Sendable () -> Void {
        let weakRuntime = WeakRuntime(runtime)
        return {
            switch box.reloader.check(currentSlide: slide.value) {
            case .reloaded(let deck, let index):
                let change = DeckChange(deck: deck, slideIndex: index)
                Task { @MainActor in
                    guard let runtime = weakRuntime.value else { return }
                    runtime.perform(runtime.controller.replaceDeck(change.deck, slideIndex: change.slideIndex, at: runtime.now))
                    runtime.invalidate()
                }
            case .failed(let error):
                let message = "the deck file changed but cannot be read (\(error.description)); still showing the version read before"
                Task { @MainActor in weakRuntime.value?.onSay(message) }
            case .unchanged, .settling:
                break
            }
        }
    }

    /// Stops looking.
    public func stop() {
        timer?.cancel()
        timer = nil
    }
}

/// The reloader, used only on the host's queue.
private final class ReloaderBox: @unchecked Sendable {
    let reloader: DeckReloader
    init(_ reloader: DeckReloader) { self.reloader = reloader }
}

/// The slide shown, written on the main actor and read on the host's queue.
private final class SlideIndexBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int
    init(_ value: Int) { stored = value }
    var value: Int {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// The runtime, held weakly across the host's queue.
private final class WeakRuntime: @unchecked Sendable {
    weak var value: PresenterRuntime?
    init(_ value: PresenterRuntime) { self.value = value }
}

/// A deck read again, handed to the main actor.
private struct DeckChange: @unchecked Sendable {
    let deck: Deck
    let slideIndex: Int
}
