extension PresenterState {
    /// The states the next keys may bring, for preparing pictures ahead: after Next and after Previous, each
    /// only when it changes what the audience sees (nothing past the first or the last slide).
    ///
    /// Browser pages hold these pictures decoded; cable displays keep the pages either side as textures.
    public func statesAhead(at now: Double) -> [PresenterState] {
        [PresenterKey.next, .previous].compactMap { key in
            var state = self
            state.reduce(.key(key), at: now)
            return state.audienceSlideIndex == audienceSlideIndex ? nil : state
        }
    }
}
