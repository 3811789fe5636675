public import ExternalDisplayPresenter

/// Wakes the loop when a PDF page that a live display drew as a placeholder has been rendered: every host draws
/// again, and the page replaces the placeholder. Renders never run on the loop: a slow page never holds a key.
/// A render no window waits for (a page rendered ahead) wakes nothing: at 4K a redraw of every window for each
/// page made ahead cost the flips of a fast clicker.
@MainActor
public final class PageReadinessHost: PresenterHost {
    private var token: Int?
    private let cache: PageRasterCache

    /// A host following `cache` (the run's page cache).
    public init(cache: PageRasterCache) { self.cache = cache }

    /// Starts following the cache's renders.
    public func start(in runtime: PresenterRuntime) {
        let cache = self.cache
        token = cache.addReadinessHandler { [weak runtime] key in
            guard cache.takeAwaited(key) else { return }
            Task { @MainActor in runtime?.invalidate() }
        }
    }

    /// Stops following.
    public func stop() {
        if let token { cache.removeReadinessHandler(token) }
        token = nil
    }
}
