import DesktopFiles
import DesktopModeState
import DesktopProcesses
import SDLWindows
import DesktopImages
import CXRandR
import Dispatch
import ExternalDisplayKit
import Foundation

/// A private connection to the X server that reads the display topology from RandR, follows its changes,
/// switches modes, and puts every mode back as it found it.
///
/// SDL hides disconnects and mode changes; RandR on a connection of its own sees them all. The session is
/// what ``DesktopDisplayPlatform``, `extdisplay list` and `extdisplay watch` are built on.
///
/// ```swift
/// let session = try RandRSession.open()          // throws RandRError.noDisplay without an X server
/// print(session.outputs().map(\.outputName))      // ["DUMMY0", "DUMMY1"]
/// session.startEvents { batch in
///     for event in batch { print(event) }          // "connect DUMMY2 1280×720@60 at (3200,0)"
/// }
/// try session.setMode(DisplayMode(width: 1024, height: 768), on: "DUMMY1")
/// session.restoreInitialModes()                    // also done at exit, on SIGINT and on SIGTERM
/// ```
@MainActor
public final class RandRSession {
    /// The X display name in use (`":0"`).
    public let displayName: String

    let dpy: OpaquePointer
    let root: Window
    let edidAtom: Atom
    /// The outputs with a CRTC at ``open(displayName:)``, as they were then (what restoring puts back).
    private(set) var initialState: [OutputState]
    /// The last topology read, by output name (what events are computed against).
    var known: [DesktopOutput]
    private var source: (any DispatchSourceRead)?
    private var closed = false

    /// Opens a private connection to `displayName` (default: `$DISPLAY`) and selects RandR change events.
    ///
    /// Throws ``RandRError/noDisplay(reason:)`` when DISPLAY is unset or the server cannot be reached, and
    /// ``RandRError/noRandR(display:)`` when the server lacks RandR 1.3.
    public static func open(displayName: String? = nil) throws(RandRError) -> RandRSession {
        let name = displayName ?? ProcessInfo.processInfo.environment["DISPLAY"]
        guard let name, !name.isEmpty else { throw .noDisplay(reason: "DISPLAY is not set") }
        guard let dpy = XOpenDisplay(name) else {
            throw .noDisplay(reason: "cannot open DISPLAY=\(name) (is the X server running?)")
        }
        var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XRRQueryExtension(dpy, &event, &error) != 0, XRRQueryVersion(dpy, &major, &minor) != 0,
              major > 1 || (major == 1 && minor >= 3) else {
            XCloseDisplay(dpy)
            throw .noRandR(display: name)
        }
        return RandRSession(dpy: dpy, name: name)
    }

    private init(dpy: OpaquePointer, name: String) {
        edk_install_x_error_handler()
        self.dpy = dpy
        self.displayName = name
        self.root = XDefaultRootWindow(dpy)
        self.edidAtom = XInternAtom(dpy, "EDID", 0)
        XRRSelectInput(dpy, root, edk_rr_notify_mask())
        XSync(dpy, 0)
        self.known = []
        self.initialState = []
        let snapshot = RandRQuery(session: self).read()
        self.known = snapshot.outputs
        self.initialState = snapshot.states
    }

    /// The file descriptor of the private X connection (readable when RandR has news).
    public var fileDescriptor: Int32 { XConnectionNumber(dpy) }

    /// Every output that drives a display right now (has a CRTC), in RandR's order; exactly one is
    /// ``DesktopOutput/isPrimary`` when any exists.
    public func outputs() -> [DesktopOutput] {
        RandRQuery(session: self).read().outputs
    }

    /// Reads every queued X event and returns what changed since the last read as one batch (empty when
    /// nothing changed for the displays). Never blocks.
    public func readEvents() -> [DesktopOutputEvent] {
        var count = 0
        while XPending(dpy) > 0 {
            _ = edk_next_event(dpy)
            count += 1
        }
        guard count > 0 else { return [] }
        let now = outputs()
        let events = Self.changes(from: known, to: now)
        known = now
        return events
    }

    /// Calls `handler` on the main queue with each non-empty batch of changes, until ``stopEvents()``.
    /// The connection's descriptor is watched by a dispatch read source: nothing polls.
    public func startEvents(_ handler: @escaping @MainActor ([DesktopOutputEvent]) -> Void) {
        stopEvents()
        let source = DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.drain(into: handler) }
        }
        self.source = source
        source.resume()
    }

    private func drain(into handler: @escaping @MainActor ([DesktopOutputEvent]) -> Void) {
        let batch = readEvents()
        if !batch.isEmpty {
            TimingTrace.note("randr \(batch.map { "\($0.name) \($0.output.outputName)" }.joined(separator: ", "))")
            handler(batch)
        }
        // Replies read while querying may have left events in Xlib's queue; the socket will not wake us.
        if XQLength(dpy) > 0 {
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated { self?.drain(into: handler) }
            }
        }
    }

    /// Stops delivering events.
    public func stopEvents() {
        source?.cancel()
        source = nil
    }

    /// Stops events, puts back every mode this session switched and closes the connection. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        stopEvents()
        // The signal path's restore waits for this one (and then finds nothing left to do).
        ModeExitHooks.shared.serialized {
            restoreInitialModes()
            ModeRestoreGuard.shared.disarm(self.displayName)
        }
        XCloseDisplay(dpy)
    }

    /// The changes between two topologies: connects, disconnects and mode changes, by output name (also what
    /// the live player's Wayland output source reports).
    nonisolated package static func changes(from old: [DesktopOutput], to new: [DesktopOutput]) -> [DesktopOutputEvent] {
        var events: [DesktopOutputEvent] = []
        let oldByName = Dictionary(old.map { ($0.outputName, $0) }, uniquingKeysWith: { a, _ in a })
        let newNames = Set(new.map(\.outputName))
        for output in old where !newNames.contains(output.outputName) {
            events.append(.disconnected(output))
        }
        for output in new {
            if let before = oldByName[output.outputName] {
                if before.display.currentMode != output.display.currentMode {
                    events.append(.modeChanged(output, from: before.display.currentMode))
                }
            } else {
                events.append(.connected(output))
            }
        }
        return events
    }
}
