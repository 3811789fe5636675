public import ExternalDisplayPresenter
import Dispatch
public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Follows the deck's file while presenting: a deck exported again from the slide tool is read once it is
/// complete (``ExternalDisplayPresenter/DeckReloader``) and replaces the one shown, the current slide kept; a
/// damaged version is reported once and the old deck stays. The deck's folder is watched with inotify, so an idle
/// talk never wakes for it: the file is looked at when something in the folder changed, and again while it is
/// still being written (until it settles); where inotify is not available, once a second. All of it runs on a
/// queue of its own (reading the deck never runs on the presenter's loop, which wakes only when the deck changed).
@MainActor
public final class DeckReloadHost: PresenterHost {
    private let box: ReloaderBox
    private var timer: (any DispatchSourceTimer)?
    private var watch: (any DispatchSourceRead)?
    private let queue = DispatchQueue(label: "extdisplay.deck-reload")
    private let url: URL

    /// A host following the deck file at `url`; its images are checked into the run's `caches`.
    public init(url: URL, beamerNotes: BeamerNotes? = nil, caches: DrawingCaches) {
        self.url = url
        let imageProblem = caches.imageProblem
        box = ReloaderBox(DeckReloader(url: url, beamerNotes: beamerNotes, read: { url in
            Result { () throws(DeckError) -> Deck in
                try DeckParser.parse(contentsOf: url, beamerNotes: beamerNotes, imageProblem: imageProblem)
            }
        }))
    }

    /// Whether the folder is watched with inotify (false: the file is looked at once a second).
    public var watchesChanges: Bool { watch != nil }

    /// Starts looking at the file.
    public func start(in runtime: PresenterRuntime) {
        let slide = SlideIndexBox(runtime.controller.state.slideIndex)
        runtime.onSlideChange.append { index in slide.value = index }
        let check = Self.check(box, slide, runtime, queue: queue)
        if let watch = Self.watchFolder(of: url, queue: queue, onChange: check) {
            self.watch = watch
            watch.resume()
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler(handler: check)
        self.timer = timer
        timer.resume()
    }

    /// An inotify watch on the deck's folder (an exporter may write the file in place, or write another one and
    /// rename it over the deck), whose events call `onChange` on `queue`; nil where inotify is not available.
    private nonisolated static func watchFolder(of url: URL, queue: DispatchQueue,
                                                onChange: @escaping @Sendable () -> Void) -> (any DispatchSourceRead)? {
        #if canImport(Glibc)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        guard inotify_add_watch(fd, url.deletingLastPathComponent().path, mask) >= 0 else {
            close(fd)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
            onChange()
        }
        source.setCancelHandler { close(fd) }
        return source
        #else
        return nil
        #endif
    }

    /// What a change (or the fallback timer) does on the host's queue (not on the main actor): reads the file
    /// there, and hands a deck read again, or the reason it cannot be, to the main actor. A file still being
    /// written is looked at again once it may have settled.
    private nonisolated static func check(_ box: ReloaderBox, _ slide: SlideIndexBox, _ runtime: PresenterRuntime,
                                          queue: DispatchQueue) -> @Sendable () -> Void {
        let weakRuntime = WeakRuntime(runtime)
        let again = RecheckBox()
        /// `scheduling`: a look caused by a change (or the timer) may schedule one more; a scheduled one does not
        /// (a file left unfinished is looked at again when something in the folder changes).
        @Sendable func look(scheduling: Bool) {
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
            case .settling:
                // Nothing may happen in the folder once the writer stops: look again when it may have settled,
                // counting from the latest change (an earlier scheduled look is superseded).
                guard scheduling else { break }
                let generation = again.next()
                queue.asyncAfter(deadline: .now() + box.reloader.settleSeconds + 0.05) {
                    if again.isCurrent(generation) { look(scheduling: false) }
                }
            case .unchanged:
                break
            }
        }
        return { look(scheduling: true) }
    }

    /// Stops looking.
    public func stop() {
        timer?.cancel()
        timer = nil
        watch?.cancel()
        watch = nil
    }
}

/// The latest look scheduled ahead: only it runs (used only on the host's queue).
private final class RecheckBox: @unchecked Sendable {
    private var generation = 0
    /// A new generation; earlier scheduled looks are superseded.
    func next() -> Int {
        generation += 1
        return generation
    }
    func isCurrent(_ value: Int) -> Bool { value == generation }
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
