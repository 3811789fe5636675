import CWaylandClient
import Dispatch
import ExternalDisplayKit
import Foundation

/// A connection to the Wayland compositor that reads its outputs (`wl_output` v4, xdg-output,
/// wlr-output-management where offered), follows their changes, switches modes where the compositor lets a
/// client, and puts every mode back as it found it.
///
/// The Wayland counterpart of the X11 backend's `RandRSession`: what `extdisplay list`, `watch` and `present`
/// use on Wayland. Its ``fileDescriptor`` can be polled by any main loop (SDL's included), which then calls
/// ``readEvents()``; or ``start(delivering:lost:)`` watches it with a dispatch source on the main queue.
///
/// ```swift
/// let session = try WaylandSession.open()           // throws WaylandError.noCompositor outside Wayland
/// print(session.outputs().map(\.outputName))         // ["HEADLESS-1", "HEADLESS-2"]
/// session.start { batch in
///     for event in batch { print(event) }            // "connect HEADLESS-3 1280×720@60 at (3200,0)"
/// }
/// try session.setMode(DisplayMode(width: 1024, height: 768), on: "HEADLESS-2")
/// session.restoreInitialModes()                      // also done at close, at exit, on SIGINT and SIGTERM
/// ```
///
/// A disabled output is a disconnect: sway 1.7 keeps the `wl_output` global of an output switched off, so the
/// session counts an output whose output-management head is disabled as gone, and as back when it is enabled.
@MainActor
public final class WaylandSession {
    /// The socket name in use (`wayland-1`), the key its mode records are kept under.
    public let displayName: String
    let client: WaylandClient
    /// Mutter's display configuration, when the compositor is GNOME's (primary monitor, mode switches).
    let mutter: MutterDisplayConfig?
    /// The last reading (what events are computed against).
    private var known: [WaylandOutput]
    private var source: (any DispatchSourceRead)?
    private var closed = false

    /// Connects to `displayName` (default: `$WAYLAND_DISPLAY`, relative to `$XDG_RUNTIME_DIR`) and reads the
    /// outputs. Throws ``WaylandError/noCompositor(reason:)`` when no compositor listens there.
    public static func open(displayName: String? = nil) throws(WaylandError) -> WaylandSession {
        WaylandSession(client: try WaylandClient(displayName: displayName))
    }

    private init(client: WaylandClient) {
        self.client = client
        displayName = client.displayName
        mutter = client.hasOutputManagement ? nil
            : MutterDisplayConfig.open(matching: client.outputs().map(\.outputName))
        known = []
        readPriorities()
        known = client.outputs()
    }

    /// Reads which monitor Mutter calls primary (the main display's rule ranks it first).
    private func readPriorities() {
        guard let mutter, let state = try? mutter.currentState() else { return }
        client.priorities = state.primaryConnector.map { [$0: 1] } ?? [:]
    }

    /// The connection's file descriptor: readable when the compositor has news. Poll it, then call
    /// ``readEvents()``.
    public var fileDescriptor: Int32 { client.fileDescriptor }

    /// Whether the compositor lets clients switch modes: it offers wlr-output-management, it is Mutter
    /// (`org.gnome.Mutter.DisplayConfig` on the session bus) or KWin (`kde_output_management_v2`).
    public var canSwitchModes: Bool { client.hasOutputManagement || mutter != nil || client.offersKDEOutputManagement }

    /// How this compositor lets a client switch modes, in a few words (for messages).
    public var modeSwitchingMethod: String? {
        client.hasOutputManagement ? "wlr-output-management"
            : mutter != nil ? "org.gnome.Mutter.DisplayConfig"
            : client.offersKDEOutputManagement ? "kde-output-management-v2" : nil
    }

    /// Every output that drives a display now, in the order the compositor announced them; exactly one is
    /// ``WaylandOutput/isMain`` when any exists.
    public func outputs() -> [WaylandOutput] { client.outputs() }

    /// Reads whatever the compositor sent and returns what changed since the last reading as one batch (empty
    /// when nothing changed for the displays, or while a change is half-announced). Never blocks. Throws
    /// ``WaylandError/connectionLost(reason:)`` when the compositor went away.
    public func readEvents() throws(WaylandError) -> [WaylandOutputEvent] {
        try client.dispatchAvailable()
        guard client.isSettled else { return [] }
        var now = client.outputs()
        if mutter != nil, now != known {
            readPriorities()
            now = client.outputs()
        }
        let events = WaylandOutputEvent.changes(from: known, to: now)
        known = now
        return events
    }

