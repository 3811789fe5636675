import DesktopFiles
import Foundation

/// Where the records of switched display modes live on disk, shared by every display system (X11 RandR,
/// Wayland output management): one JSON file per display, written atomically before the first switch, private
/// to the user, removed once the modes are back.
///
/// The folder is `$EXTDISPLAY_STATE_DIR`, else `$XDG_RUNTIME_DIR/extdisplay`, else `$XDG_STATE_HOME/extdisplay`,
/// else `~/.local/state/extdisplay`; a record for key `K` is `modes-K.json` there (characters other than
/// letters, digits, `.` and `-` become `_`).
///
/// ```swift
/// try ModeStateStore.write(record, key: "wayland-wayland-1")
/// if case .record(let saved) = ModeStateStore.read(MyRecord.self, key: "wayland-wayland-1") { … }
/// ```
public enum ModeStateStore {
    /// What reading a record found.
    public enum Reading<Record: Sendable>: Sendable {
        /// No record: nothing is left switched.
        case none
        /// The record.
        case record(Record)
        /// A file that is not a record (truncated, edited, another program's): why, in one line.
        case damaged(String)
    }

    /// The folder the records live in.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dir = environment["EXTDISPLAY_STATE_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent("extdisplay")
        }
        if let dir = environment["XDG_STATE_HOME"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent("extdisplay")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/extdisplay")
    }

    /// The file of the record for `key`.
    public static func url(for key: String) -> URL {
        let safe = String(key.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        return directory().appendingPathComponent("modes-\(safe).json")
    }

    /// Writes `record` for `key` atomically (the folder is created 0700, the file 0600).
    public static func write<Record: Encodable>(_ record: Record, key: String) throws(AtomicWriteError) {
        let url = url(for: key)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else {
            throw AtomicWriteError(path: url.path, reason: "the record cannot be encoded")
        }
        try AtomicFile.write(data, to: url, permissions: 0o600)
    }

    /// Reads the record for `key`; a file that is not one is reported, never removed or trusted.
    public static func read<Record: Decodable & Sendable>(_ type: Record.Type, key: String) -> Reading<Record> {
        let url = url(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return .none }
        let bytes: [UInt8]
        do { bytes = try UntrustedFile.read(url, limit: 1 << 20) } catch { return .damaged("\(error)") }
        do {
            return .record(try JSONDecoder().decode(Record.self, from: Data(bytes)))
        } catch {
            return .damaged("not a mode record (\(Self.reason(error)))")
        }
    }

    /// Removes the record for `key`.
    public static func remove(key: String) { unlink(url(for: key).path) }

    /// Whether process `pid` has ended.
    public static func processIsGone(_ pid: Int32) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?: return "invalid JSON: \(context.debugDescription)"
        case .keyNotFound(let key, _)?: return "no \"\(key.stringValue)\" field"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }
}
