import Foundation

/// How often a process's threads have slept and been woken: what an idle program's cost is counted in.
public enum ThreadWakeups {
    /// The voluntary context switches so far of every thread of `pid` alive now (each is a thread that slept and
    /// was woken: its loop, a timer, a source on a queue), from `/proc/PID/task/*/status`; threads that ended are
    /// not counted. Nil when the process is gone or `/proc` cannot be read.
    public static func count(of pid: pid_t) -> Int? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
                total += Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        return total
    }
}
