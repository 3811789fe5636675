/// What stopping means for an engine's windows: the commands that tear every window down, in the order a
/// detach uses — frame clock stopped, window hidden, window released — display by display in connection
/// order, then the shared refresh tick stopped if it runs. ``DisplayCoordinator/stop()`` carries them out
/// before stopping the platform, so no display link outlives a stop on any platform.
///
/// ```swift
/// ShutdownPlan.commands(for: engine)
/// // [.stopFrameClock("tv"), .hideWindow("tv"), .destroyWindow("tv"), .stopRefresh]
/// ```
public enum ShutdownPlan {
    /// The teardown commands for every window the engine has, and for the shared refresh tick.
    public static func commands(for engine: DisplayEngine) -> [DisplayCommand] {
        var commands: [DisplayCommand] = []
        let ordered = engine.connectionOrder.filter { engine.windows[$0] != nil }
            + engine.windows.keys.filter { !engine.connectionOrder.contains($0) }.sorted()
        for id in ordered {
            guard let window = engine.windows[id] else { continue }
            if window.frameClock != nil { commands.append(.stopFrameClock(id)) }
            if window.isVisible { commands.append(.hideWindow(id)) }
            commands.append(.destroyWindow(id))
        }
        if engine.timing.refreshRate != nil { commands.append(.stopRefresh) }
        return commands
    }
}
