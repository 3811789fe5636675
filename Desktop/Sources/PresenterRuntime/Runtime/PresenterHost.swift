public import ExternalDisplayKit
public import ExternalDisplayPresenter

/// One part of a running presenter that the ``PresenterRuntime`` drives: a console (an SDL window, the
/// terminal, snapshots), the audience displays of one platform (cable displays, browser pages), a remote
/// control, a signal watch. Hosts carry out effects and report inputs; they decide nothing — what a key or a
/// display means is the ``ExternalDisplayPresenter/PresenterCore``'s business.
///
/// Every method but ``start(in:)`` has a default that does nothing, so a host implements only its part.
@MainActor
public protocol PresenterHost: AnyObject {
    /// Starts the host's input sources before the first pass; each input goes to ``PresenterRuntime/send(_:)``,
    /// which wakes the loop. A host whose input arrives only when asked (SDL's event queue) watches its source
    /// here too, so that input wakes the loop from the start.
    func start(in runtime: PresenterRuntime)
    /// Reads input that is only read when asked for (SDL's queue); called before and after each pass's drawing.
    func pump()
    /// Draws the audience displays this host shows (first in each pass: a flip reaches the room first).
    func drawAudience(at now: Double, clock: String)
    /// Draws the console, if this host shows it.
    func drawConsole(at now: Double, clock: String)
    /// Extra operations on top of the console (a served talk's QR code), given the console's size.
    func consoleOverlay(size: PixelSize) -> [DrawOperation]
    /// Work after drawing: publishing to remotes and browser pages.
    func afterPass(at now: Double)
    /// Idle work once the room and the console have their pictures (the next flip's pages made ready).
    func prepareAhead()
    /// Carries out an effect the core asked for, when it concerns this host.
    func perform(_ effect: PresenterEffect)
    /// Draws everything again at the next pass, changed or not (a page that was shown as a placeholder is ready).
    func invalidate()
    /// The earliest runtime time at which this host needs a pass without any input (nil: none).
    func nextDeadline(after now: Double) -> Double?
    /// Stops the host's input sources and releases what it holds (modes are put back here).
    func stop()
}

extension PresenterHost {
    /// Nothing to pump.
    public func pump() {}
    /// No audience displays.
    public func drawAudience(at now: Double, clock: String) {}
    /// No console.
    public func drawConsole(at now: Double, clock: String) {}
    /// Nothing on top of the console.
    public func consoleOverlay(size: PixelSize) -> [DrawOperation] { [] }
    /// Nothing after a pass.
    public func afterPass(at now: Double) {}
    /// Nothing to prepare.
    public func prepareAhead() {}
    /// No effect concerns this host.
    public func perform(_ effect: PresenterEffect) {}
    /// Nothing drawn to invalidate.
    public func invalidate() {}
    /// No deadline.
    public func nextDeadline(after now: Double) -> Double? { nil }
    /// Nothing to stop.
    public func stop() {}
}
