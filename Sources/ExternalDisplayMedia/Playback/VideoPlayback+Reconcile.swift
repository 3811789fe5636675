import Foundation

extension VideoPlayback {
    /// The end of a batch: the net effect of its events, in a fixed order — the decoder (open, close), the
    /// picture's place, the indicator, the volume, one timeline message, one Now Playing publication.
    mutating func finish(_ context: inout BatchContext) {
        let before = context.before
        if let shown = placement?.display, !displays.contains(where: { $0.id == shown.id }), status == .playing {
            // The display the film was on is gone: hand it back paused, at the same position.
            timeline = timeline.changingRate(to: 0, at: context.now)
            status = .paused
        }

        if let item {
            if context.loaded { context.effects.append(.open(item)) }
        } else if before.item != nil {
            context.effects.append(.close)
        }

        let target = targetPlacement
        if target != placement || (context.loaded && target != nil) {
            placement = target
            if let target { context.effects.append(.place(target)) }
        }

        let newIndicator = ExternalPlaybackIndicator(content: item?.content ?? .featureVideo,
                                                     isExternalPlaybackActive: placement?.display != nil,
                                                     routeName: placement?.display?.name)
        if newIndicator != indicator {
            indicator = newIndicator
            context.effects.append(.indicate(newIndicator))
        }

        if volume != before.volume { context.effects.append(.volume(volume)) }

        let discontinuity = context.loaded || context.jumped || (item == nil) != (before.item == nil)
        let moved = status != before.status || timeline.rate != before.timeline.rate
            || timeline.duration != before.timeline.duration
            || abs(timeline.position(at: context.now) - before.timeline.position(at: context.now)) > 1e-9
        if discontinuity || moved, item != nil || before.item != nil {
            timelineSequence += 1
            context.effects.append(.timeline(TimelineMessage(sequence: timelineSequence,
                                                             item: item?.metadata.identifier,
                                                             timeline: timeline, discontinuity: discontinuity)))
        }

        let publishes = item?.externalPlaybackDecision.becomesNowPlayingApp == true
        let published = before.item?.externalPlaybackDecision.becomesNowPlayingApp == true
        if publishes, let reason = publicationReason(context, moved: moved) {
            context.effects.append(.nowPlaying(NowPlayingPublication(state: nowPlaying, reason: reason,
                                                                     instant: context.now)))
        } else if published, !publishes {
            // Nothing, or an item that must not claim Now Playing (an incidental clip), replaced the item.
            context.effects.append(.nowPlaying(NowPlayingPublication(state: .empty, reason: .cleared,
                                                                     instant: context.now)))
        }
    }

    /// Why Now Playing must be published after a batch, if it must: the strongest change wins.
    private func publicationReason(_ context: BatchContext, moved: Bool) -> NowPlayingPublicationReason? {
        if context.loaded || context.metadataChanged { return .newItem }
        if context.jumped { return .seek }
        if moved || preferredRate != context.before.preferredRate { return .rateChange }
        return nil
    }
}
