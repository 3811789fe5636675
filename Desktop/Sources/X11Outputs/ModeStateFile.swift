import DesktopFiles
import DesktopModeState
import SDLWindows
import DesktopImages
import Foundation

/// The record of modes this process switched, kept on disk while they are switched so that an exit the process
/// cannot live through (SIGKILL, a crash, power loss) can still be undone: by the watchdog, by
/// `extdisplay restore`, or by the next run that opens the same X display.
///
/// One JSON file per X display, written atomically before the first switch and removed once the modes are back:
/// `$XDG_RUNTIME_DIR/extdisplay/modes-DISPLAY.json`, else `$XDG_STATE_HOME/extdisplay/…`, else
/// `~/.local/state/extdisplay/…` (`EXTDISPLAY_STATE_DIR` overrides all three).
public struct ModeStateFile: Codable, Hashable, Sendable {
    /// One output as it was before this process first switched it.
    public struct Entry: Codable, Hashable, Sendable {
        /// The RandR output name (`DUMMY1`).
        public var output: String
        /// The output's XID on that server.
        public var outputID: UInt
        /// The mode's XID on that server (checked against `width`×`height` before use).
        public var mode: UInt
        /// The mode's width, pixels.
        public var width: Int
        /// The mode's height, pixels.
        public var height: Int
        /// Position on the X screen.
        public var x: Int32
        /// Position on the X screen.
        public var y: Int32
        /// RandR rotation bits.
        public var rotation: UInt16
    }

    /// The X display (`:5`).
    public var display: String
    /// The process that switched the modes.
    public var pid: Int32
    /// What to put back.
    public var entries: [Entry]

    /// The folder the files live in (``ModeStateStore/directory(environment:)``, shared with Wayland).
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ModeStateStore.directory(environment: environment)
    }

    /// The file for `display`.
    public static func url(for display: String) -> URL { ModeStateStore.url(for: display) }

    /// Reads the record for `display`: none, the record, or why the file is not a record of that display
    /// (truncated, edited, another display's). A damaged record is reported, never removed nor acted on.
    public static func reading(display: String) -> ModeStateStore.Reading<ModeStateFile> {
        let reading = ModeStateStore.read(ModeStateFile.self, key: display)
        if case .record(let record) = reading, record.display != display {
            return .damaged("it records display \(record.display.debugDescription), not \(display)")
        }
        return reading
    }

    /// Reads the record for `display`, nil when there is none or it is damaged (then it is left in place).
    public static func read(display: String) -> ModeStateFile? {
        guard case .record(let record) = reading(display: display) else { return nil }
        return record
    }

    /// Writes the record atomically (the folder is created, private to the user).
    public func write() throws(AtomicWriteError) { try ModeStateStore.write(self, key: display) }

    /// Removes the record for `display`.
    public static func remove(display: String) { ModeStateStore.remove(key: display) }

    /// Whether the process that wrote the record is gone.
    public var ownerIsGone: Bool { ModeStateStore.processIsGone(pid) }
}
