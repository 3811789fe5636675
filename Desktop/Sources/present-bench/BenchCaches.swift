import ExternalDisplayPresenter

/// The caches every canvas of a benchmark run draws from, as one talk's canvases share one set.
let benchCaches = DrawingCaches()
