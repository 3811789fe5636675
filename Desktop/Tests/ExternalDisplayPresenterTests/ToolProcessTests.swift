import ExtDisplayTestSupport
import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The helper processes (poppler's tools) the presenter runs: pages rendered ahead run at a lower CPU priority
/// than pages a flip waits for.
@Suite("Tool processes")
struct ToolProcessTests {
    /// The scheduling priority (nice value) a child reports for itself, read by the kernel's /proc, not by `nice`.
    func childNiceness(_ niceness: Int) throws -> Int? {
        let result = try ToolProcess.run("sh", ["-c", "cut -d' ' -f19 /proc/$$/stat"], niceness: niceness)
        return Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aNicenessRunsTheToolAtThatLowerPriority() throws {
        let own = try childNiceness(0)
        #expect(own != nil)
        #expect(try childNiceness(10) == min(19, (own ?? 0) + 10))
        // Out of range asks are clamped, never refused.
        #expect(try childNiceness(50) == 19)
    }

    @Test func aMissingToolIsStatus127WithOrWithoutNiceness() throws {
        #expect(try ToolProcess.run("edk-no-such-tool", []).status == 127)
        #expect(try ToolProcess.run("edk-no-such-tool", [], niceness: 10).status == 127)
    }
}

/// Tools that hang, print without end, leave grandchildren or start from threads that block signals: every run
/// is bounded in time and memory, and nothing of it is left running afterwards.
@Suite("Tool processes bounded and never left behind")
struct BoundedToolProcessTests {
    /// A folder with a shell script `name` in it; the script first writes its pid (its process group) to `pid`.
    /// The tests run it as `/bin/sh SCRIPT`, never by executing the file: a file just written can still be open
    /// for writing in a child another test is spawning at that moment (the descriptor is inherited until the
    /// child's exec), and executing it then fails with ETXTBSY ("Text file busy").
    static func stub(_ name: String, _ body: String) throws -> (dir: URL, pidFile: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tool-stub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pidFile = dir.appendingPathComponent("pid")
        let script = dir.appendingPathComponent(name)
        try "#!/bin/sh\necho $$ > '\(pidFile.path)'\n\(body)\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return (dir, pidFile)
    }

    /// Whether any process is left in the process group `group` (polled a little: a killed process needs a
    /// moment to be reaped by its new parent).
    static func groupIsGone(_ pidFile: URL) -> Bool {
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
              let group = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        return poll(5) { kill(-group, 0) != 0 && errno == ESRCH }
    }

    @Test func aToolThatHangsIsKilledWithItsWholeGroupAtTheTimeout() throws {
        let (dir, pidFile) = try Self.stub("edk-hang", "sleep 1000 &\nsleep 1000")
        let start = Date()
        let result = try ToolProcess.run("/bin/sh", [dir.appendingPathComponent("edk-hang").path], timeout: 1)
        #expect(result.timedOut)
        #expect(result.status == 128 + SIGTERM || result.status == 128 + SIGKILL, "status \(result.status)")
        #expect(Date().timeIntervalSince(start) < 20, "the run was not bounded by its timeout")
        #expect(Self.groupIsGone(pidFile), "a process of the tool's group still runs")
        #expect(!ToolProcess.liveGroups.contains { "\($0)" == (try? String(contentsOf: pidFile, encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    /// SIGTERM first, then SIGKILL after ``ToolProcess/killGrace``: a tool that ignores SIGTERM (and its
    /// children, which inherit the ignoring) is still ended at its timeout, its whole group with it.
    @Test func aToolIgnoringSIGTERMIsKilledWithSIGKILLAfterTheGraceWithItsWholeGroup() throws {
        let mark = ProcessMark()
        let (dir, pidFile) = try Self.stub("edk-stubborn", """
            export \(mark)
            trap '' TERM
            sleep 1000 &
            sleep 1000
            """)
        let start = Date()
        let result = try ToolProcess.run("/bin/sh", [dir.appendingPathComponent("edk-stubborn").path], timeout: 1)
        #expect(result.timedOut, "the run does not say it timed out")
        // SIGTERM was ignored: only the SIGKILL that follows it ended the tool.
        #expect(result.status == 128 + SIGKILL, "status \(result.status)")
        #expect(Date().timeIntervalSince(start) < 30, "the run was not bounded by its timeout")
        #expect(Self.groupIsGone(pidFile), "a process of the tool's group still runs")
        let left = try mark.leftovers()
        #expect(left.isEmpty, "left running: \(left)")
    }

    @Test func aGrandchildHoldingTheOutputDoesNotHoldUpTheRead() throws {
        // The grandchild leaves its parent (a double fork) with standard output still open: reading to the end
        // of file would wait for it.
        let mark = ProcessMark()
        let (dir, pidFile) = try Self.stub("edk-leaver", "export \(mark)\necho hello\n( sleep 1000 & )\nexit 3")
        let result = try ToolProcess.run("/bin/sh", [dir.appendingPathComponent("edk-leaver").path], timeout: 30)
        #expect(!result.timedOut, "the read waited for the grandchild until the timeout")
        #expect(result.status == 3)
        #expect(String(decoding: result.output, as: UTF8.self) == "hello\n")
        #expect(Self.groupIsGone(pidFile), "the grandchild was left running")
        let left = try mark.leftovers()
        #expect(left.isEmpty, "left running: \(left)")
    }

    @Test func aToolPrintingWithoutEndIsStoppedAtTheOutputLimit() throws {
        let result = try ToolProcess.run("yes", ["edk"], timeout: 30, outputLimit: 1 << 20)
        #expect(result.outputTruncated)
        #expect(!result.timedOut)
        #expect(result.output.count == 1 << 20)
        // Within the limit nothing is cut.
        let small = try ToolProcess.run("printf", ["abc"], outputLimit: 3)
        #expect(!small.outputTruncated && small.output == Data("abc".utf8))
    }

    @Test func aToolStartedFromAThreadThatBlocksSignalsStartsWithNoneBlockedAndItsOwnGroup() throws {
        let outcome = LockedBox<ToolProcess.Result?>(nil)
        let thread = Thread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            for sig in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] { sigaddset(&blocked, sig) }
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            // grep reads its own status: a shell would show its own mask (dash blocks signals while it waits).
            let result = try? ToolProcess.run("grep", ["-E", "^(SigBlk|SigIgn|Pid|NSpgid):", "/proc/self/status"])
            outcome.withLock { $0 = result }
        }
        thread.start()
        #expect(poll(30) { outcome.withLock { $0 } != nil })
        let text = String(decoding: outcome.withLock { $0 }?.output ?? Data(), as: UTF8.self)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        #expect(fields["SigBlk"] == "0000000000000000", "signals blocked in the tool: \(text)")
        let ignored = UInt64(fields["SigIgn"] ?? "", radix: 16) ?? .max
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] {
            #expect(ignored & (1 << UInt64(sig - 1)) == 0, "signal \(sig) ignored in the tool: \(text)")
        }
        #expect(fields["Pid"] != nil && fields["Pid"] == fields["NSpgid"], "the tool does not lead a group of its own: \(text)")
    }

    @Test func killAllEndsEveryToolStillRunning() throws {
        let (dir, pidFile) = try Self.stub("edk-long", "sleep 1000")
        // A registry of the test's own: the process's one also holds the tools of tests running alongside.
        let registry = ToolRegistry()
        let outcome = LockedBox<ToolProcess.Result?>(nil)
        Thread {
            let result = try? ToolProcess.run("/bin/sh", [dir.appendingPathComponent("edk-long").path], timeout: 600, niceness: 0,
                                              outputLimit: 1 << 20, registry: registry)
            outcome.withLock { $0 = result }
        }.start()
        #expect(poll(10) { FileManager.default.fileExists(atPath: pidFile.path) && registry.groups.count == 1 })
        registry.killAll(signal: SIGKILL)
        #expect(poll(10) { outcome.withLock { $0 } != nil }, "the run did not end after killAll")
        #expect(outcome.withLock { $0 }?.status == 128 + SIGKILL)
        #expect(Self.groupIsGone(pidFile))
    }

    @Test func limitsComeFromTheEnvironmentWithinRange() {
        #expect(ToolLimits.from([:]) == ToolLimits())
        let set = ToolLimits.from(["EXTDISPLAY_PDFINFO_TIMEOUT": "2", "EXTDISPLAY_MUTOOL_TIMEOUT": "0.5",
                                   "EXTDISPLAY_PDFTOPPM_TIMEOUT": "7"])
        #expect(set.pdfinfo == 2 && set.mutool == 0.5 && set.pdftoppm == 7)
        for bad in ["abc", "0", "-1", "nan", "inf", "1e9", ""] {
            #expect(ToolLimits.from(["EXTDISPLAY_PDFINFO_TIMEOUT": bad]).pdfinfo == 30, "\(bad)")
        }
        #expect(ToolLimits.describe(30) == "30 s" && ToolLimits.describe(2.5) == "2.5 s")
    }
}
