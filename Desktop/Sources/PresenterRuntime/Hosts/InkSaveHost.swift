public import ExternalDisplayPresenter
public import Foundation

/// Keeps a PDF talk's ink in the PDF: at the start it reads back the ink of an earlier run from the annotated
/// copy (``ExternalDisplayPresenter/InkAnnotationReader``) and gives it to the core; on Ctrl-S
/// (``ExternalDisplayPresenter/PresenterEffect/saveInk``) and when the talk ends (if the ink changed) it writes
/// the annotated copy again from the original's bytes (``ExternalDisplayPresenter/InkAnnotationWriter``). The
/// deck's own file is never written. A Markdown deck's ink is not saved (it says so once, on Ctrl-S).
///
/// ```swift
/// runtime.add(InkSaveHost(output: nil))   // talk.pdf → talk-annotated.pdf
/// ```
@MainActor
public final class InkSaveHost: PresenterHost {
    /// Where the annotated copy goes (nil: ``ExternalDisplayPresenter/InkAnnotationWriter/defaultOutput(for:)``).
    public let output: URL?
    /// Whether the ink of an earlier run is read back at the start.
    public let reloads: Bool
    private weak var runtime: PresenterRuntime?
    private var savedInk: [Int: [InkStroke]] = [:]
    /// The copies written so far (tests and the end-of-talk report).
    public private(set) var written: [URL] = []

    /// A host writing to `output` (nil: `NAME-annotated.pdf` beside the deck); `reloads`: read the ink back.
    public init(output: URL?, reloads: Bool = true) {
        self.output = output
        self.reloads = reloads
    }

    private var pages: [PDFPage]? {
        guard let deck = runtime?.controller.deck, !deck.slides.isEmpty else { return nil }
        let pages = deck.slides.compactMap(\.pdfPage)
        return pages.count == deck.slides.count ? pages : nil
    }

    private var destination: URL? {
        guard let document = pages?.first?.document else { return nil }
        return output ?? InkAnnotationWriter.defaultOutput(for: document)
    }

    /// Reads back the ink of an earlier run, if the annotated copy exists.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        guard reloads, let pages, let destination, FileManager.default.fileExists(atPath: destination.path) else { return }
        let (strokes, problem) = InkAnnotationReader.read(destination, pages: pages)
        if let problem { runtime.onSay(problem) }
        guard !strokes.isEmpty else { return }
        runtime.send(.inkLoaded(strokes))
        savedInk = runtime.controller.state.ink.savedStrokes
        runtime.onSay("ink of an earlier run read back from \(destination.lastPathComponent): "
                      + "\(strokes.values.reduce(0) { $0 + $1.count }) strokes")
    }

    /// Ctrl-S saves now, off the loop (mutool reads the pages on another thread; the talk goes on); the result
    /// is said when it is written.
    public func perform(_ effect: PresenterEffect) {
        guard effect == .saveInk, let runtime else { return }
        let ink = runtime.controller.state.ink.savedStrokes
        guard let pages, let destination else {
            runtime.onSay("the ink of a Markdown deck is not saved into a file yet")
            return
        }
        Task.detached {
            let result = Result { () throws(InkSaveError) -> Int in
                try InkAnnotationWriter.write(strokes: ink, pages: pages, to: destination)
            }
            await MainActor.run { [weak self] in self?.saved(ink, to: destination, result) }
        }
    }

    private func saved(_ ink: [Int: [InkStroke]], to destination: URL, _ result: Result<Int, InkSaveError>) {
        switch result {
        case .success(let count):
            savedInk = ink
            written.append(destination)
            runtime?.onSay("ink saved: \(count) strokes in \(destination.path) (the original is unchanged)")
        case .failure(let error):
            runtime?.onSay("the ink was not saved: \(error.description)")
        }
    }

    /// The talk ends: the ink is saved if it changed.
    public func stop() { save(always: false) }

    private func save(always: Bool) {
        guard let runtime else { return }
        let ink = runtime.controller.state.ink.savedStrokes
        guard always || ink != savedInk else { return }
        guard let pages, let destination else {
            if always { runtime.onSay("the ink of a Markdown deck is not saved into a file yet") }
            return
        }
        do {
            let count = try InkAnnotationWriter.write(strokes: ink, pages: pages, to: destination)
            savedInk = ink
            written.append(destination)
            runtime.onSay("ink saved: \(count) strokes in \(destination.path) (the original is unchanged)")
        } catch {
            runtime.onSay("the ink was not saved: \(error.description)")
        }
    }
}