    /// Calls `handler` on the main queue with each non-empty batch of changes, and `lost` once if the
    /// compositor goes away, until ``stop()``. Nothing polls: a dispatch source watches the descriptor.
    public func start(delivering handler: @escaping @MainActor ([WaylandOutputEvent]) -> Void,
                      lost: @escaping @MainActor (WaylandError) -> Void = { _ in }) {
        stop()
        let source = DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                do throws(WaylandError) {
                    let batch = try self.readEvents()
                    if !batch.isEmpty { handler(batch) }
                } catch {
                    self.stop()
                    lost(error)
                }
            }
        }
        self.source = source
        source.resume()
    }

    /// Stops delivering events.
    public func stop() {
        source?.cancel()
        source = nil
    }

    /// Puts the display on `outputName` in `mode`: the offered mode of that size whose refresh rate is closest
    /// (a head that lists no modes, like sway's headless outputs, gets it as a custom mode). Before the first
    /// switch of each output its current mode and position are recorded and armed for restoring: at
    /// ``close()``, at exit, and on SIGINT, SIGTERM, SIGHUP and SIGQUIT.
    ///
    /// On GNOME the switch goes through Mutter's `org.gnome.Mutter.DisplayConfig` as a temporary configuration
    /// (never saved to `monitors.xml`); the record then says so, and every restore path uses the same interface.
    ///
    /// On KDE it goes through KWin's `kde_output_management_v2` (the record says so too).
    ///
    /// Throws ``WaylandError/modeSwitchingUnsupported(output:)`` where the compositor keeps the mode (none of
    /// the three), ``WaylandError/unknownOutput(_:)``,
    /// ``WaylandError/modeNotOffered(output:mode:)`` and ``WaylandError/refused(output:detail:)``.
    public func setMode(_ mode: DisplayMode, on outputName: String) throws(WaylandError) {
        guard client.outputs().contains(where: { $0.outputName == outputName }) else {
            throw .unknownOutput(outputName)
        }
        if !client.hasOutputManagement, let mutter {
            try setModeThroughMutter(mode, on: outputName, mutter)
            return
        }
        let kde = !client.hasOutputManagement && client.offersKDEOutputManagement
        guard client.hasOutputManagement || kde else { throw .modeSwitchingUnsupported(output: outputName) }
        guard let original = WaylandModeConfigurator.currentSetting(of: outputName, client: client) else {
            throw .unknownOutput(outputName)
        }
        let target = kde ? try KWinModeConfigurator.setting(for: mode, on: outputName, client: client)
            : try WaylandModeConfigurator.setting(for: mode, on: outputName, client: client)
        do {
            try WaylandModeRestore.shared.record(display: displayName, environment: ProcessInfo.processInfo.environment,
                                                 method: kde ? .kde : .outputManagement, original)
        } catch {
            throw .refused(output: outputName, detail: "the current mode could not be recorded for restoring, "
                           + "so nothing was switched: \(error)")
        }
        if kde {
            try KWinModeConfigurator.apply(target, client: client)
        } else {
            try WaylandModeConfigurator.apply(target, client: client)
        }
    }

    private func setModeThroughMutter(_ mode: DisplayMode, on outputName: String,
                                      _ mutter: MutterDisplayConfig) throws(WaylandError) {
        let state: MutterDisplayState
        do { state = try mutter.currentState() } catch {
            throw .refused(output: outputName, detail: error.description)
        }
        guard let original = MutterModeConfigurator.currentSetting(of: outputName, state: state) else {
            throw .unknownOutput(outputName)
        }
        let target = try MutterModeConfigurator.setting(for: mode, on: outputName, state: state)
        if target == original { return }
        do {
            try WaylandModeRestore.shared.record(display: displayName, environment: ProcessInfo.processInfo.environment,
                                                 method: .mutter, original)
        } catch {
            throw .refused(output: outputName, detail: "the current mode could not be recorded for restoring, "
                           + "so nothing was switched: \(error)")
        }
        try MutterModeConfigurator.apply(target, through: mutter, movingTo: false)
        // The wl_output events of the new mode follow the D-Bus answer.
        _ = try client.dispatch(until: {
            client.outputs().first { $0.outputName == outputName }?.display.currentMode.size == mode.size
        }, timeout: 2)
    }

    /// Puts every output this process switched back in the mode and position it had before its first switch
    /// (outputs gone since are skipped). Does nothing when no mode was switched.
    public func restoreInitialModes() {
        WaylandModeRestore.shared.restore(display: displayName, client: client)
    }

    /// Stops events, puts back every mode this session switched and disconnects. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        stop()
        restoreInitialModes()
        mutter?.close()
        client.close()
    }
}
