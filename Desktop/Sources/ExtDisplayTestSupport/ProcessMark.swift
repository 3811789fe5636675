import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A unique mark a test puts in the environment of every process it starts (`EDK_TEST_MARK=<uuid>`): the
/// process, the tools it starts and their children all inherit it, whatever their command line says (a stub's
/// `sleep`, a `yes`, a renamed copy of `sleep`). ``leftovers(timeout:)`` finds every process still carrying it by
/// reading `/proc/<pid>/environ` directly — no `pgrep`, no command-line matching — and throws when `/proc` cannot
/// be read, so the check never passes by seeing nothing.
///
/// ```swift
/// let mark = ProcessMark()
/// let pid = try Shell.spawn(["extdisplay", "present", "talk.pdf"], environment: mark.environment, …)
/// …
/// #expect(try mark.leftovers().isEmpty)
/// ```
public struct ProcessMark: Sendable, CustomStringConvertible {
    /// The environment variable that carries the mark.
    public static let variable = "EDK_TEST_MARK"

    /// A process found carrying the mark.
    public struct Found: Sendable, CustomStringConvertible {
        /// Its process id.
        public var pid: pid_t
        /// Its name in the kernel (`/proc/<pid>/comm`, at most 15 characters).
        public var name: String
        /// Its command line, arguments separated by spaces (empty for a zombie).
        public var commandLine: String
        /// `pid name: command line`.
        public var description: String { "\(pid) \(name): \(commandLine)" }
    }

    /// The mark's value (a fresh UUID).
    public let value: String
    /// When the mark was made, in clock ticks since boot (the unit of `/proc/<pid>/stat`'s start time): no
    /// process started before it can carry it.
    private let madeAt: UInt64

    /// A fresh, unique mark.
    public init() {
        value = "edk-\(UUID().uuidString)"
        let uptime = Double(Self.text("/proc/uptime").split(separator: " ").first ?? "") ?? 0
        // A tick early: the start time is rounded down to whole ticks.
        madeAt = UInt64(max(0, uptime * Double(sysconf(Int32(_SC_CLK_TCK))) - 1))
    }

    /// `EDK_TEST_MARK=<value>`, to add to the environment of a process the test starts.
    public var environment: [String: String] { [Self.variable: value] }

    /// `EDK_TEST_MARK=<value>`.
    public var description: String { "\(Self.variable)=\(value)" }

    /// The processes carrying the mark now (zombies excluded: they run nothing, and their environment can no
    /// longer be read). Throws when `/proc` cannot be listed or this process's own environment cannot be read
    /// through it, or when a process started since the mark was made hides its environment (it could be one of
    /// ours; one started before cannot carry the mark).
    public func processes() throws -> [Found] {
        let entry = Data("\(Self.variable)=\(value)".utf8)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            throw XorgTestError("cannot list /proc: the leftover-process check cannot see any process")
        }
        // A scan that cannot read environments sees nothing and would always pass: it must read its own.
        guard let own = Self.read("/proc/\(getpid())/environ"), own.result == 0,
              own.data.split(separator: 0).contains(where: { $0.starts(with: Data("PATH=".utf8)) }) else {
            throw XorgTestError("cannot read /proc/\(getpid())/environ: the leftover-process check cannot see environments")
        }
        var found: [Found] = [], hidden: [String] = []
        for name in names {
            guard let pid = pid_t(name), pid != getpid() else { continue }
            guard let environ = Self.read("/proc/\(pid)/environ") else { continue }  // gone meanwhile
            if environ.result != 0 {
                // Unreadable (another user's process, or one the kernel hides, as a sandbox's init): one started
                // since the mark was made could be ours, and the check cannot tell.
                if let started = Self.startTime(pid), started >= madeAt {
                    hidden.append("\(pid) (\(Self.text("/proc/\(pid)/comm")), error \(environ.result))")
                }
                continue
            }
            guard environ.data.split(separator: 0).contains(where: { $0 == entry }) else { continue }
            if Self.state(pid) == "Z" { continue }
            found.append(Found(pid: pid, name: Self.text("/proc/\(pid)/comm"),
                               commandLine: Self.text("/proc/\(pid)/cmdline").split(separator: "\0").joined(separator: " ")))
        }
        if !hidden.isEmpty {
            throw XorgTestError("cannot read the environment of processes started since the mark was made: "
                                + hidden.joined(separator: ", "))
        }
        return found
    }

    /// The processes still carrying the mark once killed ones have had `timeout` seconds to go (polled; a hang
    /// guard, returning as soon as none is left). Whatever is found is killed (SIGKILL) before returning, so one
    /// failing test leaves nothing to the next.
    public func leftovers(timeout: Double = 10) throws -> [Found] {
        let found = try pollReading(timeout, every: 0.05, processes, until: { $0.isEmpty })
        for process in found { kill(process.pid, SIGKILL) }
        return found
    }

    /// Polls (at most `timeout` seconds, a hang guard) until a process carrying the mark satisfies `match`;
    /// returns it, or nil.
    public func waitFor(timeout: Double = 30, _ match: (Found) -> Bool) throws -> Found? {
        try pollFirst(timeout, every: 0.05) { try processes().first(where: match) }
    }

    /// The bytes of a `/proc` file and 0, or no bytes and the `errno` of the failure; nil when the process is
    /// gone (ENOENT, ESRCH).
    private static func read(_ path: String) -> (data: Data, result: Int32)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            return code == ENOENT || code == ESRCH ? nil : (Data(), code)
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { data.append(contentsOf: buffer[0..<count]); continue }
            if count == 0 { return (data, 0) }
            let code = errno
            if code == EINTR { continue }
            return code == ESRCH || code == ENOENT ? nil : (Data(), code)
        }
    }

    private static func text(_ path: String) -> String {
        String(decoding: read(path)?.data ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The fields of `/proc/<pid>/stat` after the command name, from the state (field 3) on: the name may hold
    /// spaces and parentheses, so they start after the last `)`.
    private static func statFields(_ pid: pid_t) -> [Substring] {
        let stat = text("/proc/\(pid)/stat")
        guard let close = stat.lastIndex(of: ")") else { return [] }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// The one-letter state of `pid` (`R`, `S`, `Z`…).
    private static func state(_ pid: pid_t) -> String { statFields(pid).first.map(String.init) ?? "" }

    /// When `pid` started, in clock ticks since boot (field 22), or nil when it is gone.
    private static func startTime(_ pid: pid_t) -> UInt64? {
        let fields = statFields(pid)
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
