import Foundation

extension PresenterCore {
    /// Seconds the clip keys J and L move the playing clip back and forward.
    public static let clipSeekStep = 5.0

    /// After any input: the audience slide's first clip is the active one (a new slide's starts at its start,
    /// playing when it autoplays; the old one stops with its slide), and the clips to keep open are the active one
    /// and the next slide's first clip (opened ahead, so that it starts at once). Returns the open and close
    /// effects for the difference.
    mutating func syncClips(at now: Double) -> [PresenterEffect] {
        let slide = state.audienceSlideIndex
        let here = clipTable.indices.contains(slide) ? clipTable[slide].first : nil
        if let here {
            if state.clip?.slideIndex != slide || state.clip?.clip != here {
                state.clip = SlideClipPlayback(slideIndex: slide, clip: here, isPlaying: here.autoplay,
                                               anchorPosition: here.start, anchorTime: now,
                                               duration: state.clipDurations[here.url],
                                               problem: state.clipProblems[here.url])
            }
        } else if state.clip != nil {
            state.clip = nil
        }
        let next = clipTable.indices.contains(slide + 1) ? clipTable[slide + 1].first : nil
        var wanted: [SlideClip] = []
        for clip in [here, next].compactMap({ $0 }) where !wanted.contains(clip) && state.clipProblems[clip.url] == nil {
            wanted.append(clip)
        }
        let closing = state.openClips.filter { !wanted.contains($0) }
        let opening = wanted.filter { !state.openClips.contains($0) }
        state.openClips = wanted
        return closing.map(PresenterEffect.closeClip) + opening.map(PresenterEffect.openClip)
    }

    /// The clip keys: V plays or pauses (at its end: again from its start), J and L seek 5 s back and forward
    /// within the clip. Without a playable clip on the audience slide they only say so.
    mutating func pressClipKey(_ key: PresenterKey, at now: Double) -> [PresenterEffect] {
        guard var clip = state.clip, clip.problem == nil else {
            return [.say(state.clip == nil ? "no video on this slide" : "this slide's video cannot be played")]
        }
        let position = clip.position(at: now)
        switch key {
        case .clipPlayPause:
            if clip.hasEnded(at: now) {
                clip.anchorPosition = clip.start
                clip.isPlaying = true
            } else {
                clip.anchorPosition = position
                clip.isPlaying.toggle()
            }
        case .clipBack: clip.anchorPosition = clip.clamped(position - Self.clipSeekStep)
        case .clipForward: clip.anchorPosition = clip.clamped(position + Self.clipSeekStep)
        default: return []
        }
        clip.anchorTime = now.isFinite ? now : clip.anchorTime
        state.clip = clip
        return []
    }

    /// The platform opened a clip (`duration` nil when the file does not say) or could not.
    mutating func clipReport(_ url: SlideClipReport, at now: Double) -> [PresenterEffect] {
        switch url {
        case .opened(let url, let duration):
            guard let duration, duration.isFinite, duration > 0 else { return [] }
            state.clipDurations[url] = duration
            if state.clip?.clip.url == url { state.clip?.duration = duration }
            return []
        case .failed(let url, let reason):
            guard state.clipProblems[url] == nil else { return [] }
            state.clipProblems[url] = reason
            if state.clip?.clip.url == url {
                state.clip?.anchorPosition = state.clip?.position(at: now) ?? 0
                state.clip?.problem = reason
            }
            return [.say("video \(url.lastPathComponent) cannot be played: \(reason); the talk goes on without it")]
        }
    }
}

/// What the platform found out about a clip it was asked to open.
public enum SlideClipReport: Hashable, Sendable {
    /// The clip is open; its length in seconds, when the file says.
    case opened(URL, duration: Double?)
    /// The clip cannot be played (not a video, broken, truncated, a decoder that stalled), and why.
    case failed(URL, reason: String)
}
