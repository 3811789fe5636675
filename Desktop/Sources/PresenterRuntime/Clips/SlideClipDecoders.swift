import DesktopImages
import DesktopVideo
import ExternalDisplayPresenter
import Foundation

/// The GStreamer decoders of the open slide clips, by file, and the picture each shows: opened with a bounded
/// wait (a broken, truncated or foreign file, or a decoder that stalls, becomes a ``SlideClipReport/failed(_:reason:)``),
/// each frame stored in ``ExternalDisplayPresenter/SlideClipFrames``. Used from one thread only: the clip
/// worker's while live, the main actor's headless.
final class SlideClipDecoders {
    /// The longest a decoder may take to open a file or give a frame, in seconds.
    let timeout: Double
    private var decoders: [URL: VideoDecoder] = [:]
    private var failed: Set<URL> = []
    /// The clip being streamed and where its stream stands (`generation`: which timeline it follows).
    private var stream: (url: URL, generation: Int, position: Double)?
    /// The last position decoded accurately per file (a paused clip is decoded once).
    private var still: [URL: Double] = [:]

    /// Where decoded frames go: the run's clip frames, which canvases draw.
    private let frames: SlideClipFrames

    init(timeout: Double, frames: SlideClipFrames) {
        self.timeout = timeout
        self.frames = frames
    }

    /// Opens the files of `clips` not open yet and closes the others; returns what was found out and the number
    /// of each opened clip's first frame (its poster).
    func keepOpen(_ clips: [URL]) -> (reports: [SlideClipReport], posters: [URL: Int]) {
        for url in decoders.keys where !clips.contains(url) {
            decoders[url] = nil
            still[url] = nil
            if stream?.url == url { stream = nil }
        }
        var reports: [SlideClipReport] = []
        var posters: [URL: Int] = [:]
        for url in clips where decoders[url] == nil && !failed.contains(url) {
            do {
                let decoder = try VideoDecoder(opening: url, timeout: timeout)
                decoders[url] = decoder
                // The first frame is the clip's poster until it plays: the slide shows it at once.
                if let first = decoder.lastFrame { posters[url] = show(first, of: url) }
                reports.append(.opened(url, duration: decoder.info.duration))
            } catch {
                failed.insert(url)
                reports.append(.failed(url, reason: error.description))
            }
        }
        return (reports, posters)
    }

    /// Shows the frame of `url` at `position` exactly (an accurate seek, waited for within ``timeout``): headless
    /// snapshots and paused clips. Returns the new frame's number, nil when nothing new was decoded, or the
    /// problem.
    func exactFrame(of url: URL, at position: Double) -> Result<Int?, VideoDecodingError> {
        guard let decoder = decoders[url] else { return .success(nil) }
        if still[url] == position { return .success(nil) }
        if stream?.url == url { stream = nil }
        do {
            let frame = try decoder.frame(at: max(0, position))
            still[url] = position
            return .success(show(frame, of: url))
        } catch {
            if case .endOfStream = error, let last = decoder.lastFrame {
                still[url] = position
                return .success(show(last, of: url))
            }
            return .failure(error)
        }
    }

    /// While a clip plays live: streams `url` from `position` (started again when the timeline changed, i.e.
    /// `generation` differs, or the position jumped, as when a looping clip starts over) and shows the newest
    /// frame due by `position`. Never waits for the decoder.
    func streamedFrame(of url: URL, at position: Double, generation: Int) -> Result<Int?, VideoDecodingError> {
        guard let decoder = decoders[url] else { return .success(nil) }
        still[url] = nil
        do {
            if let s = stream, s.url == url, s.generation == generation, position >= s.position - 0.25,
               position <= s.position + 2 {
                stream?.position = position
            } else {
                try decoder.startStreaming(from: max(0, position))
                stream = (url, generation, position)
            }
            guard let frame = try decoder.streamFrame(upTo: position) else { return .success(nil) }
            return .success(show(frame, of: url))
        } catch {
            // Past the last frame the last one stays on screen.
            if case .endOfStream = error { return .success(nil) }
            return .failure(error)
        }
    }

    /// Marks `url` as unplayable and closes it (the problem was reported).
    func fail(_ url: URL) {
        failed.insert(url)
        decoders[url] = nil
        if stream?.url == url { stream = nil }
    }

    /// Stores a decoded frame as `url`'s newest picture; returns its number.
    @discardableResult
    private func show(_ frame: VideoFrame, of url: URL) -> Int? {
        guard frame.width > 0, frame.height > 0, frame.pixels.count == frame.width * frame.height * 4 else { return nil }
        return frames.store(Bitmap(width: frame.width, height: frame.height, pixels: frame.pixels), for: url)
    }
}
