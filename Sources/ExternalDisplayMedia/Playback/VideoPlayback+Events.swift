import Foundation

extension VideoPlayback {
    /// Applies one event of a batch; emits only refusals, answers and item requests (the rest at the end).
    mutating func apply(_ event: VideoPlaybackEvent, _ context: inout BatchContext) {
        switch event {
        case .displayAttached(let display):
            if let index = displays.firstIndex(where: { $0.id == display.id }) {
                displays[index] = display
            } else {
                displays.append(display)
            }
        case .displayDetached(let id):
            guard let index = displays.firstIndex(where: { $0.id == id }) else {
                return context.effects.append(.failed(.unknownDisplay(id: id)))
            }
            displays.remove(at: index)
        case .load(let newItem, let position, let playing):
            guard position.isFinite else { return context.effects.append(.failed(.nonFinitePosition(position))) }
            item = newItem
            isKeptInMainWindow = false
            hasReachedEnd = false
            let start = newItem.metadata.isLiveStream ? 0 : position
            timeline = PlaybackTimeline(elapsed: start, at: context.now, rate: playing ? preferredRate : 0,
                                        duration: newItem.metadata.duration)
            status = playing ? .playing : .paused
            context.loaded = true
        case .unload:
            item = nil
            status = .stopped
            timeline = .idle
            hasReachedEnd = false
            isKeptInMainWindow = false
        case .play: if requireItem("play", &context) { play(&context) }
        case .pause: if requireItem("pause", &context) { pause(&context) }
        case .togglePlayPause:
            guard requireItem("play or pause", &context) else { return }
            if status == .playing { pause(&context) } else { play(&context) }
        case .seek(let target):
            guard requireItem("seek", &context) else { return }
            seek(to: target, &context)
        case .seekBy(let offset):
            guard requireItem("seek", &context) else { return }
            guard offset.isFinite else { return context.effects.append(.failed(.nonFinitePosition(offset))) }
            seek(to: timeline.position(at: context.now) + offset, &context)
        case .setRate(let rate): setRate(rate, &context)
        case .setVolume(let level):
            guard level.isFinite else { return context.effects.append(.failed(.invalidVolume(level))) }
            volume = min(1, max(0, level))
        case .remote(let command): receive(command, &context)
        case .moveToExternalDisplay:
            guard let item = self.item else {
                return context.effects.append(.failed(.nothingLoaded(request: "move the video to the external display")))
            }
            let decision = item.externalPlaybackDecision
            guard decision.usesExternalPlaybackWhileExternalScreenIsActive else {
                return context.effects.append(.failed(.externalPlaybackNotAllowed(decision.rule)))
            }
            guard chosenDisplay != nil else { return context.effects.append(.failed(.noExternalDisplay)) }
            isKeptInMainWindow = false
        case .moveToMainWindow:
            if requireItem("move the video to the main window", &context) { isKeptInMainWindow = true }
        case .durationFound(let duration):
            guard requireItem("set the duration", &context) else { return }
            guard duration.isFinite, duration >= 0 else {
                return context.effects.append(.failed(.invalidDuration(duration)))
            }
            setDuration(duration, &context)
        case .endOfMedia:
            guard requireItem("end the video", &context) else { return }
            let end = timeline.duration ?? timeline.position(at: context.now)
            if timeline.duration == nil { setDuration(end, &context) }
            timeline = PlaybackTimeline(elapsed: end, at: context.now, rate: 0, duration: timeline.duration)
            status = .paused
            hasReachedEnd = true
        case .mediaFailed(let reason):
            context.effects.append(.failed(.mediaFailed(title: item?.metadata.title, reason: reason)))
            apply(.unload, &context)
        }
    }

    private func requireItem(_ request: String, _ context: inout BatchContext) -> Bool {
        guard item == nil else { return true }
        context.effects.append(.failed(.nothingLoaded(request: request)))
        return false
    }

    private mutating func play(_ context: inout BatchContext) {
        guard status != .playing else { return }
        if hasReachedEnd || status == .stopped {
            timeline = timeline.seeking(to: 0, at: context.now)
            hasReachedEnd = false
            context.jumped = true
        }
        timeline = timeline.changingRate(to: preferredRate, at: context.now)
        status = .playing
    }

    private mutating func pause(_ context: inout BatchContext) {
        guard status == .playing else { return }
        timeline = timeline.changingRate(to: 0, at: context.now)
        status = .paused
    }

    private mutating func stop(_ context: inout BatchContext) {
        timeline = PlaybackTimeline(elapsed: 0, at: context.now, rate: 0, duration: timeline.duration)
        status = .stopped
        hasReachedEnd = false
        context.jumped = true
    }

    private mutating func seek(to target: TimeInterval, _ context: inout BatchContext) {
        guard target.isFinite else { return context.effects.append(.failed(.nonFinitePosition(target))) }
        if let item, item.metadata.isLiveStream {
            return context.effects.append(.failed(.notSeekable(title: item.metadata.title)))
        }
        timeline = timeline.seeking(to: target, at: context.now)
        hasReachedEnd = false
        if status == .stopped { status = .paused }
        context.jumped = true
    }

    private mutating func setRate(_ rate: Double, _ context: inout BatchContext) {
        guard rate.isFinite, rate > 0 else { return context.effects.append(.failed(.invalidRate(rate))) }
        let supported = configuration.capabilities.supportedRates
        guard supported.contains(rate) else {
            return context.effects.append(.failed(.unsupportedRate(rate, supported: supported)))
        }
        preferredRate = rate
        if status == .playing { timeline = timeline.changingRate(to: rate, at: context.now) }
    }

    private mutating func setDuration(_ duration: TimeInterval, _ context: inout BatchContext) {
        let position = min(duration, timeline.position(at: context.now))
        item?.metadata.duration = duration
        timeline = PlaybackTimeline(elapsed: position, at: context.now, rate: timeline.rate, duration: duration)
        context.metadataChanged = true
    }

    /// A remote command: answered from the router, then carried out like the user's own request.
    private mutating func receive(_ command: RemoteCommand, _ context: inout BatchContext) {
        let decision = router.decide(command, for: nowPlaying, at: context.now)
        context.effects.append(.answer(command, decision.status))
        guard decision.status == .success, let action = decision.action else { return }
        switch action {
        case .play: play(&context)
        case .pause: pause(&context)
        case .stop: stop(&context)
        case .seek(let target): seek(to: target, &context)
        case .setRate(let rate):
            setRate(rate, &context)
            play(&context)
        case .nextTrack, .previousTrack: context.effects.append(.requestItem(action))
        }
    }
}
