// How the pympress benchmark reads a presenter's CPU time over an idle period, the same way for every presenter,
// to the microsecond or finer, threads that ended in between included.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads the CPU time of one presenter: a cgroup v2 of its own where the machine lets the benchmark make one
/// (`cpu.stat` `usage_usec`: the process, every thread it had, and every process it started), else the process's
/// CPU-time clock (`clock_getcpuclockid`, nanoseconds: every thread it had, living or ended, but not its
/// children), else 10 ms clock ticks of `/proc/PID/stat`. ``source`` says which, and is printed with the figure.
///
/// Made before the presenter starts (``launchPrefix`` puts the process in its cgroup before it runs anything),
/// read with ``seconds(from:)``, removed with ``remove()`` once the process has ended.
final class ProcessCPUMeter {
    /// Where the figure comes from, as printed beside it.
    enum Source: String {
        case cgroup = "cgroup v2 cpu.stat, µs, process tree"
        case processClock = "process CPU clock, ns, all threads"
        case clockTicks = "clock ticks of /proc/PID/stat, 10 ms"
    }

    /// The cgroup directory, when there is one.
    let cgroup: String?
    /// Why there is no cgroup (printed once by the benchmark).
    let cgroupUnavailable: String?
    private var pid: pid_t = 0

    /// A meter for a presenter about to start; `name` names its cgroup under `parent` (see ``cgroupParent()``).
    init(name: String, parent: Result<String, BenchError>) {
        switch parent {
        case .success(let directory):
            let path = directory + "/" + name
            if mkdir(path, 0o755) == 0 || errno == EEXIST {
                cgroup = path
                cgroupUnavailable = nil
            } else {
                cgroup = nil
                cgroupUnavailable = "cannot make the cgroup \(path): \(String(cString: strerror(errno)))"
            }
        case .failure(let why):
            cgroup = nil
            cgroupUnavailable = why.description
        }
    }

    /// The program and arguments that start `path arguments` inside this meter's cgroup (the shell writes its own
    /// process id into `cgroup.procs`, then becomes the presenter: the same process id, nothing run outside; when
    /// the write fails the presenter runs all the same and ``source`` falls back).
    func launchPrefix(_ path: String, _ arguments: [String]) -> (path: String, arguments: [String]) {
        guard let cgroup else { return (path, arguments) }
        return ("/bin/sh", ["-c", "echo $$ > \"$0/cgroup.procs\" 2>/dev/null; exec \"$@\"", cgroup, path] + arguments)
    }

    /// Starts measuring the process `pid` (the one ``launchPrefix(_:_:)`` started).
    func attach(_ pid: pid_t) { self.pid = pid }

    /// The finest source that can be read now.
    var source: Source {
        if cgroupUsage() != nil { return .cgroup }
        if processClock() != nil { return .processClock }
        return .clockTicks
    }

    /// CPU seconds used so far, read from `source` (read ``source`` once at the start of a period and use it
    /// for both ends); nil when it cannot be read (the process is gone).
    func seconds(from source: Source) -> Double? {
        switch source {
        case .cgroup: cgroupUsage()
        case .processClock: processClock()
        case .clockTicks: ProcStat.cpuSeconds(pid)
        }
    }

    /// Removes the cgroup (after the process ended; a cgroup with a process in it stays, and says so).
    func remove() {
        guard let cgroup else { return }
        if rmdir(cgroup) != 0, errno != ENOENT {
            print("present-bench: could not remove \(cgroup): \(String(cString: strerror(errno)))")
        }
    }

    /// `usage_usec` of the cgroup, in seconds, when the presenter is in it.
    private func cgroupUsage() -> Double? {
        guard let cgroup,
              let procs = try? String(contentsOfFile: cgroup + "/cgroup.procs", encoding: .utf8),
              procs.split(separator: "\n").contains(Substring(String(pid))),
              let stat = try? String(contentsOfFile: cgroup + "/cpu.stat", encoding: .utf8),
              let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("usage_usec ") }),
              let usec = Double(line.dropFirst("usage_usec ".count)) else { return nil }
        return usec / 1e6
    }

    /// The process's CPU-time clock, in seconds.
    private func processClock() -> Double? {
        guard pid > 0 else { return nil }
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A cgroup v2 directory the benchmark made for its presenters (`present-bench-PID` under the cgroup v2
    /// mount: /sys/fs/cgroup on a systemd machine, /sys/fs/cgroup/unified on a hybrid one), or why there is none.
    static func cgroupParent() -> Result<String, BenchError> {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else {
            return .failure(BenchError("/proc/self/mountinfo is unreadable"))
        }
        // mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER-OPTIONS
        let point = mounts.split(separator: "\n").compactMap { line -> String? in
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { return nil }
            let fields = halves[0].split(separator: " ")
            return fields.count > 4 ? String(fields[4]) : nil
        }.first
        guard let point else { return .failure(BenchError("no cgroup v2 hierarchy is mounted")) }
        let directory = point + "/present-bench-\(getpid())"
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
            return .failure(BenchError("cannot make \(directory): \(String(cString: strerror(errno))) "
                                       + "(run as root on a machine whose cgroup v2 hierarchy is writable)"))
        }
        guard FileManager.default.fileExists(atPath: directory + "/cpu.stat") else {
            rmdir(directory)
            return .failure(BenchError("\(directory) has no cpu.stat (kernel before 4.15?)"))
        }
        return .success(directory)
    }
}
