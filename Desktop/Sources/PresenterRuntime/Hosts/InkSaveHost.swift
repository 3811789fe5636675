public import ExternalDisplayPresenter
public import Foundation

/// Keeps a PDF talk's ink in the PDF: at the start it reads back the ink of an earlier run from the annotated
/// copy (``ExternalDisplayPresenter/InkAnnotationReader``) and gives it to the core; on Ctrl-S
/// (``ExternalDisplayPresenter/PresenterEffect/saveInk``) and when the talk ends (if the ink changed) it writes
/// the annotated copy again from the original's bytes (``ExternalDisplayPresenter/InkAnnotationWriter``). The
/// deck's own file is never written. A Markdown deck read from a file keeps its ink beside it in the same way, as a
/// JSON ink file (``ExternalDisplayPresenter/InkFile``, read and written by ``ExternalDisplayPresenter/InkFileStore``:
/// atomic writes, a damaged file kept as `.bad`).
///
/// ```swift
/// runtime.add(InkSaveHost(output: nil))   // talk.pdf → talk-annotated.pdf, talk.md → talk.ink.json
/// ```
@MainActor
public final class InkSaveHost: PresenterHost {
    /// Where the annotated copy goes (nil: ``ExternalDisplayPresenter/InkAnnotationWriter/defaultOutput(for:)``), or
    /// a Markdown deck's ink file (nil: ``ExternalDisplayPresenter/InkFile/companion(of:)``).
    public let output: URL?
    /// Whether the ink of an earlier run is read back at the start.
    public let reloads: Bool
    private weak var runtime: PresenterRuntime?
    private var savedInk: [Int: [InkStroke]] = [:]
    /// A Markdown deck's ink file, once the start found the deck is one read from a file.
    private var store: InkFileStore?
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

    /// The ink file of a Markdown deck read from a file. `--ink-out` naming a PDF or the deck itself is refused
    /// with a line and the default is used: a Markdown deck's ink is JSON (`extdisplay export` makes a PDF), and
    /// the deck is never written.
    private func markdownStore(_ runtime: PresenterRuntime) -> InkFileStore? {
        guard pages == nil, let file = runtime.controller.deck.file else { return nil }
        let standard = InkFile.companion(of: file)
        guard let output else { return InkFileStore(url: standard) }
        var a = stat(), b = stat()
        if output.standardizedFileURL.path == file.standardizedFileURL.path
            || (stat(output.path, &a) == 0 && stat(file.path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            runtime.onSay("--ink-out names the deck itself, which is never written: the ink goes to \(standard.path)")
            return InkFileStore(url: standard)
        }
        if output.pathExtension.lowercased() == "pdf" {
            runtime.onSay("--ink-out names a PDF, but a Markdown deck's ink is saved as JSON: it goes to \(standard.path) "
                          + "(`extdisplay export` writes the deck with its ink as a PDF)")
            return InkFileStore(url: standard)
        }
        return InkFileStore(url: output)
    }

    /// Reads back the ink of an earlier run, if the annotated copy (a Markdown deck: its ink file) exists.
    public func start(in runtime: PresenterRuntime) {
        self.runtime = runtime
        if var store = markdownStore(runtime) {
            if reloads {
                let (strokes, lines) = store.load(for: runtime.controller.deck)
                for line in lines { runtime.onSay(line) }
                if !strokes.isEmpty {
                    runtime.send(.inkLoaded(strokes))
                    savedInk = runtime.controller.state.ink.savedStrokes
                    runtime.onSay("ink of an earlier run read back from \(store.url.lastPathComponent): "
                                  + "\(strokes.values.reduce(0) { $0 + $1.count }) strokes on \(strokes.count) slides")
                }
            }
            self.store = store
            return
        }
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
        if store != nil {
            saveMarkdown(ink)
            return
        }
        guard let pages, let destination else {
            runtime.onSay("this deck was not read from a file, so its ink is not saved")
            return
        }
        Task.detached {
            let result = Result { () throws(InkSaveError) -> InkAnnotationWriter.Outcome in
                try InkAnnotationWriter.write(strokes: ink, pages: pages, to: destination)
            }
            await MainActor.run { [weak self] in self?.saved(ink, to: destination, result) }
        }
    }

    private func saved(_ ink: [Int: [InkStroke]], to destination: URL, _ result: Result<InkAnnotationWriter.Outcome, InkSaveError>) {
        switch result {
        case .success(let outcome):
            savedInk = ink
            written.append(destination)
            say(outcome, destination)
        case .failure(let error):
            runtime?.onSay("the ink was not saved: \(error.description)")
        }
    }

    /// Says what a write did: the strokes saved, then a line for each page whose ink was left out.
    private func say(_ outcome: InkAnnotationWriter.Outcome, _ destination: URL) {
        runtime?.onSay("ink saved: \(outcome.strokes) strokes in \(destination.path) (the original is unchanged)")
        for problem in outcome.problems { runtime?.onSay("ink not saved on " + problem) }
    }

    /// The talk ends: the ink is saved if it changed.
    public func stop() { save(always: false) }

    private func save(always: Bool) {
        guard let runtime else { return }
        let ink = runtime.controller.state.ink.savedStrokes
        guard always || ink != savedInk else { return }
        if store != nil {
            saveMarkdown(ink)
            return
        }
        guard let pages, let destination else {
            if always { runtime.onSay("this deck was not read from a file, so its ink is not saved") }
            return
        }
        do {
            let outcome = try InkAnnotationWriter.write(strokes: ink, pages: pages, to: destination)
            savedInk = ink
            written.append(destination)
            say(outcome, destination)
        } catch {
            runtime.onSay("the ink was not saved: \(error.description)")
        }
    }

    /// Writes a Markdown deck's ink file now (it is small: on the loop) and says how it went.
    private func saveMarkdown(_ ink: [Int: [InkStroke]]) {
        guard let runtime, var store else { return }
        do {
            let saved = try store.save(ink, deck: runtime.controller.deck)
            savedInk = ink
            written.append(store.url)
            if let aside = saved.keptAside { runtime.onSay("the damaged ink file was kept as \(aside.path)") }
            runtime.onSay("ink saved: \(saved.count) strokes in \(store.url.path) (the deck is unchanged)")
            if saved.isTooLargeToRead {
                runtime.onSay("the ink file is larger than the \(InkFile.fileLimit >> 20) MiB the next run reads: "
                              + "clear the ink of some slides (K) and save again, or it will not be read back")
            }
        } catch {
            runtime.onSay("the ink was not saved: \(error.description)")
        }
        self.store = store
    }
}
